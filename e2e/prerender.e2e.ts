import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { PARENT_SITE_URL } from './support/constants';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

/** The pages prerendered at build time (ADR 021), each with its heading in Hebrew and English. */
const pages = [
  {
    path: '/',
    he: 'מרפא – זימון תורים למרפאות שיניים',
    en: 'Marpe – appointment booking for dental clinics',
  },
  // The legal texts are Hebrew only (ADR 002), in either language.
  { path: '/privacy', he: 'מדיניות פרטיות', en: 'מדיניות פרטיות' },
  { path: '/terms', he: 'תנאי שימוש', en: 'תנאי שימוש' },
  { path: '/accessibility', he: 'הצהרת נגישות', en: 'הצהרת נגישות' },
  { path: '/completed', he: 'טופס נשלח', en: 'Form sent' },
  { path: '/expired', he: 'הקישור אינו תקף', en: 'This link is not valid' },
] as const;

/** Console messages that are errors or warnings: React reports hydration mismatches there. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

describe('prerendered pages', () => {
  it.each(pages)('$path renders fully with JavaScript disabled', async ({ path, he }) => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: he }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    // Styled from the HTML alone: the app bar is cyan before any script could insert a rule.
    const bar = page.getByRole('banner');
    expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(0, 188, 212)',
    );
    expect(await page.getByRole('link', { name: 'מרפא', exact: true }).getAttribute('href')).toBe(
      '/',
    );
    expect(await page.locator('noscript').count()).toBe(0);
    await context.close();
  });

  it('the landing page links to the configured parent site without JavaScript', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    const logoLink = page.getByRole('link', { name: 'מרפא – לאתר הבית' });
    expect(await logoLink.getAttribute('href')).toBe(PARENT_SITE_URL);
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link').allInnerTexts()).toEqual([
      'מדיניות פרטיות',
      'תנאי שימוש',
      'הצהרת נגישות',
    ]);
    await context.close();
  });

  it.each(pages)('$path hydrates without a warning', async ({ path, he }) => {
    const { context, page } = await newPage(browser());
    const problems = consoleProblems(page);
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: he }).waitFor();
    await page.waitForLoadState('networkidle');
    // Hydrated: the language menu opens (its handler is React's).
    await page.getByRole('button', { name: 'שפה' }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(pages)(
    '$path in English renders the English page over the HTML',
    async ({ path, en }) => {
      const { context, page } = await newPage(browser(), { lang: 'en' });
      const problems = consoleProblems(page);
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: en }).waitFor();
      await page.locator('html[lang="en"][dir="ltr"]').waitFor();
      await page.getByRole('button', { name: 'Language' }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('the clinic page rendered on the server', () => {
  const clinicName = 'מרפאת שיניים לב העיר';

  it('holds the clinic and its caregivers before any script runs', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/clinic/1`);
    await page.getByRole('heading', { level: 1, name: clinicName }).waitFor();
    expect(await page.title()).toBe(clinicName);
    const caregivers = page.getByRole('list', { name: 'המטפלים במרפאה' }).getByRole('listitem');
    expect(await caregivers.count()).toBe(4);
    await caregivers.filter({ hasText: 'ד"ר יעל כהן' }).waitFor();
    expect(await page.getByRole('link', { name: 'קביעת תור' }).getAttribute('href')).toBe(
      '/login/1?next=booking',
    );
    await context.close();
  });

  it('hydrates without a warning, in Hebrew and in English', async () => {
    for (const lang of ['he', 'en'] as const) {
      const { context, page } = await newPage(browser(), { lang });
      const problems = consoleProblems(page);
      await page.goto(`${baseUrl}/clinic/1`);
      await page.getByRole('heading', { level: 1, name: clinicName }).waitFor();
      await page.waitForLoadState('networkidle');
      await page
        .getByRole('link', { name: lang === 'he' ? 'קביעת תור' : 'Book an appointment' })
        .click();
      await page.waitForURL(/\/login\/1/);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('leaves an unknown clinic to the page, which says so', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/clinic/999`);
    await page.getByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }).waitFor();
    await context.close();
  });
});
