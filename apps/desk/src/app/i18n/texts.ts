/** One language's texts: the app's own as the namespace `common`, each feature's as its folder's name. */
export type Texts = Record<string, Record<string, unknown>>;

/** Each feature keeps its texts beside it (`features/<name>/i18n/{he,en}.json`). */
export function collectTexts(
  common: Record<string, unknown>,
  features: Record<string, { default: Record<string, unknown> }>,
): Texts {
  const texts: Texts = { common };
  for (const [file, module] of Object.entries(features)) {
    const namespace = /features\/([^/]+)\/i18n\/(?:he|en)\.json$/.exec(file)?.[1];
    if (namespace) texts[namespace] = module.default;
  }
  return texts;
}
