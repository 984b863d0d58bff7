import i18next, { type i18n as I18n } from 'i18next';
import en from './en.json';
import he from './he.json';

export const languages = ['he', 'en'] as const;
export type Language = (typeof languages)[number];
export type Direction = 'rtl' | 'ltr';
/** The language of the pages prerendered at build time: the app's default. */
export const prerenderLanguage: Language = 'he';

const storageKey = 'lang';

export function isLanguage(value: unknown): value is Language {
  return languages.includes(value as Language);
}

/** i18next may report a code we never offered (e.g. from a stale store); treat it as Hebrew. */
export function toLanguage(value: unknown): Language {
  return isLanguage(value) ? value : prerenderLanguage;
}

export function directionOf(language: Language): Direction {
  return language === 'he' ? 'rtl' : 'ltr';
}

interface InitOptions {
  storage?: Storage;
  root?: HTMLElement;
}

/**
 * Creates the app's i18next instance with bundled resources, so the first render is already
 * translated. Every language change is persisted and mirrored on <html lang dir>.
 */
export function initI18n({
  storage = window.localStorage,
  root = document.documentElement,
}: InitOptions = {}): I18n {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (code: string) => {
    const language = toLanguage(code);
    storage.setItem(storageKey, language);
    root.lang = language;
    root.dir = directionOf(language);
  });
  void instance.init({
    lng: toLanguage(storage.getItem(storageKey)),
    fallbackLng: 'en',
    supportedLngs: languages,
    resources: { he: { translation: he }, en: { translation: en } },
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  return instance;
}
