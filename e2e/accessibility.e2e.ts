import { describe, it } from 'vitest';
import { axeCases, expectNoAxeViolations, newPage, useBrowser } from './support/browser';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

// Without a session /appointments/1 lands on the login page; signed in it is checked, dialogs
// included, in appointments.e2e.ts.
const pages = [
  '/',
  '/privacy',
  '/terms',
  '/accessibility',
  '/completed',
  '/expired',
  '/login/1',
  '/appointments/1',
  // Without a session the verification form; signed in, booking.e2e.ts checks the steps.
  '/booking/1',
];
const cases = axeCases(pages);

describe('axe (WCAG 2.1 A/AA and best practices)', () => {
  it.each(cases)(
    '$path in $lang on $viewport has no violations',
    async ({ path, lang, viewport }) => {
      const { context, page } = await newPage(browser(), { lang, viewport });
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoAxeViolations(page);
      await context.close();
    },
  );

  it.each(['he', 'en'] as const)('the open language menu in %s has no violations', async (lang) => {
    const { context, page } = await newPage(browser(), { lang });
    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: lang === 'he' ? 'שפה' : 'Language' }).click();
    await page.getByRole('menu').waitFor();
    // MUI's menu fades in; axe must see it settled.
    await page.waitForFunction(() => {
      const paper = document.querySelector('[role="menu"]')?.parentElement;
      return paper ? getComputedStyle(paper).opacity === '1' : false;
    });
    await expectNoAxeViolations(page);
    await context.close();
  });
});
