import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withIdCheckDigit, type DevMessage } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import {
  freePort,
  freshDataDir,
  repoRoot,
  startServer,
  type RunningServer,
} from './support/server';

// The desk's journey (ADR 037): a clinic created with one CLI command is set up in the desk by its
// owner alone, a front-desk member joins, and the first patient books on the clinic's public page;
// no curl, no code. Its own server, because the operator's CLI writes to the database before the
// server opens it. It counts the person's acts (a click, a field typed, a file chosen) and keeps
// the screenshots docs/desk.md shows (e2e/output/screenshots/desk-journey-*.png).

const browser = useBrowser();
let server: RunningServer;
let dataDir: string;
let baseUrl: string;
let invitationUrl: string;
let clinicId: number;

const owner = { phone: '0521234567', name: 'נועה שקד' };
const frontDesk = { phone: '0521234568', name: 'אורי לוי' };
const patient = {
  idNumber: withIdCheckDigit('30123456'),
  phone: '0541234569',
  first: 'מיה',
  last: 'כהן',
};
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The person's acts, by who does them, for the closing count. */
const acts = { owner: 0, frontDesk: 0, patient: 0 };
type Who = keyof typeof acts;

async function messagesTo(phone: string): Promise<DevMessage[]> {
  const answer = await fetch(`${baseUrl}/api/dev/messages`);
  return ((await answer.json()) as DevMessage[]).filter((m) => m.to === phone);
}

async function nextMessage(phone: string, before: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const messages = await messagesTo(phone);
    if (messages.length > before) return messages[0]?.body ?? '';
    if (Date.now() > deadline) throw new Error(`no message to ${phone}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const codeOf = (body: string) => /#(\d{6})\s*$/.exec(body)?.[1] ?? '';

/** Once transitions have ended: a notice or a button caught fading in would blur the guide's picture. */
const shot = (page: Page, name: string) => saveScreenshot(page, `desk-journey-${name}`);

beforeAll(async () => {
  dataDir = freshDataDir();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: baseUrl,
    PORT: String(port),
    DEMO: 'true',
  };
  // The operator's one command (README): a clinic and its first owner's invitation.
  const created = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/api/src/cli/marpe.ts'),
      'create-clinic',
      '--name',
      'מרפאת השקד',
      '--phone',
      '03-5551234',
      '--street',
      'הרצל',
      '--home-number',
      '12',
      '--city',
      'תל אביב-יפו',
      '--owner-phone',
      '052-1234567',
      '--owner-name',
      owner.name,
    ],
    { cwd: repoRoot, env, encoding: 'utf8' },
  );
  expect(created.status, created.stderr).toBe(0);
  const [id, url] = created.stdout.trim().split('\n');
  clinicId = Number(id);
  invitationUrl = url ?? '';
  expect(invitationUrl).toMatch(new RegExp(`^${baseUrl}/desk/invite/[\\w-]{40,}$`));
  fs.mkdirSync(path.join(repoRoot, 'e2e/output/screenshots'), { recursive: true });
  server = await startServer({ DATA_DIR: dataDir, PUBLIC_ORIGIN: baseUrl, PORT: String(port) });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a clinic goes live without a developer', () => {
  it('from create-clinic to the first booking, through the desk alone', async () => {
    const started = Date.now();
    const ownerContext = await browser().newContext({
      viewport: { width: 1366, height: 768 },
      locale: 'he-IL',
    });
    const page = await ownerContext.newPage();
    const act = async (who: Who, action: Promise<unknown>) => {
      acts[who] += 1;
      await action;
    };
    const h1 = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

    // 1. The invitation, and the code to the owner's phone.
    await page.goto(invitationUrl);
    await page.getByText(`${owner.name}, הוזמנת להצטרף לצוות של מרפאת השקד`).waitFor();
    await shot(page, '01-invitation');
    let before = (await messagesTo(owner.phone)).length;
    await act('owner', page.getByRole('button', { name: 'שליחת קוד' }).click());
    const code = codeOf(await nextMessage(owner.phone, before));
    await act('owner', page.getByRole('textbox', { name: 'קוד אימות' }).fill(code));

    // 2. Not ready for patients yet: the owner lands on the checklist.
    await page.waitForURL(/\/desk\/setup$/);
    await h1('הגדרת המרפאה');
    await page.getByText('המרפאה עדיין לא מוכנה למטופלים').waitFor();
    await expectNoAxeViolations(page);
    await shot(page, '02-checklist');

    // 3. Profile: a few words and the logo.
    await act('owner', page.getByRole('link', { name: 'פתיחה פרטי המרפאה' }).click());
    await h1('פרטי המרפאה');
    await act(
      'owner',
      page.getByRole('textbox', { name: 'על המרפאה' }).fill('מרפאת שיניים משפחתית במרכז העיר.'),
    );
    await act(
      'owner',
      page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png }),
    );
    await page.getByRole('button', { name: 'החלפת התמונה' }).waitFor();
    await act('owner', page.getByRole('button', { name: 'שמירה' }).click());
    await page.getByText('נשמר, והשלב סומן כבוצע').first().waitFor();
    await shot(page, '03-profile');

    // 4. Opening hours: Sunday 08:00–16:00, copied to Monday–Thursday.
    await act('owner', page.getByRole('link', { name: 'לשלב הבא: שעות פתיחה' }).click());
    await h1('שעות פתיחה');
    for (const day of ['ראשון', 'שני', 'שלישי', 'רביעי', 'חמישי']) {
      await act('owner', page.getByLabel(`פתוח ביום ${day}`).check());
    }
    await act('owner', page.getByLabel('משעה ביום ראשון').fill('08:00'));
    await act('owner', page.getByLabel('עד שעה ביום ראשון').fill('16:00'));
    await act(
      'owner',
      page.getByRole('button', { name: 'העתקת השעות של יום ראשון לכל הימים הפתוחים' }).click(),
    );
    await act('owner', page.getByRole('button', { name: 'שמירה' }).click());
    await page.getByText('נשמר, והשלב סומן כבוצע').first().waitFor();
    await shot(page, '04-hours');

    // 5. Closures: none planned yet; the owner marks the step done.
    await act('owner', page.getByRole('link', { name: 'לשלב הבא: ימי סגירה וחגים' }).click());
    await h1('ימי סגירה וחגים');
    await act('owner', page.getByRole('button', { name: 'סימון השלב כבוצע' }).click());
    await page.getByRole('button', { name: 'ביטול הסימון' }).waitFor();

    // 6. Appointment types: a check-up of 30 minutes.
    // Types before caregivers (a caregiver offers types): the owner opens that step first.
    await page.goto(`${baseUrl}/desk/setup/types`);
    acts.owner += 1;
    await page.getByRole('heading', { level: 1 }).waitFor();
    await act('owner', page.getByRole('button', { name: 'הוספת סוג תור' }).click());
    const typeDialog = page.getByRole('dialog', { name: 'סוג תור חדש' });
    await act('owner', typeDialog.getByRole('textbox', { name: 'שם', exact: true }).fill('בדיקה'));
    await act('owner', typeDialog.getByLabel('משך (דקות)').fill('30'));
    await act('owner', typeDialog.getByRole('button', { name: 'הוספת סוג תור' }).click());
    await typeDialog.waitFor({ state: 'detached' });
    await act('owner', page.getByRole('button', { name: 'סימון השלב כבוצע' }).click());
    await page.getByRole('button', { name: 'ביטול הסימון' }).waitFor();
    await shot(page, '05-types');

    // 7. The caregiver: name, licence, photo, the type, Sunday to Thursday 08:00–16:00.
    await page.goto(`${baseUrl}/desk/setup/caregivers`);
    acts.owner += 1;
    await act('owner', page.getByRole('link', { name: 'הוספת מטפל/ת' }).click());
    await h1('הוספת מטפל/ת');
    await act('owner', page.getByRole('textbox', { name: 'שם', exact: true }).fill('ד"ר נועה שקד'));
    await act('owner', page.getByLabel('מספר רישיון').fill('1-23456'));
    await act(
      'owner',
      page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png }),
    );
    await page.getByRole('img', { name: 'התמונה של ד"ר נועה שקד' }).waitFor();
    await act('owner', page.getByLabel('בדיקה (30 דקות)').check());
    await act('owner', page.getByLabel('ראשון', { exact: true }).check());
    const sunday = page.getByRole('group', { name: 'שעות עבודה ביום ראשון' });
    await act('owner', sunday.getByLabel('משעה').fill('08:00'));
    await act('owner', sunday.getByLabel('עד שעה').fill('16:00'));
    for (const day of ['שני', 'שלישי', 'רביעי', 'חמישי']) {
      // A day switched on starts with the nearest earlier working day's hours.
      await act('owner', page.getByLabel(day, { exact: true }).check());
    }
    await shot(page, '06-caregiver');
    await act('owner', page.getByRole('button', { name: 'הוספת המטפל/ת' }).click());
    await page.getByRole('heading', { level: 2, name: 'ד"ר נועה שקד' }).waitFor();
    await act('owner', page.getByRole('button', { name: 'סימון השלב כבוצע' }).click());
    await page.getByRole('button', { name: 'ביטול הסימון' }).waitFor();

    // 8. Booking rules and reminders as they are: saved, so marked.
    await page.goto(`${baseUrl}/desk/setup/rules`);
    acts.owner += 1;
    await h1('כללי הזמנת תורים');
    await act('owner', page.getByRole('button', { name: 'שמירה' }).click());
    await page.getByText('נשמר, והשלב סומן כבוצע').first().waitFor();
    await act('owner', page.getByRole('link', { name: 'לשלב הבא: תזכורות ושעות שקטות' }).click());
    await h1('תזכורות ושעות שקטות');
    await act('owner', page.getByLabel('לשלוח תזכורות לפני תורים').check());
    await act('owner', page.getByRole('button', { name: 'שמירה' }).click());
    await page.getByText('נשמר, והשלב סומן כבוצע').first().waitFor();

    // 9. SMS stays the channel; the card terminal comes later (left to do on purpose).
    await page.goto(`${baseUrl}/desk/setup/channel`);
    acts.owner += 1;
    await act('owner', page.getByRole('button', { name: 'סימון השלב כבוצע' }).click());
    await page.getByRole('button', { name: 'ביטול הסימון' }).waitFor();

    // 10. Ready: the checklist says so, and links to the clinic's page.
    await page.goto(`${baseUrl}/desk/setup`);
    acts.owner += 1;
    await page.getByText('המרפאה מוכנה למטופלים').waitFor();
    await expectNoAxeViolations(page);
    await shot(page, '07-ready');

    // 11. The owner invites the front desk; the link goes by SMS.
    await act('owner', page.getByRole('link', { name: 'צוות' }).click());
    await h1('צוות');
    await act('owner', page.getByRole('button', { name: 'הזמנה לצוות' }).click());
    const invite = page.getByRole('dialog');
    await settled(page, '[role="dialog"]');
    await act('owner', invite.getByRole('textbox', { name: 'שם מלא' }).fill(frontDesk.name));
    await act('owner', invite.getByRole('textbox', { name: 'מספר נייד' }).fill(frontDesk.phone));
    before = (await messagesTo(frontDesk.phone)).length;
    await act('owner', invite.getByRole('button', { name: 'יצירת ההזמנה' }).click());
    const invitationSms = await nextMessage(frontDesk.phone, before);
    const frontDeskLink = /https?:\/\/\S+\/desk\/invite\/\S+/.exec(invitationSms)?.[0] ?? '';
    expect(frontDeskLink).not.toBe('');
    await shot(page, '08-staff');
    const ownerDone = Date.now();

    // 12. The first patient books on the clinic's public page (another browser).
    const patientContext = await browser().newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'he-IL',
    });
    const mobile = await patientContext.newPage();
    const pact = async (action: Promise<unknown>) => {
      acts.patient += 1;
      await action;
    };
    await mobile.goto(`${baseUrl}/clinic/${clinicId}`);
    await mobile.getByRole('heading', { name: 'מרפאת השקד' }).first().waitFor();
    await pact(mobile.getByRole('link', { name: 'קביעת תור' }).click());
    await pact(mobile.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(patient.idNumber));
    await pact(mobile.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone));
    await pact(mobile.getByRole('button', { name: 'המשך' }).click());
    await pact(mobile.getByRole('textbox', { name: 'שם פרטי' }).fill(patient.first));
    await pact(mobile.getByRole('textbox', { name: 'שם משפחה' }).fill(patient.last));
    before = (await messagesTo(patient.phone)).length;
    await pact(mobile.getByRole('button', { name: 'המשך' }).click());
    const patientCode = codeOf(await nextMessage(patient.phone, before));
    await pact(mobile.getByRole('textbox', { name: 'קוד אימות' }).fill(patientCode));
    await mobile.getByRole('heading', { level: 1, name: 'קביעת תור' }).waitFor();
    // One type and one caregiver: the page chooses both by itself; the patient picks a time.
    await pact(
      mobile.getByRole('radiogroup', { name: 'שעות פנויות' }).getByRole('radio').first().check(),
    );
    await pact(mobile.getByRole('button', { name: 'אישור התור' }).click());
    await settled(mobile, '[role="dialog"]');
    await pact(mobile.getByRole('dialog').getByRole('button', { name: 'אישור התור' }).click());
    await mobile.getByRole('heading', { level: 1, name: 'התור נקבע בהצלחה' }).waitFor();
    await patientContext.close();

    // 13. The front desk joins from the SMS link and finds the booking in the diary.
    const deskContext = await browser().newContext({
      viewport: { width: 1366, height: 768 },
      locale: 'he-IL',
    });
    const desk = await deskContext.newPage();
    const dact = async (action: Promise<unknown>) => {
      acts.frontDesk += 1;
      await action;
    };
    await desk.goto(frontDeskLink);
    before = (await messagesTo(frontDesk.phone)).length;
    await dact(desk.getByRole('button', { name: 'שליחת קוד' }).click());
    const deskCode = codeOf(await nextMessage(frontDesk.phone, before));
    await dact(desk.getByRole('textbox', { name: 'קוד אימות' }).fill(deskCode));
    await desk.waitForURL(/\/desk\/diary/);
    // The booking's day (the patient took the first free time, maybe days ahead): the front desk
    // steps there in the diary; the test goes to it directly.
    const booked = await desk.evaluate(async () => {
      const from = new Date().toISOString().slice(0, 10);
      const to = new Date(Date.now() + 80 * 86_400_000).toISOString().slice(0, 10);
      const response = await fetch(`/api/integration/appointments?from=${from}&to=${to}`);
      return (await response.json()) as { start_date: string }[];
    });
    expect(booked).toHaveLength(1);
    const day = booked[0]?.start_date.slice(0, 10) ?? '';
    acts.frontDesk += 1;
    await desk.goto(`${baseUrl}/desk/diary?view=day&date=${day}`);
    await desk
      .getByRole('button', { name: new RegExp(`${patient.first} ${patient.last}`) })
      .first()
      .waitFor();
    await expectNoAxeViolations(desk);
    await shot(desk, '09-diary');
    await deskContext.close();

    // The owner's part, and the whole, as a person would do it (see the closing note's model).
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `desk journey: owner ${acts.owner} acts (${Math.round((ownerDone - started) / 1000)} s in the test), patient ${acts.patient}, front desk ${acts.frontDesk}; ${seconds} s in all`,
    );
    await ownerContext.close();
  }, 600_000);
});
