import type {
  IntegrationCaregiver,
  IntegrationWaitlistEntry,
  WaitlistEntry,
  WaitlistSlots,
} from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { messagesTo, nextCode, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

const TZ = 'Asia/Jerusalem';
const DAY = 86_400_000;
/** A clinic-local YYYY-MM-DD `days` from now. */
const clinicDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(Date.now() + days * DAY);

const words = {
  he: {
    title: 'רשימת המתנה',
    table: 'ממתינים',
    offer: 'הצעת מועד',
    dialog: /^הצעת מועד ל/,
    send: 'שליחת ההצעה',
    choose: 'בחרו מועד',
  },
  en: {
    title: 'Waitlist',
    table: 'Waiting',
    offer: 'Offer a time',
    dialog: /^Offer a time to /,
    send: 'Send the offer',
    choose: 'Choose a time',
  },
} as const;

/** A new patient signs up (SMS code) and joins the waitlist, as on the booking page. */
async function patientJoins(caregiverId: number, appointmentTypeId: number) {
  const phone = `053${String(Date.now()).slice(-7)}`;
  const idNumber = withCheckDigit(`6${String(Date.now()).slice(-7)}`);
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
    body: JSON.stringify({ clinicId: 1, phone, idNumber, firstName: 'נועם', lastName: 'מחכה' }),
  });
  expect(signUp.status, await signUp.clone().text()).toBe(200);
  const signedUp = (await signUp.json()) as string | { twoFactorToken: string };
  const verified = await fetch(`${baseUrl}/api/patient-auth/two-factor`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      idNumber,
      code: await nextCode(phone, before),
      twoFactorToken: typeof signedUp === 'string' ? signedUp : signedUp.twoFactorToken,
    }),
  });
  expect(verified.status, await verified.clone().text()).toBe(200);
  const { token } = (await verified.json()) as { token: string };
  const joined = await fetch(`${baseUrl}/api/waitlist`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({
      clinicId: 1,
      caregiverId,
      appointmentTypeId,
      fromDate: clinicDate(2),
      toDate: clinicDate(9),
      partOfDay: 'any',
    }),
  });
  expect(joined.status, await joined.clone().text()).toBe(201);
  return { phone, idNumber, entry: (await joined.json()) as WaitlistEntry };
}

async function openWaitlist(page: Page, lang: 'he' | 'en') {
  await page.goto(`${baseUrl}/desk/waitlist`);
  await page.getByRole('heading', { level: 1, name: words[lang].title }).waitFor();
  await page.getByRole('table', { name: words[lang].table }).waitFor();
}

describe('the desk: waitlist', () => {
  it('lists who waits, and a front-desk member offers one of them a free time', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    await page.goto(`${baseUrl}/desk/`);
    const caregivers = (
      await deskFetch<IntegrationCaregiver[]>(page, '/api/integration/caregivers')
    ).body;
    const types = (
      await deskFetch<{ id: number; name: string }[]>(page, '/api/integration/appointment-types')
    ).body;
    const cohen = caregivers.find((c) => c.name === 'ד"ר יעל כהן');
    const checkup = types.find((t) => t.name === 'בדיקה תקופתית');
    if (!cohen || !checkup) throw new Error('no Dr Cohen or checkup in the demo clinic');
    const patient = await patientJoins(cohen.id, checkup.id);
    const name = 'נועם מחכה';

    // The list, with the patient linking to their page.
    await openWaitlist(page, 'he');
    const table = page.getByRole('table', { name: words.he.table });
    const link = table.getByRole('link', { name }).last();
    expect(await link.getAttribute('href')).toBe(`/desk/patients/${patient.idNumber}`);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-waitlist');

    // The filter holds in the address.
    await page.getByRole('combobox', { name: 'מטפל/ת' }).selectOption({ label: cohen.name });
    await page.waitForURL((url) => url.searchParams.get('caregiver') === String(cohen.id));
    await table.getByRole('link', { name }).last().waitFor();

    // Offer a time through the dialog, by keyboard where it counts.
    const offered = (await messagesTo(patient.phone)).length;
    await table
      .getByRole('button', { name: `${words.he.offer} ${name}` })
      .last()
      .click();
    const dialog = page.getByRole('dialog', { name: words.he.dialog });
    await dialog.waitFor();
    await settled(page, '[role="dialog"]');
    const first = dialog.getByRole('radio').first();
    await first.waitFor();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-waitlist-offer');
    await dialog.getByRole('button', { name: words.he.send }).click();
    await dialog.getByText(words.he.choose).waitFor();
    await first.focus();
    await page.keyboard.press('Space');
    const start = await first.inputValue();
    expect(await first.isChecked()).toBe(true);
    await dialog.getByRole('button', { name: words.he.send }).click();
    const note = page.getByRole('status').filter({ hasText: name });
    await note.waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Recorded: the time now reads as offered; the message went unless quiet hours hold it.
    const slots = await deskFetch<WaitlistSlots>(
      page,
      `/api/integration/waitlist/entries/${patient.entry.id}/slots`,
    );
    expect(slots.body.slots.find((s) => s.start === start)?.offered).toBe(true);
    if ((await note.textContent())?.startsWith('ההצעה נשלחה')) {
      const messages = await messagesTo(patient.phone);
      expect(messages.length).toBe(offered + 1);
      expect(messages[0]?.body).toContain('התפנה תור');
    }
    const entries = await deskFetch<IntegrationWaitlistEntry[]>(
      page,
      `/api/integration/waitlist/entries?patient_id_number=${patient.idNumber}`,
    );
    expect(entries.body.map((e) => e.id)).toEqual([patient.entry.id]);
    await context.close();

    // English: the page and the dialog.
    const english = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await openWaitlist(english.page, 'en');
    await expectNoAxeViolations(english.page);
    await english.page
      .getByRole('table', { name: words.en.table })
      .getByRole('button', { name: `${words.en.offer} ${name}` })
      .last()
      .click();
    await english.page
      .getByRole('dialog', { name: words.en.dialog })
      .getByRole('radio')
      .first()
      .waitFor();
    await settled(english.page, '[role="dialog"]');
    await expectNoAxeViolations(english.page);
    await english.context.close();
  }, 90_000);
});
