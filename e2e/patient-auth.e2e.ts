import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, newPage, switchLanguage, useBrowser } from './support/browser';
import { messagesTo, nextCode, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

// The server allows 5 codes per phone and 30 per client address an hour, shared by the whole
// suite: each journey has its own phone and sends as few codes as it can (6 in this file).

/** Demo patients of clinic 1 (apps/api/src/demo/demo-clinic.ts); ID numbers get a check digit. */
const dana = { idBase: '03984512', phone: '0501234567', firstName: 'דנה' };
const yossi = { idBase: '20547718', phone: '0527654321' };
const merav = { idBase: '31266904', phone: '0541112233' };
const uri = { idBase: '05873341', phone: '0589876543' };

const heading = {
  he: { identity: 'תעודת זהות וטלפון', names: 'פרטים אישיים', code: 'קוד אימות' },
  en: { identity: 'ID and phone', names: 'Personal details', code: 'Verification code' },
};
const label = {
  he: {
    idNumber: 'מספר תעודת זהות',
    phone: 'טלפון נייד',
    firstName: 'שם פרטי',
    lastName: 'שם משפחה',
    code: 'קוד אימות',
    continue: 'המשך',
  },
  en: {
    idNumber: 'ID number',
    phone: 'Mobile phone',
    firstName: 'First name',
    lastName: 'Last name',
    code: 'Verification code',
    continue: 'Continue',
  },
};

async function stepHeading(page: Page, name: string) {
  await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
}

async function fillIdentity(page: Page, lang: 'he' | 'en', idNumber: string, phone: string) {
  await page.getByRole('textbox', { name: label[lang].idNumber }).fill(idNumber);
  await page.getByRole('textbox', { name: label[lang].phone }).fill(phone);
}

/** The session the page stored answers for the patient. */
async function sessionPatient(page: Page): Promise<{ first_name: string; id: number }> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const response = await fetch(`${baseUrl}/api/patient-auth`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { first_name: string; id: number };
}

/** After success the page goes on to the patient's appointments. */
async function expectAuthenticated(page: Page, text: string) {
  await page.getByRole('status').filter({ hasText: text }).waitFor();
  await page.waitForURL(`${baseUrl}/appointments/1`);
}

describe('patient verification (login/:clinicId)', () => {
  it('a new patient signs up and is authenticated; axe on every step in both languages', async () => {
    const phone = '0509000001';
    const idNumber = withCheckDigit('31415926');
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await page.goto(`${baseUrl}/login/1`);

    // Step 1, the page around it.
    await page.getByRole('heading', { level: 1, name: 'הזדהות' }).waitFor();
    expect(await page.title()).toBe('הזדהות');
    expect(await page.getByRole('link', { name: 'חזרה למרפאה' }).getAttribute('href')).toBe(
      '/clinic/1',
    );
    await page.getByText('מרפאת שיניים לב העיר').first().waitFor();
    await stepHeading(page, heading.he.identity);
    const next = page.getByRole('button', { name: label.he.continue });
    expect(await next.isDisabled()).toBe(true);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await stepHeading(page, heading.en.identity);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'he');

    // Not a patient of the clinic: the names step.
    await fillIdentity(page, 'he', idNumber, phone);
    await next.click();
    await stepHeading(page, heading.he.names);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await stepHeading(page, heading.en.names);
    await expectNoAxeViolations(page);

    const before = (await messagesTo(phone)).length;
    await page.getByRole('textbox', { name: label.en.firstName }).fill('Noa');
    await page.getByRole('textbox', { name: label.en.lastName }).fill('Peretz');
    await page.getByRole('button', { name: label.en.continue }).click();
    await stepHeading(page, heading.en.code);
    const code = await nextCode(phone, before);
    await expectNoAxeViolations(page);

    // A reload keeps the code step, in the language chosen.
    await page.evaluate(() => localStorage.setItem('lang', 'he'));
    await page.reload();
    await stepHeading(page, heading.he.code);
    await page.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:\d\d$/ }).waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('textbox', { name: label.he.code }).fill(code);
    await expectAuthenticated(page, 'האימות הצליח');
    expect((await sessionPatient(page)).first_name).toBe('Noa');
    expect(await page.evaluate(() => sessionStorage.getItem('verification'))).toBeNull();
    await context.close();
  }, 90_000);

  it('an existing patient logs in, and is sent on when they come back', async () => {
    const idNumber = withCheckDigit(dana.idBase);
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.goto(`${baseUrl}/login/1`);
    await stepHeading(page, heading.en.identity);

    const before = (await messagesTo(dana.phone)).length;
    // As people type it: dashes are fine.
    await fillIdentity(page, 'en', idNumber, '050-123-4567');
    await page.getByRole('button', { name: label.en.continue }).click();
    await stepHeading(page, heading.en.code);
    const code = await nextCode(dana.phone, before);
    const input = page.getByRole('textbox', { name: label.en.code });
    expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await input.getAttribute('inputmode')).toBe('numeric');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
      'one-time-code',
    );
    expect(await page.getByText(/ending in 567\.$/).count()).toBe(1);

    // Typed digit by digit: the sixth submits.
    await input.pressSequentially(code);
    await expectAuthenticated(page, 'Successfully Authenticated');
    expect((await sessionPatient(page)).first_name).toBe(dana.firstName);

    await page.goto(`${baseUrl}/login/1`);
    await page.waitForURL(`${baseUrl}/appointments/1`);
    await context.close();
  }, 60_000);

  it('a wrong code says Wrong Code and restarts the countdown', async () => {
    const idNumber = withCheckDigit(yossi.idBase);
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.clock.install();
    await page.goto(`${baseUrl}/login/1`);
    await stepHeading(page, heading.en.identity);

    const before = (await messagesTo(yossi.phone)).length;
    await fillIdentity(page, 'en', idNumber, yossi.phone);
    await page.keyboard.press('Enter');
    await stepHeading(page, heading.en.code);
    const code = await nextCode(yossi.phone, before);
    await page.clock.fastForward(30_000);
    await page.getByRole('button', { name: /^Resend code in 0:(30|2\d)$/ }).waitFor();

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByRole('textbox', { name: label.en.code }).fill(wrong);
    await page.getByRole('alert').filter({ hasText: 'Wrong Code' }).waitFor();
    expect(await page.getByRole('textbox', { name: label.en.code }).inputValue()).toBe('');
    await page.getByRole('button', { name: /^Resend code in (1:00|0:59)$/ }).waitFor();
    await expectNoAxeViolations(page);

    // The right code still works after a wrong one.
    await page.getByRole('textbox', { name: label.en.code }).fill(code);
    await expectAuthenticated(page, 'Successfully Authenticated');
    await context.close();
  }, 60_000);

  // The two tests that wait out the server's 60 s cooldown run side by side (their own phones,
  // pages and clocks), so the suite waits once.
  it.concurrent(
    'counts down 60 s before a code can be sent again; the new code replaces the old',
    async () => {
      const idNumber = withCheckDigit(merav.idBase);
      const { context, page } = await newPage(browser());
      await page.clock.install();
      await page.goto(`${baseUrl}/login/1`);
      await stepHeading(page, heading.he.identity);

      const before = (await messagesTo(merav.phone)).length;
      await fillIdentity(page, 'he', idNumber, merav.phone);
      await page.getByRole('button', { name: label.he.continue }).click();
      await stepHeading(page, heading.he.code);
      const first = await nextCode(merav.phone, before);
      // The server keeps the same 60 s cooldown on its own clock, which page.clock does not move.
      const serverAllowsResendAt = Date.now() + 61_000;

      const waiting = page.getByRole('button', { name: /^שליחת קוד חדש בעוד (1:00|0:59)$/ });
      expect(await waiting.isDisabled()).toBe(true);
      await page.clock.fastForward(55_000);
      await page.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:0\d$/ }).waitFor();
      expect(await page.getByRole('button', { name: /^שליחת קוד חדש/ }).isDisabled()).toBe(true);
      await page.clock.fastForward(6_000);
      const resend = page.getByRole('button', { name: 'שליחת קוד חדש', exact: true });
      await resend.waitFor();
      expect(await resend.isEnabled()).toBe(true);

      await page.getByRole('textbox', { name: label.he.code }).fill('12');
      await sleep(Math.max(0, serverAllowsResendAt - Date.now()));
      await resend.click();
      await page.getByRole('status').filter({ hasText: 'נשלח קוד חדש.' }).waitFor();
      expect(await page.getByRole('textbox', { name: label.he.code }).inputValue()).toBe('');
      await page.getByRole('button', { name: /^שליחת קוד חדש בעוד (1:00|0:59)$/ }).waitFor();
      const second = await nextCode(merav.phone, before + 1);
      await expectNoAxeViolations(page);

      if (second !== first) {
        // The first code was replaced by the second.
        await page.getByRole('textbox', { name: label.he.code }).fill(first);
        await page
          .getByRole('alert')
          .filter({ hasText: /קוד שגוי|נסו שוב/ })
          .waitFor();
      }
      await page.getByRole('textbox', { name: label.he.code }).fill(second);
      await expectAuthenticated(page, 'האימות הצליח');
      await context.close();
    },
    150_000,
  );

  it.concurrent(
    'an ID number known with another phone hints at its last 3 digits; a second code within 60 s counts down',
    async () => {
      const idNumber = withCheckDigit(uri.idBase);
      const { context, page } = await newPage(browser());
      await page.goto(`${baseUrl}/login/1`);
      await stepHeading(page, heading.he.identity);

      const before = (await messagesTo(uri.phone)).length;
      await fillIdentity(page, 'he', idNumber, '0501112222');
      const next = page.getByRole('button', { name: label.he.continue });
      await next.click();

      const hint = 'קיים מספר תעודת זהות עם טלפון אחר שמסתיים בספרות 543';
      await page.getByText(hint).waitFor();
      const phoneField = page.getByRole('textbox', { name: label.he.phone });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('tel');
      expect(await phoneField.getAttribute('aria-invalid')).toBe('true');
      expect(await next.isDisabled()).toBe(true);
      await stepHeading(page, heading.he.identity);
      // The way on: correct the details, or call the clinic (its number, a tap to call it).
      const nextStep = page.getByRole('alert').filter({ hasText: 'להתקשר למרפאה' });
      expect(await nextStep.innerText()).toBe(
        'אפשר לתקן את מספר תעודת הזהות או את הטלפון, או להתקשר למרפאה: 03-5551234',
      );
      expect(
        await nextStep.getByRole('link', { name: '03-5551234', exact: true }).getAttribute('href'),
      ).toBe('tel:035551234');
      await expectNoAxeViolations(page);
      await switchLanguage(page, 'en');
      const nextStepEn = page.getByRole('alert').filter({ hasText: 'call the clinic' });
      expect(await nextStepEn.innerText()).toBe(
        'Correct the ID number or the phone, or call the clinic: 03-5551234',
      );
      await expectNoAxeViolations(page);
      await switchLanguage(page, 'he');

      // Ends with 543 but is not the phone on file: the server hints again, and sends nothing.
      await phoneField.fill('0500000543');
      expect(await next.isEnabled()).toBe(true);
      await next.click();
      await page.getByText(hint).waitFor();
      await stepHeading(page, heading.he.identity);

      await phoneField.fill(uri.phone);
      await next.click();
      await stepHeading(page, heading.he.code);
      const sentCode = await nextCode(uri.phone, before);
      expect(await messagesTo(uri.phone)).toHaveLength(before + 1);
      expect(await messagesTo('0500000543')).toHaveLength(0);

      // Back on step 1 the hint still holds for this ID number; another ID number clears it.
      await page.getByRole('button', { name: 'חזרה', exact: true }).click();
      await stepHeading(page, heading.he.identity);
      await phoneField.fill('0501112222');
      await page.getByText(hint).waitFor();
      await page.getByRole('textbox', { name: label.he.idNumber }).fill(withCheckDigit('31415927'));
      expect(await page.getByText(hint).count()).toBe(0);
      expect(await next.isEnabled()).toBe(true);

      // A second code within 60 s: the page says how many seconds are left, counts them down and
      // lets the patient ask again once they are over (no code is sent meanwhile).
      await page.getByRole('textbox', { name: label.he.idNumber }).fill(idNumber);
      await phoneField.fill(uri.phone);
      await next.click();
      const alert = page.getByRole('alert');
      const ticking = alert.locator('span[aria-hidden="true"]');
      await alert
        .getByText(/^כבר נשלח קוד לפני רגע\. אפשר לבקש קוד חדש בעוד/)
        .first()
        .waitFor();
      const secondsShown = async () => Number(/(\d+)/.exec(await ticking.innerText())?.[1] ?? NaN);
      const first = await secondsShown();
      expect(first).toBeGreaterThan(1);
      expect(first).toBeLessThanOrEqual(60);
      expect(await next.isDisabled()).toBe(true);
      await page.waitForFunction(
        ([el, start]) => Number(/(\d+)/.exec(el?.textContent ?? '')?.[1]) < start,
        [await ticking.elementHandle(), first] as const,
      );
      await page.mouse.move(0, 0);
      await expectNoAxeViolations(page);
      await switchLanguage(page, 'en');
      await alert
        .getByText(/^A code was sent a moment ago\. You can ask for a new one in \d+ seconds?\.$/)
        .first()
        .waitFor();
      expect(
        await alert.getByRole('button', { name: 'Enter the code already sent' }).isEnabled(),
      ).toBe(true);
      await expectNoAxeViolations(page);
      await switchLanguage(page, 'he');

      // The code sent before the patient went back is still valid: a way back to type it, the
      // wait shown on the resend button.
      await alert.getByRole('button', { name: 'הקלדת הקוד שכבר נשלח' }).click();
      await stepHeading(page, heading.he.code);
      const resendLater = page.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:\d\d$/ });
      expect(await resendLater.isDisabled()).toBe(true);
      await expectNoAxeViolations(page);
      await page.getByRole('textbox', { name: label.he.code }).fill(sentCode);
      await expectAuthenticated(page, 'האימות הצליח');
      expect(await messagesTo(uri.phone)).toHaveLength(before + 1);
      await context.close();
    },
    150_000,
  );
});
