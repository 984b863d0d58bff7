// The server's HTML parser for html fields: the page's server renderer (ADR 021) and the signed
// PDF read clinic markup with it. Its own entry point (`@marpe/shared/parse-html`), so the browser's
// bundle never carries parse5 (the browser has DOMParser).
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type { HtmlNode } from './safe-html.js';

function fromParse5(node: DefaultTreeAdapterTypes.ChildNode): HtmlNode {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value;
  if (!('tagName' in node)) return null;
  return {
    tag: node.tagName,
    href: node.attrs.find((attribute) => attribute.name === 'href')?.value ?? null,
    children: node.childNodes.map(fromParse5),
  };
}

/**
 * The nodes of an HTML text's body, as DOMParser's `text/html` gives them: the HTML standard's
 * algorithm over a whole document, with scripting off (every named entity decoded as the browser
 * decodes it).
 */
export function parseHtmlBody(html: string): HtmlNode[] {
  const document = parse(html, { scriptingEnabled: false });
  const root = document.childNodes.find((node) => node.nodeName === 'html');
  const body =
    root && 'childNodes' in root ? root.childNodes.find((node) => node.nodeName === 'body') : null;
  return body && 'childNodes' in body ? body.childNodes.map(fromParse5) : [];
}
