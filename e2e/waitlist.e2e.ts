import fs from 'node:fs';
import { withIdCheckDigit, type DevMessage } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  newPage,
  settled,
  switchLanguage,
  useBrowser,
} from './support/browser';
import { seedClinicWithKey } from './support/connections';
import { freePort, freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
let server: RunningServer;
let dataDir: string;
let apiKey: string;

// A server of its own, whose public origin is where the browser goes: the offer's link is opened
// as the patient would, straight from the message.
beforeAll(async () => {
  dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  const port = String(await freePort());
  server = await startServer({
    DATA_DIR: dataDir,
    PORT: port,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
  });
  // Offers keep the clinic's quiet hours and Shabbat (docs/booking.md, "Waitlist"), as its API
  // tests show: this journey runs at any hour on any day, so its clinic keeps none.
  const settings = await fetch(`${server.url}/api/integration/reminders/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      enabled: false,
      lead_minutes: [1440],
      channel: 'sms',
      quiet_hours: { start: '00:00', end: '00:00' },
      observe_shabbat_and_holidays: false,
    }),
  });
  expect(settings.status, await settings.text()).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const TZ = 'Asia/Jerusalem';
/** A clinic-local YYYY-MM-DD `days` from now. */
const clinicDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(Date.now() + days * 86_400_000);
/** The same date as the waitlist dialog shows and takes it: DD.MM.YYYY, whatever the locale. */
const typedDate = (days: number) => clinicDate(days).split('-').reverse().join('.');

async function integration<T>(method: string, path: string, body: object): Promise<T> {
  const response = await fetch(`${server.url}/api/integration${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as T;
}

async function messagesTo(phone: string): Promise<DevMessage[]> {
  const response = await fetch(`${server.url}/api/dev/messages`);
  return ((await response.json()) as DevMessage[]).filter((m) => m.to === phone);
}

async function nextMessage(phone: string, before: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const messages = await messagesTo(phone);
    if (messages.length > before && messages[0]) return messages[0].body;
    if (Date.now() > deadline) throw new Error(`no message to ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface NewPatient {
  idBase: string;
  phone: string;
  firstName: string;
}

/** Signs a new patient up in place on the booking page. */
async function signUpHere(page: Page, patient: NewPatient) {
  await page
    .getByRole('textbox', { name: 'מספר תעודת זהות' })
    .fill(withIdCheckDigit(patient.idBase));
  await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByRole('textbox', { name: 'שם פרטי' }).fill(patient.firstName);
  await page.getByRole('textbox', { name: 'שם משפחה' }).fill('Levi');
  const before = (await messagesTo(patient.phone)).length;
  await page.getByRole('button', { name: 'המשך' }).click();
  const code = /#(\d{6})\s*$/.exec(await nextMessage(patient.phone, before))?.[1];
  await page.getByRole('textbox', { name: 'קוד אימות' }).fill(code ?? '');
}

async function confirmBooking(page: Page) {
  await page.getByRole('button', { name: 'אישור התור' }).click();
  await settled(page, '[role="dialog"]');
  await page.getByRole('dialog').getByRole('button', { name: 'אישור התור' }).click();
  await page.getByRole('heading', { level: 1, name: 'התור נקבע בהצלחה' }).waitFor();
}

describe('the waitlist', () => {
  it('offers a freed time by SMS; the first to open the link books it; entries can be left', async () => {
    // A caregiver with two times in the next week: a morning on day 3 and an afternoon on day 6.
    const type = await integration<{ id: number }>('POST', '/appointment-types', {
      name: 'ייעוץ',
      duration_minutes: 30,
    });
    const morning = clinicDate(3);
    const afternoon = clinicDate(6);
    const caregiver = await integration<{ id: number }>('POST', '/caregivers', {
      name: 'ד"ר אורית שלו',
      license_number: '5-55555',
      appointment_type_ids: [type.id],
      marpe_rules: {
        slot_step_minutes: 30,
        exceptions: [
          { date: morning, hours: [{ start: '09:00', end: '09:30' }] },
          { date: afternoon, hours: [{ start: '14:00', end: '14:30' }] },
        ],
      },
    });
    const bookingUrl = `${server.url}/booking/1?caregiverId=${caregiver.id}&appointmentTypeId=${type.id}`;
    const times = (page: Page, name = 'שעות פנויות') => page.getByRole('radiogroup', { name });

    // B takes the morning time.
    const b = await newPage(browser(), { viewport: 'desktop' });
    await b.page.goto(bookingUrl);
    await signUpHere(b.page, { idBase: '27182818', phone: '0547000501', firstName: 'Boaz' });
    await times(b.page).getByRole('radio', { name: '09:00' }).check();
    await confirmBooking(b.page);

    // A finds only the afternoon and asks for a morning, from the quiet link under the times.
    // A's phone is set to American English: the dialog's dates still read DD.MM.YYYY.
    const aContext = await browser().newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
    });
    const a = { context: aContext, page: await aContext.newPage() };
    const aPhone = '0547000502';
    await a.page.goto(bookingUrl);
    await signUpHere(a.page, { idBase: '31415926', phone: aPhone, firstName: 'Ayelet' });
    await times(a.page).getByRole('radio', { name: '14:00' }).waitFor();
    const quiet = a.page.getByRole('button', {
      name: 'אף אחד מהמועדים לא מתאים? אפשר לקבל הודעה כשמתפנה תור',
    });
    await expectNoAxeViolations(a.page);
    await quiet.click();
    const join = a.page.getByRole('dialog', { name: 'הודעה כשמתפנה תור' });
    await settled(a.page, '[role="dialog"]');
    expect(await join.getByLabel('מתאריך').inputValue()).toBe(typedDate(0));
    expect(await join.getByLabel('עד תאריך').inputValue()).toBe(typedDate(13));
    await expectNoAxeViolations(a.page);
    // A range past 14 days is refused on the spot, naming the field.
    await join.getByLabel('עד תאריך').fill(typedDate(14));
    await join.getByRole('button', { name: 'להודיע לי' }).click();
    await join.getByText('יש לבחור תאריך סיום שאינו לפני תאריך ההתחלה, עד 14 ימים').waitFor();
    await join.getByLabel('עד תאריך').fill(typedDate(13));
    await join.getByRole('radio', { name: 'בוקר (עד 12:00)' }).check();
    await join.getByRole('button', { name: 'להודיע לי' }).click();
    await a.page.getByRole('alert').filter({ hasText: 'נוספתם לרשימת ההמתנה' }).waitFor();
    await join.waitFor({ state: 'detached' });
    // On the list: said in place of the link, which offers no second join for the same thing.
    await a.page
      .getByRole('note')
      .filter({ hasText: 'אתם ברשימת ההמתנה לתור אצל ד"ר אורית שלו (ייעוץ)' })
      .getByRole('link', { name: 'התורים שלי' })
      .waitFor();
    expect(await quiet.count()).toBe(0);
    await expectNoAxeViolations(a.page);

    // B cancels; A gets the offer.
    const before = (await messagesTo(aPhone)).length;
    await b.page.goto(`${server.url}/appointments/1`);
    await b.page.getByRole('article').getByRole('button', { name: 'ביטול תור' }).click();
    await settled(b.page, '[role="dialog"]');
    await b.page.getByRole('dialog').getByRole('button', { name: 'ביטול התור' }).click();
    const offer = await nextMessage(aPhone, before);
    const [d, m, y] = morning.split('-').reverse();
    expect(offer).toContain(`בתאריך ${d}/${m}/${y} בשעה 09:00`);
    const link = /(http\S+)/.exec(offer)?.[1] ?? '';
    expect(link).toBe(`${bookingUrl}&date=${morning}&time=09:00`);

    // The link opens the booking steps on the freed time.
    await a.page.goto(link);
    await a.page.getByText('בחרנו עבורכם את התור שהתפנה. נותר רק לאשר.').waitFor();
    expect(await times(a.page).getByRole('radio', { name: '09:00' }).isChecked()).toBe(true);
    await expectNoAxeViolations(a.page);
    await a.page.getByRole('button', { name: 'אישור התור' }).click();
    await settled(a.page, '[role="dialog"]');
    await a.page.getByRole('dialog').getByRole('button', { name: 'אישור התור' }).click();
    await a.page.getByRole('heading', { level: 1, name: 'התור נקבע בהצלחה' }).waitFor();

    // Anyone else opening the link finds it taken, and the times free now.
    await b.page.goto(link);
    await b.page.getByText('התור מההודעה כבר נתפס. אלה המועדים הפנויים כעת:').waitFor();
    await times(b.page).getByRole('radio', { name: '14:00' }).waitFor();
    await expectNoAxeViolations(b.page);
    await switchLanguage(b.page, 'en');
    await b.page
      .getByText('The time from your message was already taken. These times are free now:')
      .waitFor();
    await expectNoAxeViolations(b.page);

    // A's entry was answered by the booking: my appointments shows no waitlist.
    await a.page.goto(`${server.url}/appointments/1`);
    await a.page.getByRole('heading', { level: 2, name: 'התורים הקרובים' }).waitFor();
    expect(await a.page.getByRole('heading', { name: 'ממתינים לתור' }).count()).toBe(0);

    // A joins again in English (an afternoon), then sees and leaves the entry.
    await a.page.goto(bookingUrl);
    await switchLanguage(a.page, 'en');
    await a.page
      .getByRole('button', {
        name: 'None of these times suit you? Get a message when one frees up',
      })
      .click();
    const enJoin = a.page.getByRole('dialog', { name: 'Tell me when a time frees up' });
    await settled(a.page, '[role="dialog"]');
    await expectNoAxeViolations(a.page);
    await enJoin.getByRole('radio', { name: 'Afternoon (from 12:00)' }).check();
    await enJoin.getByRole('button', { name: 'Notify me' }).click();
    await a.page.getByRole('alert').filter({ hasText: "We'll send you a message" }).waitFor();

    await a.page.goto(`${server.url}/appointments/1`);
    const section = a.page.getByRole('region', { name: 'Waiting for a time' });
    const card = section.getByRole('article', { name: 'ד"ר אורית שלו' });
    await card.getByText('Afternoon (from 12:00)').waitFor();
    const [d0, m0, y0] = clinicDate(0).split('-').reverse();
    const [d13, m13, y13] = clinicDate(13).split('-').reverse();
    await card.getByText(`${d0}.${m0}.${y0} to ${d13}.${m13}.${y13}`).waitFor();
    await expectNoAxeViolations(a.page);
    await card.getByRole('button', { name: 'Leave the waitlist' }).click();
    await settled(a.page, '[role="dialog"]');
    await expectNoAxeViolations(a.page);
    await a.page.getByRole('dialog').getByRole('button', { name: 'Stay' }).click();
    await a.page.getByRole('dialog').waitFor({ state: 'detached' });

    await switchLanguage(a.page, 'he');
    const heCard = a.page.getByRole('region', { name: 'ממתינים לתור' }).getByRole('article');
    await heCard.getByText('אחר הצהריים (מ-12:00)').waitFor();
    await expectNoAxeViolations(a.page);
    // Keyboard: the leave button, then the dialog's confirm.
    await heCard.getByRole('button', { name: 'יציאה מההמתנה' }).focus();
    await a.page.keyboard.press('Enter');
    const leave = a.page.getByRole('dialog', { name: 'לצאת מרשימת ההמתנה?' });
    await settled(a.page, '[role="dialog"]');
    await expectNoAxeViolations(a.page);
    await leave.getByRole('button', { name: 'יציאה' }).click();
    await a.page.getByRole('alert').filter({ hasText: 'יצאת מרשימת ההמתנה' }).waitFor();
    await heCard.waitFor({ state: 'detached' });

    await a.context.close();
    await b.context.close();
  }, 120_000);

  it('offers a fully booked caregiver the waitlist under step 1, for a type of its choice', async () => {
    const first = await integration<{ id: number }>('POST', '/appointment-types', {
      name: 'הלבנה',
      duration_minutes: 30,
    });
    const second = await integration<{ id: number }>('POST', '/appointment-types', {
      name: 'יישור שיניים',
      duration_minutes: 30,
    });
    // No hours at all: no free time in the horizon, so step 1 leaves it out.
    await integration('POST', '/caregivers', {
      name: 'ד"ר מיכל ברק',
      license_number: '6-66666',
      appointment_type_ids: [first.id, second.id],
      marpe_rules: { slot_step_minutes: 30 },
    });

    const { page, context } = await newPage(browser(), { viewport: 'mobile' });
    await page.goto(`${server.url}/booking/1`);
    await signUpHere(page, { idBase: '16180339', phone: '0547000503', firstName: 'Michal' });
    const booked = page.getByRole('region', { name: /אין כרגע תורים פנויים/ });
    const notify = booked.getByRole('button', { name: 'להודיע לי כשמתפנה תור אצל ד"ר מיכל ברק' });
    await notify.waitFor();
    // Not a card to choose in step 1: its only button is "notify me".
    expect(await page.getByRole('button', { name: /^ד"ר מיכל ברק/ }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await notify.click();
    const join = page.getByRole('dialog', { name: 'הודעה כשמתפנה תור' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await join
      .getByRole('radiogroup', { name: 'סוג התור' })
      .getByRole('radio', { name: 'יישור שיניים' })
      .check();
    await join.getByRole('button', { name: 'להודיע לי' }).click();
    await page.getByRole('alert').filter({ hasText: 'נוספתם לרשימת ההמתנה' }).waitFor();
    // On the list now: no second "notify me" for her.
    await booked.getByText('אתם ברשימת ההמתנה').waitFor();
    expect(await notify.count()).toBe(0);
    await expectNoAxeViolations(page);

    await switchLanguage(page, 'en');
    await page
      // One or more caregivers, by the journey above: named alone, or "these caregivers".
      .getByRole('region', {
        name: /fully booked for now\. You can join the waitlist and get a message when a time frees up\.$/,
      })
      .getByText("You're on the waitlist")
      .waitFor();
    await expectNoAxeViolations(page);

    await page.goto(`${server.url}/appointments/1`);
    const card = page
      .getByRole('region', { name: 'Waiting for a time' })
      .getByRole('article', { name: 'ד"ר מיכל ברק' });
    await card.getByText('יישור שיניים').waitFor();
    await context.close();
  }, 90_000);
});
