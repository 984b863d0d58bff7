import i18next, { type BackendModule, type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { directionOf, isLanguage, languages, languageStorageKey, type Language } from './languages';
import { heTexts } from './texts-he';

/**
 * Hebrew, the desk's first language, comes with the app; English is its own chunk, fetched when
 * first used (a reader who chose it, or the language button, which waits for it): the entry every
 * page starts with carries one language's texts, not both.
 */
const loadEnglish = () => import('./texts-en').then((module) => module.enTexts);

/** Both languages' texts, for the tests that compare them. */
export async function deskResources(): Promise<Resource> {
  return { he: heTexts, en: await loadEnglish() };
}

/** i18next's loader for what is not bundled: only English's namespaces ever are. */
const lazyTexts: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const texts = language === 'en' ? loadEnglish() : Promise.resolve(heTexts);
    texts.then(
      (loaded) => callback(null, loaded[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

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
  await instance
    .use(lazyTexts)
    .use(initReactI18next)
    .init({
      resources: { he: heTexts },
      partialBundledLanguages: true,
      ns: Object.keys(heTexts),
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
