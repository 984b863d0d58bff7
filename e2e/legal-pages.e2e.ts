import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, useBrowser } from './support/browser';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

const legalPages = [
  { path: '/privacy', he: 'יוני 2025', en: 'June 2025' },
  { path: '/terms', he: 'יוני 2025', en: 'June 2025' },
  { path: '/accessibility', he: 'יולי 2023', en: 'July 2023' },
];

const sizes = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

const cases = legalPages.flatMap((page) =>
  (['he', 'en'] as const).flatMap((lang) =>
    (['phone', 'desktop'] as const).map((size) => ({ ...page, lang, size })),
  ),
);

async function open(lang: 'he' | 'en', size: keyof typeof sizes, path: string) {
  const context = await browser().newContext({ viewport: sizes[size], locale: 'he-IL' });
  await context.addInitScript((value) => window.localStorage.setItem('lang', value), lang);
  const page = await context.newPage();
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page };
}

/** The reading column's margins to the window's edges, and how wide the page scrolls. */
function column(page: Page) {
  return page.locator('article').evaluate((article) => {
    const box = article.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const back = document.querySelector('main a[href="/"]')?.getBoundingClientRect();
    return {
      left: box.left,
      right: width - box.right,
      width: box.width,
      scrolls: document.documentElement.scrollWidth > width,
      backInColumn: back ? back.left >= box.left - 12 && back.right <= box.right + 12 : false,
    };
  });
}

describe('the legal pages at a phone and a desktop width, in Hebrew and English', () => {
  it.each(cases)(
    '$path in $lang on a $size: one centred reading column, "last updated" the same way, no axe violations',
    async ({ path, lang, size, he, en }) => {
      const { context, page } = await open(lang, size, path);
      // In English the app renders the page afresh once its texts have come: measure that one.
      if (lang === 'en') await page.getByText(`Last updated: ${en}`, { exact: true }).waitFor();
      const shape = await column(page);
      expect(shape.scrolls).toBe(false);
      // Centred, both ways: the text neither hugs one edge nor leaves half the screen empty.
      expect(Math.abs(shape.left - shape.right)).toBeLessThanOrEqual(2);
      expect(shape.backInColumn).toBe(true);
      if (size === 'desktop') {
        expect(shape.width).toBeGreaterThan(400);
        expect(shape.width).toBeLessThan(sizes.desktop.width / 2);
      }
      // Under the title, in the same words and format on every page.
      const updated = await page
        .getByRole('heading', { level: 1 })
        .evaluate((h1) => h1.nextElementSibling?.textContent);
      expect(updated).toBe(`עודכן לאחרונה: ${he}`);
      await expectNoAxeViolations(page);
      if (path === '/terms') await saveScreenshot(page, `legal-terms-${size}-${lang}`);
      await context.close();
    },
  );
});
