import type { BrowserContext, Page } from 'playwright-core';
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

// Patients of their own, signed up here: the demo patients belong to patient-auth.e2e.ts, and the
// server allows 5 codes per phone an hour. One code per patient is sent in this file.
const newPatient = { idBase: '16180339', phone: '0533000417', firstName: 'Tamar' };
const movingPatient = { idBase: '14142135', phone: '0533000418', firstName: 'Yael' };

/** Signs a new patient up through the login page; the page goes on to their appointments. */
async function signUp(page: Page, patient = newPatient) {
  await page.goto(`${baseUrl}/login/1`);
  await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(withCheckDigit(patient.idBase));
  await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByRole('textbox', { name: 'שם פרטי' }).fill(patient.firstName);
  await page.getByRole('textbox', { name: 'שם משפחה' }).fill('Mizrahi');
  const before = (await messagesTo(patient.phone)).length;
  await page.getByRole('button', { name: 'המשך' }).click();
  const code = await nextCode(patient.phone, before);
  await page.getByRole('textbox', { name: 'קוד אימות' }).fill(code);
  await page.waitForURL(`${baseUrl}/appointments/1`);
}

interface Booked {
  start: string;
  end: string;
  caregiver: string;
  type: string;
}

/** A clinic-local YYYY-MM-DD `days` from now. */
function clinicDate(days: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(Date.now() + days * 86_400_000);
}

/** Books, as the booking page would, the first slot at least 2 days ahead (so still cancellable). */
async function bookThroughApi(page: Page, context: BrowserContext): Promise<Booked> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  // `__Host-XSRF-TOKEN`: the suite's server has an https PUBLIC_ORIGIN.
  const xsrfCookie = (await context.cookies(baseUrl)).find((c) => c.name.endsWith('XSRF-TOKEN'));
  const xsrf = xsrfCookie?.value;
  expect(xsrf).toBeTruthy();

  const clinicData = (await (await fetch(`${baseUrl}/api/clinic/1`)).json()) as {
    clinic: { timezone: string };
    caregivers: {
      id: number;
      name: string;
      default_appointment_types: number[];
      first_available_slot: { start: string } | null;
    }[];
    appointmentTypes: { id: number; name: string; duration_minutes: number }[];
  };
  const timeZone = clinicData.clinic.timezone;
  const from = clinicDate(2, timeZone);
  for (const caregiver of clinicData.caregivers.filter((c) => c.first_available_slot)) {
    const type = clinicData.appointmentTypes.find((t) =>
      caregiver.default_appointment_types.includes(t.id),
    );
    if (!type) continue;
    const query = `clinicId=1&caregiverId=${caregiver.id}&duration=${type.duration_minutes}`;
    const dates = (await (
      await fetch(`${baseUrl}/api/appointment/available-dates?${query}`)
    ).json()) as string[];
    const date = dates.find((d) => d >= from);
    if (!date) continue;
    const range = `&startDate=${encodeURIComponent(`${date} 00:00`)}&endDate=${encodeURIComponent(`${date} 23:59`)}`;
    const slots = (await (
      await fetch(`${baseUrl}/api/appointment/available-slots?${query}${range}`)
    ).json()) as { start: string; end: string }[];
    const slot = slots[0];
    if (!slot) continue;
    const response = await fetch(`${baseUrl}/api/appointment`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Cookie: `${xsrfCookie?.name}=${xsrf}`,
        'X-XSRF-TOKEN': xsrf ?? '',
      },
      body: JSON.stringify({
        clinicId: 1,
        caregiverId: caregiver.id,
        appointmentTypeId: type.id,
        startDate: slot.start,
        endDate: slot.end,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return { start: slot.start, end: slot.end, caregiver: caregiver.name, type: type.name };
  }
  throw new Error('no bookable slot 2 days ahead at clinic 1');
}

/**
 * The slot's date and times on the clinic's clock as the card shows them (docs/formats.md), and as
 * a screen reader should say them: weekday, day, month name, year, and the times.
 */
function expectedFormats(booked: Booked) {
  // The slot carries the clinic's offset: its wall-clock digits are the clinic's.
  const [date = '', time = ''] = booked.start.split('T');
  const [year, month, day] = date.split('-');
  const start = time.slice(0, 5);
  const end = (booked.end.split('T')[1] ?? '').slice(0, 5);
  const words = (locale: string) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(new Date(`${date}T00:00:00Z`));
  const weekday = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long' }).format(
      new Date(`${date}T00:00:00Z`),
    );
  return {
    date: `${day}.${month}.${year}`,
    times: `${start} – ${end}`,
    weekday: { he: weekday('he-IL'), en: weekday('en-GB') },
    said: {
      he: `${words('he-IL')}, משעה ${start} עד ${end}`,
      en: `${words('en-GB')}, from ${start} to ${end}`,
    },
  };
}

describe('my appointments (appointments/:clinicId)', () => {
  it('lists a booked appointment, cancels it by keyboard, axe-clean in both languages', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'desktop', lang: 'he' });
    await signUp(page);

    // Nothing booked yet.
    await page.getByRole('heading', { level: 1, name: 'מרפאת שיניים לב העיר' }).waitFor();
    expect(await page.title()).toBe('התורים שלי');
    await page.getByText(`שלום, ${newPatient.firstName}`).waitFor();
    await page.getByText('אין לך תורים קרובים').waitFor();
    // The page's book button, and the empty list's own way on.
    const bookLinks = page.getByRole('link', { name: 'קביעת תור' });
    expect(await bookLinks.count()).toBe(2);
    for (const link of await bookLinks.all()) {
      expect(await link.getAttribute('href')).toBe('/booking/1');
    }
    expect(await page.getByRole('link', { name: 'חזרה למרפאה' }).getAttribute('href')).toBe(
      '/clinic/1',
    );
    await expectNoAxeViolations(page);

    const booked = await bookThroughApi(page, context);
    const { date, times, weekday, said } = expectedFormats(booked);
    await page.reload();
    const card = page.getByRole('article');
    await card.waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.getByRole('heading', { level: 3 }).innerText()).toBe(booked.caregiver);
    await card.getByText(booked.type, { exact: true }).waitFor();
    await card.getByText(date, { exact: true }).waitFor();
    await card.getByText(times, { exact: true }).waitFor();
    // The weekday is shown with the date; a screen reader hears it all in words, once.
    await card.getByText(`${weekday.he}, ${date}`, { exact: true }).waitFor();
    const cardSaid = await card.ariaSnapshot();
    expect(cardSaid).toContain(said.he);
    expect(cardSaid).not.toContain(date);
    await saveScreenshot(page, 'appointments-desktop-he');
    await expectNoAxeViolations(page);

    // The clinic details toggletip, opened and closed from the keyboard.
    const info = page.getByRole('button', { name: 'פרטי המרפאה' });
    await info.focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: 'פרטי המרפאה' });
    await details.getByRole('link', { name: /^טלפון: / }).waitFor();
    await settled(page, '.MuiPopover-paper');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // The confirm dialog in Hebrew, then returned from.
    const cancelButton = card.getByRole('button', { name: 'ביטול תור' });
    await cancelButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'לבטל את התור?' });
    await dialog.waitFor();
    await settled(page, '.MuiDialog-paper');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // English: the page, then the dialog, then the cancellation by keyboard.
    await switchLanguage(page, 'en');
    await page.getByRole('heading', { level: 2, name: 'Upcoming appointments' }).waitFor();
    await card.getByText(`${weekday.en}, ${date}`, { exact: true }).waitFor();
    expect(await card.ariaSnapshot()).toContain(said.en);
    await saveScreenshot(page, 'appointments-desktop-en');
    await expectNoAxeViolations(page);
    await page.getByRole('article').getByRole('button', { name: 'Cancel appointment' }).focus();
    await page.keyboard.press('Enter');
    const enDialog = page.getByRole('dialog', { name: 'Cancel this appointment?' });
    await enDialog.waitFor();
    await settled(page, '.MuiDialog-paper');
    await expectNoAxeViolations(page);

    const confirm = enDialog.getByRole('button', { name: 'Cancel appointment' });
    for (let i = 0; i < 4 && !(await confirm.evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await confirm.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');

    await page
      .getByRole('alert')
      .filter({ hasText: 'Appointment cancelled successfully' })
      .waitFor();
    await page.getByText('You have no upcoming appointments').waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    // The server agrees.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const list = await fetch(`${baseUrl}/api/appointment/patient-appointments`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(await list.json()).toEqual([]);
    await context.close();
  }, 120_000);

  it('moves an appointment with "change time": the booking steps preselected, one step, axe-clean in both languages', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'desktop', lang: 'he' });
    await signUp(page, movingPatient);
    const booked = await bookThroughApi(page, context);
    await page.reload();
    const card = page.getByRole('article');
    await card.waitFor();
    await card.getByRole('link', { name: 'שינוי מועד' }).click();
    await page.waitForURL(/\/booking\/1\?.*reschedule=\d+/);
    await page.getByRole('heading', { level: 1, name: 'שינוי מועד התור' }).waitFor();
    await page.getByText('בחרו מועד חדש. התור הנוכחי נשמר עד שתאשרו את השינוי.').waitFor();
    // The appointment being moved is shown, on the clinic's clock.
    const [bookedDate = '', bookedTime = ''] = booked.start.split('T');
    const oldWhen = `${bookedDate.split('-').reverse().join('.')} ${bookedTime.slice(0, 5)}`;
    const current = page.getByRole('region', { name: 'התור הנוכחי' });
    await current.getByText(oldWhen).waitFor();
    // The appointment's caregiver and type are chosen: the times are offered at once.
    const times = page.getByRole('radiogroup', { name: 'שעות פנויות' });
    await times.getByRole('radio').first().check();
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await page.getByRole('heading', { level: 1, name: 'Change the appointment time' }).waitFor();
    await page.getByRole('radiogroup', { name: 'Available times' }).waitFor();
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'he');

    // The confirm dialog compares: current → new, in both languages.
    await page.getByRole('button', { name: 'אישור שינוי המועד' }).click();
    await settled(page, '[role="dialog"]');
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('term').allTextContents()).toEqual(
      expect.arrayContaining(['התור הנוכחי', 'המועד החדש']),
    );
    // What the eye reads (the words for screen readers follow it, hidden).
    const [oldValue, newValue] = await dialog
      .getByRole('definition')
      .locator('[aria-hidden="true"]')
      .allTextContents();
    expect(oldValue).toBe(oldWhen);
    expect(newValue).not.toBe(oldWhen);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'ביטול' }).click();
    await dialog.waitFor({ state: 'detached' });
    await switchLanguage(page, 'en');
    await page.getByRole('button', { name: 'Confirm the new time' }).click();
    await settled(page, '[role="dialog"]');
    await dialog.getByRole('term').filter({ hasText: 'Current appointment' }).waitFor();
    await dialog.getByRole('term').filter({ hasText: 'New time' }).waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await switchLanguage(page, 'he');

    await page.getByRole('button', { name: 'אישור שינוי המועד' }).click();
    await settled(page, '[role="dialog"]');
    await page.getByRole('dialog').getByRole('button', { name: 'אישור שינוי המועד' }).click();
    await page.waitForURL(`${baseUrl}/booking/1/confirmation`);
    await page.getByRole('heading', { level: 1, name: 'מועד התור שונה בהצלחה' }).waitFor();
    await page.mouse.move(0, 0);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await page.getByRole('heading', { level: 1, name: 'Your appointment was moved' }).waitFor();
    await expectNoAxeViolations(page);

    // Still one appointment, at the new time: the old slot was given up in the same step.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const list = (await (
      await fetch(`${baseUrl}/api/appointment/patient-appointments`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { start_date: string }[];
    expect(list).toHaveLength(1);
    expect(list[0]?.start_date).not.toBe(booked.start);

    // Logged in, the clinic page leads to my appointments, axe-clean in both languages.
    await page.goto(`${baseUrl}/clinic/1`);
    const mine = page.getByRole('link', { name: 'התורים שלי' });
    await mine.waitFor();
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await page.getByRole('link', { name: 'My appointments' }).waitFor();
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'he');
    await page.getByRole('link', { name: 'התורים שלי' }).click();
    await page.waitForURL(`${baseUrl}/appointments/1`);
    await page.getByRole('article').waitFor();
    await context.close();
  }, 120_000);
});
