export const languages = ['he', 'en'] as const;
export type Language = (typeof languages)[number];
export type Direction = 'rtl' | 'ltr';

/** The desk keeps its own choice: a clinic's staff may read it in English while patients read Hebrew. */
export const languageStorageKey = 'marpe-desk-lang';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

export const toLanguage = (value: string | undefined): Language =>
  isLanguage(value?.slice(0, 2)) ? (value?.slice(0, 2) as Language) : 'he';

export const directionOf = (language: Language): Direction => (language === 'he' ? 'rtl' : 'ltr');
