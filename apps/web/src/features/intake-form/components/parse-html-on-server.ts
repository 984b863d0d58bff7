// The server renderer's HTML parser for SafeHtml (ADR 021): imported by prerender.tsx only, so the
// browser's bundle never carries it (the browser has DOMParser). The signed PDF reads clinic
// markup with the same parser (packages/shared).
export { parseHtmlBody as parseHtmlOnServer } from '@marpe/shared/parse-html';
