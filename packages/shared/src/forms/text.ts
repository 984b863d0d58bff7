/**
 * Text rules of the intake form: the clean-up before validation (docs/forms.md#field-types) and
 * the `{{initData.key}}` placeholders (docs/forms.md#placeholders).
 */
import type { InitData } from './schema.js';

/**
 * Control (Cc), format (Cf — bidi marks, zero-width characters), unassigned (Cn) code points and
 * lone surrogates (Cs). Format characters count as control characters here: they are invisible
 * and only ever reach a form by pasting.
 */
const unwanted = /[\p{Cc}\p{Cf}\p{Cn}\p{Cs}]/gu;

/** Text and email values are stripped of control and unassigned characters and trimmed. */
export function cleanText(value: string): string {
  return value.replace(unwanted, '').trim();
}

/** `{{initData.key}}`, spaces allowed inside the braces; the key is anything but spaces and braces. */
const placeholder = /\{\{\s*initData\.([^\s{}]+)\s*\}\}/g;

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

/**
 * Replaces every `{{initData.key}}` with `initData[key]`, or with nothing when the key is missing
 * (own keys only: `{{initData.constructor}}` is missing too). `escape: true` HTML-escapes the
 * inserted values (for html fields, whose title is markup).
 */
export function resolvePlaceholders(
  text: string,
  initData: InitData,
  options: { escape?: boolean } = {},
): string {
  return text.replace(placeholder, (_match, key: string) => {
    const value = Object.hasOwn(initData, key) ? (initData[key] ?? '') : '';
    return options.escape ? escapeHtml(value) : value;
  });
}
