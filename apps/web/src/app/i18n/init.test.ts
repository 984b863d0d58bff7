import { describe, expect, it } from 'vitest';
import en from './en.json';
import he from './he.json';
import { i18nReady, initI18n } from './init';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** i18next's plural keys: `key_one`, `key_two`, `key_other`… (CLDR's categories). */
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

describe('initI18n', () => {
  it('starts in Hebrew, right to left, when nothing is stored', () => {
    const i18n = initI18n();

    expect(i18n.language).toBe('he');
    expect(i18n.t('app.title')).toBe('מרפאה חכמה');
    expect(document.documentElement).toHaveAttribute('lang', 'he');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('starts in the stored language', () => {
    localStorage.setItem('lang', 'en');
    const i18n = initI18n({ texts: { he, en } });

    expect(i18n.language).toBe('en');
    expect(i18n.t('app.title')).toBe('Smart Clinic');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('treats an unknown stored language as Hebrew', () => {
    localStorage.setItem('lang', 'fr');

    expect(initI18n().language).toBe('he');
    expect(localStorage.getItem('lang')).toBe('he');
  });

  it('persists a language change and flips <html lang dir>', async () => {
    const i18n = initI18n();

    await i18n.changeLanguage('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    await i18n.changeLanguage('he');
    expect(localStorage.getItem('lang')).toBe('he');
    expect(document.documentElement).toHaveAttribute('lang', 'he');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('fetches the English texts, which do not come with the app, before the first render', async () => {
    localStorage.setItem('lang', 'en');
    const i18n = initI18n();
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);

    await i18nReady(i18n);
    expect(i18n.t('app.title')).toBe('Smart Clinic');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('switches to English once its texts are fetched', async () => {
    const i18n = initI18n();
    await i18n.changeLanguage('en');
    expect(i18n.language).toBe('en');
    expect(i18n.t('app.title')).toBe('Smart Clinic');
  });

  it('has the same keys in Hebrew and English, plural forms aside', () => {
    const base = (all: string[]) => [...new Set(all.map((key) => key.replace(pluralSuffix, '')))];
    expect(base(keys(en)).sort()).toEqual(base(keys(he)).sort());
  });

  it("has every plural form a language needs (Hebrew's dual: one, two, other)", () => {
    for (const [lang, texts] of [
      ['he', he],
      ['en', en],
    ] as const) {
      const all = keys(texts);
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const plurals = new Set(
        all.filter((k) => pluralSuffix.test(k)).map((k) => k.replace(pluralSuffix, '')),
      );
      for (const key of plurals) {
        expect(
          all.filter((k) => k.replace(pluralSuffix, '') === key).sort(),
          `${lang} ${key}`,
        ).toEqual(forms.map((form) => `${key}_${form}`).sort());
      }
    }
  });
});
