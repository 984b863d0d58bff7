/**
 * The languages Marpe writes patient messages in; Hebrew is the default
 * (docs/product/site.md#languages).
 */
export const messageLanguages = ['he', 'en'] as const;
export type MessageLanguage = (typeof messageLanguages)[number];

/**
 * The message language a request asks for: the supported language with the highest q-value in
 * Accept-Language (the web app sends the language the patient reads the page in), else Hebrew.
 */
export function messageLanguageOf(acceptLanguage: string | undefined): MessageLanguage {
  let best: { language: MessageLanguage; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    const language = messageLanguages.find((l) => l === primary);
    if (!language) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language, q };
  }
  return best?.language ?? 'he';
}
