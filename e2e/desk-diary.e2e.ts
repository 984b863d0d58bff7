// Over 400 lines: its journeys share one browser and the suite's signed-in desk; a file's set-up is
// a browser launch.
import path from 'node:path';
import type { IntegrationAppointment, IntegrationCaregiver, Slot } from '@marpe/shared';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage, type DeskViewport } from './support/desk';
import { messagesTo, nextCode, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const dataDir = suiteServer().dataDir;
const browser = useBrowser();

const TZ = 'Asia/Jerusalem';
const DAY = 86_400_000;
/** A clinic-local YYYY-MM-DD `days` from now. */
const clinicDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(Date.now() + days * DAY);
/** An instant's clinic-local HH:mm. */
const clinicTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: TZ,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
const weekDayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

const words = {
  he: {
    title: 'יומן',
    week: 'שבוע',
    details: 'פרטי התור',
    move: 'העברת התור',
    cancel: 'ביטול התור',
    keep: 'השארת התור',
    close: 'סגירה',
    back: 'ביטול',
    newAppointment: 'תור חדש',
    booking: 'קביעת תור',
    waitlist: /^רשימת המתנה/,
  },
  en: {
    title: 'Diary',
    week: 'Week',
    details: 'Appointment',
    move: 'Move',
    cancel: 'Cancel appointment',
    keep: 'Keep the appointment',
    close: 'Close',
    back: 'Cancel',
    newAppointment: 'New appointment',
    booking: 'Book an appointment',
    waitlist: /^Waitlist/,
  },
} as const;

async function caregivers(page: Page): Promise<IntegrationCaregiver[]> {
  const answer = await deskFetch<IntegrationCaregiver[]>(page, '/api/integration/caregivers');
  expect(answer.status).toBe(200);
  return answer.body;
}

async function appointmentsOn(page: Page, from: string, to = from) {
  const answer = await deskFetch<IntegrationAppointment[]>(
    page,
    `/api/integration/appointments?from=${from}&to=${to}&status=booked`,
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The slots the booking page offers a caregiver on a date, for a type's length. */
async function offeredSlots(caregiverId: number, minutes: number, date: string) {
  const query = new URLSearchParams({
    clinicId: '1',
    caregiverId: String(caregiverId),
    duration: String(minutes),
    startDate: `${date} 00:00`,
    endDate: `${date} 23:59`,
  });
  const response = await fetch(`${baseUrl}/api/appointment/available-slots?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Slot[]).map((s) => ({
    time: clinicTime(s.start),
    start: s.start,
  }));
}

/** Their times, HH:mm in the clinic. */
const offeredTimes = async (caregiverId: number, minutes: number, date: string) =>
  (await offeredSlots(caregiverId, minutes, date)).map((s) => s.time);

/** The first date from `from` days on when Dr Cohen (Sunday to Thursday) works. */
function cohenDate(from: number): string {
  for (let days = from; ; days++) {
    const date = clinicDate(days);
    if (weekDayOf(date) <= 4) return date;
  }
}

async function openDiary(page: Page, query: string, lang: 'he' | 'en' = 'he') {
  await page.goto(`${baseUrl}/desk/diary?${query}`);
  await page.getByRole('heading', { level: 1, name: words[lang].title }).waitFor();
  await page.locator('.rbc-time-view').waitFor();
}

/**
 * Enter on an appointment, once the grid has its data (not `aria-busy`): an answer arriving between
 * the focus and the key draws the grid again under the keyboard, and the key is lost as it would be
 * for a person, who presses it again. So does this, twice at most (CI lost one under full load).
 */
async function openWithKeyboard(page: Page, event: Locator, dialog: string): Promise<Locator> {
  const opened = page.getByRole('dialog', { name: dialog });
  for (let attempt = 1; ; attempt++) {
    await page.locator('[aria-busy="false"] .rbc-time-view').waitFor();
    await event.focus();
    await page.keyboard.press('Enter');
    try {
      await opened.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  return dialogNamed(page, dialog);
}

async function dialogNamed(page: Page, name: string | RegExp): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await settled(page, '[role="dialog"]');
  return dialog;
}

async function choose(scope: Locator, page: Page, label: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

describe("the desk's diary", () => {
  it('the front desk sees a day and a week in Hebrew and English, desktop and tablet, axe-clean with every dialog', async () => {
    const first = await signedInDeskPage(browser(), demoFrontDesk);
    const date = cohenDate(1);
    const booked = await appointmentsOn(first.page, date);
    expect(booked.length).toBeGreaterThan(0);
    await first.context.close();

    for (const lang of ['he', 'en'] as const) {
      for (const viewport of ['desktop', 'tablet'] as DeskViewport[]) {
        const w = words[lang];
        const { context, page } = await signedInDeskPage(browser(), demoFrontDesk, {
          lang,
          viewport,
        });
        await openDiary(page, `view=day&date=${date}`, lang);
        // Each appointment is a button named with its time, patient, type and caregiver.
        const sample = booked[0] as IntegrationAppointment;
        const name = `${clinicTime(sample.start_date)}–${clinicTime(sample.end_date)} ${sample.patient.first_name} ${sample.patient.last_name}, ${sample.appointment_type.name}, ${sample.caregiver.name}`;
        await page.getByRole('button', { name, exact: true }).waitFor();
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(
          lang === 'he' ? 'rtl' : 'ltr',
        );
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `desk-diary-day-${lang}-${viewport}`);

        await page.getByRole('button', { name: w.week, exact: true }).click();
        await page.waitForURL(/view=week/);
        await page.locator('.rbc-time-header-cell').first().waitFor();
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `desk-diary-week-${lang}-${viewport}`);

        if (viewport === 'desktop') {
          await page
            .getByRole('button', { name: lang === 'he' ? 'יום' : 'Day', exact: true })
            .click();
          await page.waitForURL(/view=day/);
          // The keyboard reaches an appointment and opens it with Enter.
          const event = page.getByRole('button', { name, exact: true });
          let dialog = await openWithKeyboard(page, event, w.details);
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: w.move }).click();
          dialog = await dialogNamed(page, lang === 'he' ? 'העברת התור' : 'Move the appointment');
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: w.back, exact: true }).click();
          await dialog.waitFor({ state: 'detached' });

          dialog = await openWithKeyboard(page, event, w.details);
          await dialog.getByRole('button', { name: w.cancel }).click();
          dialog = await dialogNamed(page, lang === 'he' ? 'ביטול התור' : 'Cancel the appointment');
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: w.keep }).click();
          await dialog.waitFor({ state: 'detached' });

          await page.getByRole('button', { name: w.newAppointment }).click();
          dialog = await dialogNamed(page, w.booking);
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: w.back, exact: true }).click();
          await dialog.waitFor({ state: 'detached' });

          await page.getByRole('button', { name: w.waitlist }).click();
          dialog = await dialogNamed(page, lang === 'he' ? /^ממתינים ל/ : /^Waiting for/);
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: w.close }).click();
          await dialog.waitFor({ state: 'detached' });
        }
        await context.close();
      }
    }
  }, 600_000);

  it("shows the clinic's time whatever the browser's zone is", async () => {
    const signed = await signedInDeskPage(browser(), demoFrontDesk);
    await signed.context.close();
    const context = await browser().newContext({
      viewport: { width: 1366, height: 768 },
      locale: 'he-IL',
      timezoneId: 'America/New_York',
      storageState: path.join(dataDir, `desk-session-${demoFrontDesk.phone}.json`),
    });
    await context.addInitScript(() => localStorage.setItem('marpe-desk-lang', 'he'));
    const page = await context.newPage();
    await page.goto(`${baseUrl}/desk/`);
    const date = cohenDate(1);
    const [sample] = await appointmentsOn(page, date);
    if (!sample) throw new Error('no demo appointment');
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'America/New_York',
    );
    await openDiary(page, `view=day&date=${date}`);
    const label = `${clinicTime(sample.start_date)}–${clinicTime(sample.end_date)}`;
    await page
      .getByRole('button', { name: new RegExp(`^${label} ${sample.patient.first_name}`) })
      .first()
      .waitFor();
    await context.close();
  }, 120_000);

  it('books a phone patient found by search, and a new one; the patient page no longer offers the time', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    await page.goto(`${baseUrl}/desk/`);
    const cohen = (await caregivers(page)).find((c) => c.name === 'ד"ר יעל כהן');
    if (!cohen) throw new Error('no Dr Cohen');
    const date = cohenDate(3);
    const times = await offeredTimes(cohen.id, 20, date);
    const time = times[times.length - 1];
    if (!time) throw new Error(`Dr Cohen has no free time on ${date}`);
    // A demo patient without an appointment that day (one a date).
    const taken = new Set((await appointmentsOn(page, date)).map((a) => a.patient.last_name));
    const patient = [
      { first: 'מירב', last: 'אזולאי' },
      { first: 'אורי', last: 'בן דוד' },
      { first: 'יוסי', last: 'כהן' },
      { first: 'דנה', last: 'לוי' },
    ].find((p) => !taken.has(p.last));
    if (!patient) throw new Error('every demo patient is booked that day');

    await openDiary(page, `view=day&date=${date}&caregiver=${cohen.id}`);
    await page.getByRole('button', { name: 'תור חדש' }).click();
    let dialog = await dialogNamed(page, 'קביעת תור');
    await choose(dialog, page, 'סוג התור', /^בדיקה תקופתית/);
    await dialog.getByLabel('תאריך').fill(date);
    await dialog.getByLabel('שעה').fill(time);
    await dialog.getByRole('combobox', { name: 'חיפוש מטופל/ת' }).fill(patient.first);
    await page
      .getByRole('option', { name: new RegExp(`^${patient.first} ${patient.last}`) })
      .click();
    await dialog.getByRole('checkbox', { name: /במסרון/ }).uncheck();
    await dialog.getByRole('button', { name: 'קביעת התור' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: new RegExp(`^${time}–\\S+ ${patient.first} ${patient.last}`) })
      .waitFor();
    // The time is gone from what the patient pages offer.
    expect(await offeredTimes(cohen.id, 20, date)).not.toContain(time);

    // A new patient, registered in the same dialog; the booked time itself is refused first.
    const idNumber = withCheckDigit(`3${String(Date.now()).slice(-7)}`);
    const phone = `058${String(Date.now()).slice(-7)}`;
    await page.getByRole('button', { name: 'תור חדש' }).click();
    dialog = await dialogNamed(page, 'קביעת תור');
    await choose(dialog, page, 'סוג התור', /^בדיקה תקופתית/);
    await dialog.getByLabel('תאריך').fill(date);
    await dialog.getByLabel('שעה').fill(time);
    await dialog.getByRole('button', { name: 'מטופל/ת חדש/ה' }).click();
    await dialog.getByRole('textbox', { name: 'שם פרטי' }).fill('נגה');
    await dialog.getByRole('textbox', { name: 'שם משפחה' }).fill('טל');
    await dialog.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill('123');
    await dialog.getByRole('textbox', { name: 'טלפון נייד' }).fill(phone);
    await dialog.getByRole('button', { name: 'קביעת התור' }).click();
    // Checked before it is sent, in the field.
    await dialog.getByText('מספר תעודת הזהות אינו תקין').waitFor();
    await dialog.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(idNumber);
    await dialog.getByRole('button', { name: 'קביעת התור' }).click();
    await dialog.getByText('השעה כבר תפוסה. בחרו שעה אחרת.').waitFor();
    await expectNoAxeViolations(page);
    // Every field kept: only the time changes.
    expect(await dialog.getByRole('textbox', { name: 'שם פרטי' }).inputValue()).toBe('נגה');
    const free = (await offeredTimes(cohen.id, 20, date)).find((t) => t < time);
    if (!free) throw new Error('no other free time');
    await dialog.getByLabel('שעה').fill(free);
    await dialog.getByRole('button', { name: 'קביעת התור' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: new RegExp(`^${free}–\\S+ נגה טל`) }).waitFor();
    expect(await offeredTimes(cohen.id, 20, date)).not.toContain(free);
    await context.close();
  }, 240_000);

  it('moves one appointment with the keyboard dialog and one by dragging, and cancels with a reason', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    await page.goto(`${baseUrl}/desk/`);
    const cohen = (await caregivers(page)).find((c) => c.name === 'ד"ר יעל כהן');
    if (!cohen) throw new Error('no Dr Cohen');
    const date = cohenDate(4);
    // A patient of our own, booked through the API as the desk does, at a time with a free hour
    // after it (the drag moves it an hour on).
    const times = await offeredTimes(cohen.id, 20, date);
    const start = times.find((t) => {
      const later = `${String(Number(t.slice(0, 2)) + 1).padStart(2, '0')}${t.slice(2)}`;
      const laterStill = `${String(Number(t.slice(0, 2)) + 2).padStart(2, '0')}${t.slice(2)}`;
      return t >= '15:00' && times.includes(later) && times.includes(laterStill);
    });
    if (!start) throw new Error(`no free afternoon on ${date}`);
    const phone = `052${String(Date.now()).slice(-7)}`;
    const booked = await deskFetch<IntegrationAppointment>(page, '/api/integration/appointments', {
      method: 'POST',
      body: {
        caregiver_id: cohen.id,
        appointment_type_id: (
          await deskFetch<{ id: number; name: string }[]>(
            page,
            '/api/integration/appointment-types',
          )
        ).body.find((t) => t.name === 'בדיקה תקופתית')?.id,
        start_date: (await offeredSlots(cohen.id, 20, date)).find((slot) => slot.time === start)
          ?.start,
        patient: {
          id_number: withCheckDigit(`4${String(Date.now()).slice(-7)}`),
          phone,
          first_name: 'עומר',
          last_name: 'גל',
        },
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(clinicTime(booked.body.start_date)).toBe(start);

    await openDiary(page, `view=day&date=${date}&caregiver=${cohen.id}`);
    const event = () => page.getByRole('button', { name: /עומר גל/ });
    // By the keyboard: Enter on the appointment, "move", a new time.
    const later = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}${start.slice(2)}`;
    let dialog = await openWithKeyboard(page, event(), 'פרטי התור');
    await dialog.getByRole('button', { name: 'העברת התור' }).click();
    dialog = await dialogNamed(page, 'העברת התור');
    await dialog.getByLabel('שעה').fill(later);
    await dialog.getByRole('checkbox', { name: /במסרון/ }).uncheck();
    await dialog.getByRole('button', { name: 'העברה' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: new RegExp(`^${later}–\\S+ עומר גל`) }).waitFor();

    // By dragging it an hour on: a confirmation says from where to where.
    const box = await event().boundingBox();
    const hour = await page.locator('.rbc-day-slot .rbc-timeslot-group').first().boundingBox();
    if (!box || !hour) throw new Error('no boxes');
    const x = box.x + box.width / 2;
    const y = box.y + Math.min(8, box.height / 2);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + hour.height / 2, { steps: 5 });
    await page.mouse.move(x, y + hour.height, { steps: 5 });
    await page.mouse.up();
    dialog = await dialogNamed(page, 'להעביר את התור?');
    const latest = `${String(Number(start.slice(0, 2)) + 2).padStart(2, '0')}${start.slice(2)}`;
    await dialog.getByText(new RegExp(`אל: .*${latest}`)).waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('checkbox', { name: /במסרון/ }).uncheck();
    await dialog.getByRole('button', { name: 'העברה' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: new RegExp(`^${latest}–\\S+ עומר גל`) }).waitFor();
    expect(await offeredTimes(cohen.id, 20, date)).toContain(start);

    // Cancelled with a common reason. The patient's notice is not awaited here: it is held while
    // the demo clinic's quiet hours or Shabbat last, which depends on when this runs; the notice
    // itself is tested with a set clock (apps/api/test/change-notices.test.ts).
    dialog = await openWithKeyboard(page, event(), 'פרטי התור');
    await dialog.getByRole('button', { name: 'ביטול התור' }).click();
    dialog = await dialogNamed(page, 'ביטול התור');
    await dialog.getByRole('button', { name: 'המטופל/ת ביקש/ה לבטל' }).click();
    expect(await dialog.getByRole('textbox', { name: 'סיבת הביטול' }).inputValue()).toBe(
      'המטופל/ת ביקש/ה לבטל',
    );
    await dialog.getByRole('button', { name: 'ביטול התור' }).click();
    await dialog.waitFor({ state: 'detached' });
    await event().waitFor({ state: 'detached' });
    const [cancelled] = (
      await deskFetch<IntegrationAppointment[]>(
        page,
        `/api/integration/appointments?from=${date}&to=${date}&status=cancelled`,
      )
    ).body.filter((a) => a.id === booked.body.id);
    expect(cancelled?.cancel_reason).toBe('המטופל/ת ביקש/ה לבטל');
    await context.close();
  }, 240_000);

  it('shows who waits on the waitlist for the day shown', async () => {
    // A new patient signs up and joins the waitlist for Dr Cohen on a date, as on the booking page.
    const phone = `053${String(Date.now()).slice(-7)}`;
    const idNumber = withCheckDigit(`5${String(Date.now()).slice(-7)}`);
    const health = await fetch(`${baseUrl}/api/health`);
    // `__Host-XSRF-TOKEN`: the suite's server has an https PUBLIC_ORIGIN.
    const [, cookieName = '', xsrf = ''] =
      /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(health.headers.get('set-cookie') ?? '') ?? [];
    const headers = {
      'content-type': 'application/json',
      cookie: `${cookieName}=${xsrf}`,
      'x-xsrf-token': decodeURIComponent(xsrf),
    };
    const before = (await messagesTo(phone)).length;
    const signUp = await fetch(`${baseUrl}/api/patient-auth/sign-up`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ clinicId: 1, phone, idNumber, firstName: 'שקד', lastName: 'ממתינה' }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const twoFactorToken = (await signUp.json()) as string | { twoFactorToken: string };
    const verified = await fetch(`${baseUrl}/api/patient-auth/two-factor`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        idNumber,
        code: await nextCode(phone, before),
        twoFactorToken:
          typeof twoFactorToken === 'string' ? twoFactorToken : twoFactorToken.twoFactorToken,
      }),
    });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const { token } = (await verified.json()) as { token: string };

    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    await page.goto(`${baseUrl}/desk/`);
    const cohen = (await caregivers(page)).find((c) => c.name === 'ד"ר יעל כהן');
    if (!cohen) throw new Error('no Dr Cohen');
    const date = cohenDate(5);
    const types = (
      await deskFetch<{ id: number; name: string }[]>(page, '/api/integration/appointment-types')
    ).body;
    const joined = await fetch(`${baseUrl}/api/waitlist`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify({
        clinicId: 1,
        caregiverId: cohen.id,
        appointmentTypeId: types.find((t) => t.name === 'בדיקה תקופתית')?.id,
        fromDate: date,
        toDate: date,
        partOfDay: 'any',
      }),
    });
    expect(joined.status, await joined.clone().text()).toBe(201);

    await openDiary(page, `view=day&date=${date}&caregiver=${cohen.id}`);
    await page.getByRole('button', { name: /^רשימת המתנה: [1-9]/ }).click();
    const dialog = await dialogNamed(page, /^ממתינים ל/);
    await dialog.getByText(/שקד ממתינה/).waitFor();
    await dialog.getByText('כל שעות היום', { exact: false }).waitFor();
    await expectNoAxeViolations(page);
    await context.close();
  }, 120_000);
});
