import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, useBrowser, newPage } from './support/browser';
import { demoLinkPath } from './support/demo-links';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

const legalPages = [
  { path: '/privacy', title: 'מדיניות פרטיות', updated: 'יוני 2025', en: 'Privacy policy' },
  { path: '/terms', title: 'תנאי שימוש', updated: 'יוני 2025', en: 'Terms of use' },
  {
    path: '/accessibility',
    title: 'הצהרת נגישות',
    updated: 'יולי 2023',
    en: 'Accessibility statement',
  },
];

describe.each(legalPages)('legal page $path', ({ path, title, updated, en }) => {
  it('shows the Hebrew document with its date and a back button to the landing page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(title);
    const article = page.locator('article');
    expect(await article.getAttribute('lang')).toBe('he');
    expect(await article.getAttribute('dir')).toBe('rtl');
    expect(await article.innerText()).toContain(updated);
    expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(3);

    await page.getByRole('link', { name: 'חזרה' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText('קביעת תורים בקלות ובמהירות').waitFor();
    await context.close();
  });

  it('keeps the Hebrew document in English, with an English note and title', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.goto(`${baseUrl}${path}`);
    await page.getByText('This document is available in Hebrew only.').waitFor();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(en);
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await page.getByRole('link', { name: 'Back' }).waitFor();
    await context.close();
  });
});

/** The most characters on one line of the article's text, as laid out. */
function longestLine(page: Page): Promise<number> {
  return page.locator('article').evaluate((article) => {
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let longest = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      let top: number | null = null;
      let count = 0;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top === null || Math.abs(rect.top - top) > rect.height / 2) {
          top = rect.top;
          count = 0;
        }
        longest = Math.max(longest, ++count);
      }
    }
    return longest;
  });
}

describe.each(legalPages)('legal page $path on a desktop', ({ path, title }) => {
  it('keeps its lines to 75 characters or fewer', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const longest = await longestLine(page);
    expect(longest).toBeLessThanOrEqual(75);
    // Still a reading width, not a narrow column.
    expect(longest).toBeGreaterThan(50);
    await context.close();
  });
});

describe('the legal links', () => {
  it('are in the footer of every patient page, one step from the accessibility statement', async () => {
    const form = await demoLinkPath(baseUrl, 'formUrl');
    const paths = [
      '/',
      '/clinic/1',
      '/login/1',
      '/booking/1',
      '/appointments/1',
      form,
      '/completed',
      '/expired',
      '/privacy',
      '/terms',
      '/accessibility',
    ];
    const { context, page } = await newPage(browser());
    for (const path of paths) {
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const footer = page.getByRole('contentinfo');
      expect(await footer.getByRole('link').allInnerTexts(), path).toEqual([
        'מדיניות פרטיות',
        'תנאי שימוש',
        'הצהרת נגישות',
      ]);
    }
    await page.goto(`${baseUrl}/clinic/1`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('contentinfo').getByRole('link', { name: 'הצהרת נגישות' }).click();
    await page.waitForURL(`${baseUrl}/accessibility`);
    await page.getByRole('heading', { level: 1, name: 'הצהרת נגישות' }).waitFor();
    expect(
      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: 'הצהרת נגישות' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await context.close();
  });

  it('read in English on an English page', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: 'desktop' });
    await page.goto(`${baseUrl}/login/1`);
    // The page is sent in Hebrew and turns English once its texts have come.
    await page.locator('html[lang="en"]').waitFor();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).waitFor();
    expect(await page.getByRole('contentinfo').getByRole('link').allInnerTexts()).toEqual([
      'Privacy policy',
      'Terms of use',
      'Accessibility statement',
    ]);
    await context.close();
  });
});

describe('the accessibility statement', () => {
  it('names the standard, the level and how to reach the accessibility coordinator', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/accessibility`);
    const text = await page.locator('article').innerText();
    expect(text).toContain('5568');
    expect(text).toContain('AA');
    expect(text).toContain('WCAG 2.0');
    const mail = page.getByRole('link', { name: 'accessibility@marpe.co.il' });
    expect(await mail.getAttribute('href')).toBe('mailto:accessibility@marpe.co.il');
    await context.close();
  });
});

describe('status pages', () => {
  it('shows the form-completed page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/completed`);
    await page.getByRole('heading', { level: 1, name: 'טופס נשלח' }).waitFor();
    await page.getByText('הטופס נשלח בהצלחה למרפאה. תודה').waitFor();
    expect(await page.title()).toBe('טופס נשלח');
    await context.close();
  });

  it('shows the expired-link page telling the patient to ask the clinic for a new link', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/expired`);
    await page.getByRole('heading', { level: 1, name: 'הקישור אינו תקף' }).waitFor();
    await page.getByText('אנא פנו למרפאה לקבלת קישור חדש').waitFor();
    await context.close();
  });

  it.each(['/completed', '/expired'])(
    "%s?clinic=1 names the link's clinic with a tap-to-call button (axe in he and en)",
    async (path) => {
      for (const lang of ['he', 'en'] as const) {
        const { context, page } = await newPage(browser(), { lang });
        await page.goto(`${baseUrl}${path}?clinic=1`);
        await page.locator(`html[lang="${lang}"]`).waitFor();
        const call = page.getByRole('link', {
          name: lang === 'he' ? /^התקשרו למרפאה/ : /^Call the clinic/,
        });
        await call.waitFor();
        expect(await call.getAttribute('href')).toMatch(/^tel:[\d+]+$/);
        await page.getByText('מרפאת שיניים לב העיר').waitFor();
        await expectNoAxeViolations(page);
        await context.close();
      }
    },
  );
});
