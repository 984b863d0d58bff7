import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import he from './he.json';
import { directionOf, isLanguage, languages, languageStorageKey, type Language } from './languages';

/**
 * Each feature keeps its texts beside it (`features/<name>/i18n/{he,en}.json`) as the namespace
 * `<name>`; the app's own (layout, errors, shared words) are the default namespace `common`.
 */
const featureTexts = import.meta.glob<{ default: Record<string, unknown> }>(
  '../../features/*/i18n/*.json',
  { eager: true },
);

export function deskResources(): Resource {
  const resources: Resource = { he: { common: he }, en: { common: en } };
  for (const [file, module] of Object.entries(featureTexts)) {
    const match = /features\/([^/]+)\/i18n\/(he|en)\.json$/.exec(file);
    if (!match) continue;
    const [, namespace = '', language = ''] = match;
    (resources[language] ??= {})[namespace] = module.default;
  }
  return resources;
}

function storedLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(languageStorageKey);
    return isLanguage(stored) ? stored : 'he';
  } catch {
    return 'he';
  }
}

/** `<html lang dir>` follow the language, so screen readers and the layout read it right. */
export function applyLanguage(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

export async function initDeskI18n(language: Language = storedLanguage()): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    resources: deskResources(),
    lng: language,
    fallbackLng: 'he',
    supportedLngs: [...languages],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyLanguage(language);
  instance.on('languageChanged', (next) => {
    const chosen = isLanguage(next) ? next : 'he';
    applyLanguage(chosen);
    try {
      window.localStorage.setItem(languageStorageKey, chosen);
    } catch {
      // Private mode: the choice lasts the visit.
    }
  });
  return instance;
}
