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

  it('has the same keys in Hebrew and English, but for the plural forms each language has', () => {
    // Hebrew has a dual ("יומיים", key_two) that English has not.
    const base = (all: string[]) =>
      [...new Set(all.map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
    expect(base(keys(en))).toEqual(base(keys(he)));
  });

  it('has the plural forms of each language: _one, _other, and _two in Hebrew', () => {
    const plurals = (all: string[], form: string) =>
      all.filter((key) => key.endsWith(`_${form}`)).map((key) => key.replace(/_\w+$/, ''));
    const heOther = plurals(keys(he), 'other');
    expect(plurals(keys(he), 'one')).toEqual(heOther);
    expect(plurals(keys(he), 'two')).toEqual(heOther);
    expect(plurals(keys(en), 'other').sort()).toEqual([...heOther].sort());
    expect(plurals(keys(en), 'one').sort()).toEqual([...heOther].sort());
  });
});
