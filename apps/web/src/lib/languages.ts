// The app's languages and the rules about them, without i18next: the small script that wakes a
// page painted from HTML (wake-on-demand.ts, ADR 025) decides with them before any of the app loads.

export const languages = ['he', 'en'] as const;
export type Language = (typeof languages)[number];
export type Direction = 'rtl' | 'ltr';
/** The language of the pages prerendered at build time: the app's default. */
export const prerenderLanguage: Language = 'he';

/** Where the patient's choice of language is kept (localStorage). */
export const languageStorageKey = 'lang';

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
