import i18next, { type i18n as I18n } from 'i18next';
import en from './en.json';
import he from './he.json';
import { directionOf, languages, languageStorageKey, toLanguage } from './languages';

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
    storage.setItem(languageStorageKey, language);
    root.lang = language;
    root.dir = directionOf(language);
  });
  void instance.init({
    lng: toLanguage(storage.getItem(languageStorageKey)),
    fallbackLng: 'en',
    supportedLngs: languages,
    resources: { he: { translation: he }, en: { translation: en } },
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  return instance;
}
