import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  newPage,
  saveScreenshot,
  settled,
  switchLanguage,
  useBrowser,
} from './support/browser';
import { messagesTo, nextCode, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

// A phone and an ID no other e2e file uses: the server allows 5 codes per phone an hour.
const patient = { idBase: '29979245', phone: '0546000387', firstName: 'טל', lastName: 'ברגר' };

/** Signs the new patient up in place on the booking page (the verification form it shows). */
async function signUpHere(page: Page) {
  await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(withCheckDigit(patient.idBase));
  await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByRole('textbox', { name: 'שם פרטי' }).fill(patient.firstName);
  await page.getByRole('textbox', { name: 'שם משפחה' }).fill(patient.lastName);
  const before = (await messagesTo(patient.phone)).length;
  await page.getByRole('button', { name: 'המשך' }).click();
  await page
    .getByRole('textbox', { name: 'קוד אימות' })
    .fill(await nextCode(patient.phone, before));
  await page.getByRole('region', { name: 'בחירת מטפל' }).waitFor();
}

/** Waits until the page has stopped scrolling (a smooth scroll takes a few frames). */
async function scrollSettled(page: Page) {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const y = window.scrollY;
        setTimeout(() => resolve(window.scrollY === y), 150);
      }),
  );
}

// Doctolib-like expectations of the booking page, on a phone and a desktop, in both languages.
describe('the booking page, read at a glance (booking/:clinicId)', () => {
  it('tells why a caregiver was dropped, names dates as people say them, and keeps the type select clear of the sticky bar', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'mobile' });
    await page.goto(`${baseUrl}/booking/1`);
    await signUpHere(page);
    const caregivers = page.getByRole('region', { name: 'בחירת מטפל' });
    const cohen = caregivers.getByRole('button', { name: /^ד"ר יעל כהן/ });

    // Chosen on a phone: the selected card keeps the licence number on one line, and the type
    // select, next, is brought up above the sticky confirm bar.
    await cohen.click();
    await caregivers.getByRole('button', { name: 'ביטול הבחירה בד"ר יעל כהן' }).waitFor();
    await scrollSettled(page);
    const licence = cohen.getByText(/מס׳ רישיון/);
    const lines = await licence.evaluate(
      (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
    );
    expect(lines).toBeLessThan(1.5);
    const select = page.getByRole('combobox', { name: 'סוג התור' });
    const selectBox = await select.boundingBox();
    const barBox = await page.getByRole('button', { name: 'אישור התור' }).boundingBox();
    expect(selectBox && barBox).toBeTruthy();
    expect((selectBox?.y ?? 0) + (selectBox?.height ?? 0)).toBeLessThanOrEqual(barBox?.y ?? 0);
    await saveScreenshot(page, 'booking-glance-phone-caregiver-he');

    // A type she does not offer: the choice is cleared, and the page says why and what to do.
    await select.selectOption({ label: 'ייעוץ אורתודונטי (30 דקות)' });
    const told = page
      .getByRole('status')
      .filter({ hasText: 'לא ניתן לקבוע ״ייעוץ אורתודונטי״ אצל ד"ר יעל כהן' });
    await told.waitFor();
    expect(await told.textContent()).toContain('בחרו מטפל אחר מהרשימה.');
    expect(await cohen.count()).toBe(0);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await page
      .getByRole('status')
      .filter({ hasText: 'can\'t be booked with ד"ר יעל כהן, so we cleared that choice' })
      .waitFor();
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'he');

    // Another caregiver: the note goes; the dates come under their months, each named in full.
    await caregivers.getByRole('button', { name: /^ד"ר אבי לוי/ }).click();
    await told.waitFor({ state: 'detached' });
    const dates = page.getByRole('group', { name: 'תאריכים פנויים' });
    const firstMonth = dates.getByRole('group').first();
    const monthName = (await firstMonth.getByRole('heading', { level: 4 }).textContent()) ?? '';
    expect(monthName).toMatch(/^\S+ \d{4}$/);
    expect(await firstMonth.getAttribute('aria-labelledby')).toBeTruthy();
    // By its state, not its group's name: the same button in either language.
    const chosen = page.locator('button[data-date][aria-pressed="true"]');
    await chosen.waitFor();
    const spoken = (await chosen.getAttribute('aria-label')) ?? '';
    // "יום שלישי, 1 בדצמבר 2026": a weekday, a day, a month's name, a year.
    expect(spoken).toMatch(/^יום \S+, \d{1,2} ב\S+ \d{4}$/);
    expect((await chosen.innerText()).replace(/\s+/g, ' ').trim()).toMatch(/^\S+ \d{1,2}$/);
    // The times' heading names the date they belong to.
    const times = page.getByRole('radiogroup', { name: `שעות פנויות ב${spoken}` });
    await times.getByRole('radio').first().waitFor();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'booking-glance-phone-he');
    await switchLanguage(page, 'en');
    const spokenEn = (await chosen.getAttribute('aria-label')) ?? '';
    expect(spokenEn).toMatch(/^[A-Z][a-z]+day, \d{1,2} [A-Z][a-z]+ \d{4}$/);
    await page.getByRole('radiogroup', { name: `Available times on ${spokenEn}` }).waitFor();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'booking-glance-phone-en');

    // Arrow keys move between dates in reading order (right to left in Hebrew).
    await switchLanguage(page, 'he');
    const first = dates.getByRole('button').first();
    await first.focus();
    await page.keyboard.press('ArrowLeft');
    expect(
      await dates
        .getByRole('button')
        .nth(1)
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);

    // On a desktop: the summary names the chosen date before a time is chosen.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const desktopContext = await browser().newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'he-IL',
    });
    const desktop = { context: desktopContext, page: await desktopContext.newPage() };
    await desktop.context.addInitScript(
      (value) => localStorage.setItem('token', value),
      token ?? '',
    );
    await desktop.page.goto(page.url());
    const summary = desktop.page.getByRole('complementary', { name: 'סיכום התור' });
    await desktop.page
      .getByRole('radiogroup', { name: /^שעות פנויות ב/ })
      .getByRole('radio')
      .first()
      .waitFor();
    const dateValue = summary
      .locator('dt', { hasText: 'תאריך' })
      .locator('xpath=following-sibling::dd[1]');
    expect(await dateValue.innerText()).toMatch(/\d/);
    expect(await dateValue.innerText()).not.toContain('טרם נבחר');
    expect(
      await summary
        .locator('dt', { hasText: 'שעה' })
        .locator('xpath=following-sibling::dd[1]')
        .innerText(),
    ).toBe('טרם נבחר');
    // The selected card beside the summary keeps the licence number on one line here too.
    const desktopLicence = desktop.page
      .getByRole('button', { name: /^ד"ר אבי לוי/ })
      .getByText(/מס׳ רישיון/);
    expect(
      await desktopLicence.evaluate(
        (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
      ),
    ).toBeLessThan(1.5);
    await expectNoAxeViolations(desktop.page);
    await saveScreenshot(desktop.page, 'booking-glance-desktop-he');
    await switchLanguage(desktop.page, 'en');
    await desktop.page.getByRole('radiogroup', { name: /^Available times on / }).waitFor();
    await expectNoAxeViolations(desktop.page);
    await saveScreenshot(desktop.page, 'booking-glance-desktop-en');
    await desktop.context.close();

    // The confirm dialog, for the screenshots too. The last date offered: weeks ahead, so that
    // the appointment can still be changed online below.
    const last = dates.getByRole('button').last();
    await last.click();
    await last.and(page.locator('[aria-pressed="true"]')).waitFor();
    await page
      .getByRole('radiogroup', {
        name: `שעות פנויות ב${(await last.getAttribute('aria-label')) ?? ''}`,
      })
      .getByRole('radio')
      .first()
      .check();
    await page.getByRole('button', { name: 'אישור התור' }).click();
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'booking-glance-phone-dialog-he');
    await page.getByRole('dialog').getByRole('button', { name: 'אישור התור' }).click();
    await page.getByRole('heading', { level: 1, name: 'התור נקבע בהצלחה' }).waitFor();

    // "Change time" says what it does, on the page, in the dialog's title and on its button.
    await page.goto(`${baseUrl}/appointments/1`);
    await page.getByRole('article').getByRole('link', { name: 'שינוי מועד' }).click();
    await page.getByRole('heading', { level: 1, name: 'שינוי מועד התור' }).waitFor();
    await page
      .getByRole('radiogroup', { name: /^שעות פנויות ב/ })
      .getByRole('radio')
      .nth(1)
      .check();
    expect(await page.getByRole('button', { name: 'אישור התור' }).count()).toBe(0);
    await page.getByRole('button', { name: 'אישור שינוי המועד' }).click();
    const change = page.getByRole('dialog', { name: 'לשנות את מועד התור?' });
    await settled(page, '[role="dialog"]');
    await change.getByRole('button', { name: 'אישור שינוי המועד' }).waitFor();
    await expectNoAxeViolations(page);
    await change.getByRole('button', { name: 'ביטול' }).click();
    await change.waitFor({ state: 'detached' });
    await switchLanguage(page, 'en');
    await page.getByRole('button', { name: 'Confirm the new time' }).click();
    const changeEn = page.getByRole('dialog', { name: 'Change your appointment time?' });
    await settled(page, '[role="dialog"]');
    await changeEn.getByRole('button', { name: 'Confirm the new time' }).waitFor();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'booking-glance-phone-reschedule-en');
    await changeEn.getByRole('button', { name: 'Confirm the new time' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your appointment was moved' }).waitFor();
    await context.close();
  }, 150_000);
});
