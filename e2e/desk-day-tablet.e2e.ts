import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, useBrowser } from './support/browser';
import { demoFrontDesk, demoOwner, signedInDeskPage } from './support/desk';
import { withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/**
 * The front desk's pages (docs/desk.md "6. The front desk's day"), with their titles; owners' pages
 * signed in as an owner.
 */
const pages = [
  { path: '/patients', he: 'מטופלים', en: 'Patients', owner: false },
  { path: `/patients/${withCheckDigit('03984512')}`, he: 'דנה לוי', en: 'דנה לוי', owner: false },
  { path: '/forms', he: 'טפסים', en: 'Forms', owner: false },
  { path: '/payments', he: 'תשלומים', en: 'Payments', owner: false },
  { path: '/waitlist', he: 'רשימת המתנה', en: 'Waitlist', owner: false },
  { path: '/integrations', he: 'חיבורים למערכות', en: 'Integrations', owner: true },
  { path: '/problems', he: 'תקלות', en: 'Problems', owner: true },
  { path: '/audit', he: 'יומן פעולות', en: 'Audit log', owner: true },
] as const;

/** Whether anything makes the page wider than the window (a sideways scroll on a tablet). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

describe('the desk: the day’s pages on a tablet held upright (768 px)', () => {
  for (const lang of ['he', 'en'] as const) {
    it(`every page reads without a sideways scroll and is axe-clean, in ${lang}`, async () => {
      const front = await signedInDeskPage(browser(), demoFrontDesk, { lang, viewport: 'tablet' });
      const owner = await signedInDeskPage(browser(), demoOwner, { lang, viewport: 'tablet' });
      for (const { context } of [front, owner]) context.setDefaultTimeout(15_000);
      for (const entry of pages) {
        const { page } = entry.owner ? owner : front;
        await page.goto(`${baseUrl}/desk${entry.path}`);
        await page.getByRole('heading', { level: 1, name: entry[lang] }).waitFor();
        await page.locator('[role="progressbar"]').first().waitFor({ state: 'detached' });
        expect(await overflows(page), entry.path).toBe(false);
        await expectNoAxeViolations(page);
      }
      await front.context.close();
      await owner.context.close();
    }, 120_000);
  }
});
