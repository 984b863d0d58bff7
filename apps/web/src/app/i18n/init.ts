import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import he from './he.json';
import {
  directionOf,
  isLanguage,
  languages,
  languageStorageKey,
  prerenderLanguage,
  toLanguage,
  type Language,
} from '../../lib/languages';

/**
 * A language's texts: Hebrew's keys, except plural forms only Hebrew has (its dual, `_two`),
 * which English, with one and other alone, leaves out (i18next picks by CLDR's categories).
 */
type Texts = WithoutDual<typeof he>;
type WithoutDual<T> = {
  [K in keyof T as K extends `${string}_two` ? never : K]: T[K] extends string
    ? T[K]
    : WithoutDual<T[K]>;
};

/**
 * Hebrew, the default, comes with the app's entry; English is its own chunk, fetched when a page
 * is read in English or the language menu is reached (ADR 025: the app's code is what a page waits
 * for at the patient's first act, and most patients never need the second language).
 */
const fetchTexts: Partial<Record<Language, () => Promise<Texts>>> = {
  en: async () => (await import('./en.json')).default,
};

const fetchingBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const fetchOne = isLanguage(language) ? fetchTexts[language] : undefined;
    if (!fetchOne) {
      callback(new Error(`no texts to fetch for ${language}`), false);
      return;
    }
    fetchOne().then(
      (texts) => callback(null, texts),
      // i18next retries a failed read; the page stays in the language it has meanwhile.
      (error: unknown) => callback(error as Error, false),
    );
  },
};

interface InitOptions {
  storage?: Storage;
  root?: HTMLElement;
  /** Texts given at once rather than fetched (tests give both languages). */
  texts?: Partial<Record<Language, Texts>>;
}

/**
 * Creates the app's i18next instance. Every language change is persisted and mirrored on
 * <html lang dir>. A language whose texts are not given is fetched: wait for `i18nReady` before
 * the first render, so that it is already translated.
 */
export function initI18n({
  storage = window.localStorage,
  root = document.documentElement,
  texts = { he },
}: InitOptions = {}): I18n {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (code: string) => {
    const language = toLanguage(code);
    storage.setItem(languageStorageKey, language);
    root.lang = language;
    root.dir = directionOf(language);
  });
  void instance.use(fetchingBackend).init({
    lng: toLanguage(storage.getItem(languageStorageKey)),
    // Both files hold the same keys (init.test.ts); Hebrew is the one always at hand.
    fallbackLng: prerenderLanguage,
    supportedLngs: languages,
    resources: Object.fromEntries(
      Object.entries(texts).map(([language, translation]) => [language, { translation }]),
    ),
    partialBundledLanguages: true,
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  return instance;
}

/** Resolves once the texts of the instance's language are in (at once when they came with it). */
export function i18nReady(instance: I18n): Promise<void> {
  return instance.loadLanguages(instance.language);
}

/** Starts fetching every language's texts, as the patient reaches the language menu. */
export function preloadLanguages(instance: I18n): void {
  void instance.loadLanguages([...languages]);
}
