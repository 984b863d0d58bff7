import type { CreatedStaffInvitation } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, useBrowser } from './support/browser';
import {
  deskFetch,
  demoOwner,
  newDeskPage,
  signedInDeskPage,
  type DeskViewport,
} from './support/desk';
import { messagesTo, nextCode } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

describe('the desk: signing in', () => {
  for (const lang of ['he', 'en'] as const) {
    for (const viewport of ['desktop', 'tablet'] as DeskViewport[]) {
      it(`the sign-in page reads in ${lang} on a ${viewport} and has no axe violations`, async () => {
        const { context, page } = await newDeskPage(browser(), { lang, viewport });
        await page.goto(`${baseUrl}/desk/`);
        // Not signed in: the desk's address leads to sign-in, and back after it.
        await page.waitForURL(/\/desk\/sign-in\?next=%2F$/);
        await page
          .getByRole('heading', {
            level: 1,
            name: lang === 'he' ? 'כניסה לדלפק' : 'Sign in to the desk',
          })
          .waitFor();
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(
          lang === 'he' ? 'rtl' : 'ltr',
        );
        await expectNoAxeViolations(page);
        // A wrong number is said at the field, in the reader's language, before any call.
        await page.getByRole('textbox').fill('12345');
        await page
          .getByRole('button', { name: lang === 'he' ? 'שליחת קוד' : 'Send a code' })
          .click();
        await page
          .getByText(
            lang === 'he'
              ? 'יש להזין מספר נייד ישראלי תקין'
              : 'Enter a valid Israeli mobile number',
          )
          .waitFor();
        await expectNoAxeViolations(page);
        await context.close();
      });
    }
  }

  it('the owner signs in with the SMS code and reaches their account; the page is axe-clean', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    await page.goto(`${baseUrl}/desk/account`);
    await page.getByRole('heading', { level: 1, name: 'החשבון שלי' }).waitFor();
    await expect(page.getByText('רונית מזרחי').first().isVisible()).resolves.toBe(true);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-account');
    // The language switch keeps the page and flips its direction.
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'עברית' }).click();
    await context.close();
  });

  it('an invitation link makes a new member, who signs in with its code', async () => {
    const owner = await signedInDeskPage(browser(), demoOwner);
    await owner.page.goto(`${baseUrl}/desk/account`);
    const phone = '0527000077';
    const created = await deskFetch<CreatedStaffInvitation>(
      owner.page,
      '/api/integration/staff/invitations',
      {
        method: 'POST',
        body: { name: 'מאיה לוי', phone, role: 'front_desk', send_sms: false },
      },
    );
    expect(created.status).toBe(201);
    await owner.context.close();

    const url = new URL(created.body.url);
    for (const lang of ['en', 'he'] as const) {
      const { context, page } = await newDeskPage(browser(), { lang });
      await page.goto(`${baseUrl}${url.pathname}`);
      await page
        .getByText(
          lang === 'he'
            ? 'מאיה לוי, הוזמנת להצטרף לצוות של מרפאת שיניים לב העיר'
            : 'מאיה לוי, you are invited to join the staff of מרפאת שיניים לב העיר',
        )
        .waitFor();
      await expectNoAxeViolations(page);
      if (lang === 'en') {
        await context.close();
        continue;
      }
      const before = (await messagesTo(phone)).length;
      await page.getByRole('button', { name: 'שליחת קוד' }).click();
      const code = await nextCode(phone, before);
      // A code typed wrong is said at the field; the right one still works.
      const codeField = page.getByRole('textbox', { name: 'קוד אימות' });
      await codeField.fill(code === '000000' ? '111111' : '000000');
      await page.getByText('הקוד שגוי').waitFor();
      await expectNoAxeViolations(page);
      await codeField.fill(code);
      await page.waitForURL((u) => !u.pathname.startsWith('/desk/invite'));
      const session = await deskFetch<{ account: { name: string } }>(
        page,
        '/api/staff-auth/session',
      );
      expect(session.body.account.name).toBe('מאיה לוי');
      // Used: the link has ended, and says so.
      await page.goto(`${baseUrl}${url.pathname}`);
      await page.getByText('ההזמנה הסתיימה').waitFor();
      await expectNoAxeViolations(page);
      await context.close();
    }
  });
});
