import type { IntegrationCaregiver, IntegrationPatient } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { messagesTo, nextCode, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** A demo patient (apps/api/src/demo/demo-clinic.ts), put back as found at the end. */
const MERAV = { idNumber: withCheckDigit('31266904'), first: 'מירב', last: 'אזולאי' };

const words = {
  he: {
    title: 'מטופלים',
    search: 'חיפוש מטופלים',
    correct: 'תיקון הפרטים',
    lastName: 'שם משפחה',
    save: 'שמירת התיקון',
    cancel: 'ביטול',
    upcoming: 'תורים קרובים',
  },
  en: {
    title: 'Patients',
    search: 'Search patients',
    correct: 'Correct the details',
    lastName: 'Last name',
    save: 'Save the correction',
    cancel: 'Cancel',
    upcoming: 'Upcoming appointments',
  },
} as const;

async function checkPages(page: Page, lang: 'he' | 'en') {
  const w = words[lang];
  await page.goto(`${baseUrl}/desk/patients`);
  await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
  // Nothing typed: every patient, by name.
  await page.getByRole('link', { name: `${MERAV.first} ${MERAV.last}` }).waitFor();
  await expectNoAxeViolations(page);

  await page.goto(`${baseUrl}/desk/patients/${MERAV.idNumber}`);
  await page.getByRole('heading', { level: 1, name: `${MERAV.first} ${MERAV.last}` }).waitFor();
  await page.getByRole('heading', { level: 2, name: w.upcoming }).waitFor();
  await page.getByRole('table', { name: w.upcoming }).waitFor();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: w.correct }).click();
  const dialog = page.getByRole('dialog');
  await settled(page, '[role="dialog"]');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: w.cancel }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the desk: patients', () => {
  it('front desk finds a patient by typing, opens them and corrects a name; axe he and en', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    try {
      await checkPages(page, 'he');

      // Find by typing: the list narrows to the patient, whose row opens their page.
      await page.goto(`${baseUrl}/desk/patients`);
      await page.getByRole('searchbox', { name: words.he.search }).fill('אזול');
      await page.waitForURL((url) => url.searchParams.get('q') === 'אזול');
      const results = page.getByRole('table', { name: /אזול/ });
      await results.getByRole('link', { name: `${MERAV.first} ${MERAV.last}` }).click();
      await page.waitForURL(`**/desk/patients/${MERAV.idNumber}`);
      await page.getByRole('heading', { level: 1, name: `${MERAV.first} ${MERAV.last}` }).waitFor();

      // A name left empty is refused at the field, what was typed kept; then corrected.
      await page.getByRole('button', { name: words.he.correct }).click();
      const dialog = page.getByRole('dialog');
      await settled(page, '[role="dialog"]');
      const lastName = dialog.getByRole('textbox', { name: words.he.lastName });
      await lastName.fill(' ');
      await dialog.getByRole('button', { name: words.he.save }).click();
      await dialog.getByText('שדה חובה').waitFor();
      await lastName.fill('אזולאי-כהן');
      await dialog.getByRole('button', { name: words.he.save }).click();
      await dialog.waitFor({ state: 'detached' });
      await page
        .getByRole('status')
        .filter({ hasText: 'הפרטים של מירב אזולאי-כהן תוקנו' })
        .waitFor();
      await page.getByRole('heading', { level: 1, name: 'מירב אזולאי-כהן' }).waitFor();
      const stored = await deskFetch<IntegrationPatient>(
        page,
        `/api/integration/patients/${MERAV.idNumber}`,
      );
      expect(stored.body.last_name).toBe('אזולאי-כהן');

      // Book from the patient's page: the diary says for whom.
      await page.getByRole('link', { name: 'קביעת תור' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/desk/diary'));
      await page.getByText('קביעת תור למירב אזולאי-כהן: בחרו מועד ביומן.').waitFor();
    } finally {
      await deskFetch(page, `/api/integration/patients/${MERAV.idNumber}`, {
        method: 'PATCH',
        body: { first_name: MERAV.first, last_name: MERAV.last },
      });
    }

    await context.close();

    const english = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await checkPages(english.page, 'en');
    await english.context.close();
  }, 60_000);

  it('gives an ID back to its owner: a squatter signed up with it; the dialog by keyboard, axe he and en', async () => {
    // Someone signs up with a stranger's ID number and their own phone (the patients' sign-up).
    const stamp = String(Date.now()).slice(-7);
    const idNumber = withCheckDigit(`6${stamp}`);
    const squatterPhone = `053${stamp}`;
    const ownerPhone = `054${stamp}`;
    const health = await fetch(`${baseUrl}/api/health`);
    // `__Host-XSRF-TOKEN`: the suite's server has an https PUBLIC_ORIGIN.
    const [, cookieName = '', xsrf = ''] =
      /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(health.headers.get('set-cookie') ?? '') ?? [];
    const headers = {
      'content-type': 'application/json',
      cookie: `${cookieName}=${xsrf}`,
      'x-xsrf-token': decodeURIComponent(xsrf),
    };
    const post = (pathname: string, body: object) =>
      fetch(`${baseUrl}${pathname}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const before = (await messagesTo(squatterPhone)).length;
    const signUp = await post('/api/patient-auth/sign-up', {
      clinicId: 1,
      phone: squatterPhone,
      idNumber,
      firstName: 'זר',
      lastName: 'מתחזה',
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const { twoFactorToken } = (await signUp.json()) as { twoFactorToken: string };
    const verified = await post('/api/patient-auth/two-factor', {
      idNumber,
      code: await nextCode(squatterPhone, before),
      twoFactorToken,
    });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const { token } = (await verified.json()) as { token: string };
    const me = () =>
      fetch(`${baseUrl}/api/patient-auth`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);

    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    // A phone that already signs in the most ID numbers: six clinic bookings of a family on it,
    // late at night months ahead (out of the other journeys' way).
    const fullPhone = `055${stamp}`;
    const caregivers = await deskFetch<IntegrationCaregiver[]>(page, '/api/integration/caregivers');
    const caregiver = caregivers.body.find((c) => c.is_active && c.appointment_type_ids.length > 0);
    if (!caregiver) throw new Error('no demo caregiver with a type');
    const night = Date.now() + (200 + (Number(stamp) % 100)) * 86_400_000;
    for (let i = 0; i < 6; i++) {
      const booked = await deskFetch(page, '/api/integration/appointments', {
        method: 'POST',
        body: {
          caregiver_id: caregiver.id,
          appointment_type_id: caregiver.appointment_type_ids[0],
          start_date: new Date(night - (night % 3_600_000) + i * 86_400_000).toISOString(),
          outside_working_hours: true,
          ignore_busy_times: true,
          patient: {
            id_number: withCheckDigit(`7${stamp}`.slice(0, 7) + String(i)),
            phone: fullPhone,
            first_name: 'בן',
            last_name: `משפחה ${i + 1}`,
          },
        },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    }

    await page.goto(`${baseUrl}/desk/patients/${idNumber}`);
    await page.getByRole('heading', { level: 1, name: 'זר מתחזה' }).waitFor();

    // By keyboard: the action, then the fields in order.
    await page.getByRole('button', { name: 'החזרת מספר הזהות לבעליו' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `החזרת מספר הזהות ${idNumber} לבעליו` });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    const phone = dialog.getByRole('textbox', { name: 'הנייד של בעל/ת מספר הזהות' });
    await expect.poll(() => phone.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(fullPhone);
    await page.keyboard.press('Tab');
    await page.keyboard.type('נועה');
    await page.keyboard.press('Tab');
    await page.keyboard.type('בעלת-המספר');
    await page.keyboard.press('Tab');
    await page.keyboard.type('הציגה תעודת זהות בקבלה');
    const submit = dialog.getByRole('button', { name: 'החזרת מספר הזהות', exact: true });
    // Without the confirmation: refused at the checkbox, what was typed kept.
    await submit.click();
    await dialog.getByText('סמנו שבדקתם תעודה מזהה לפני ההחזרה.').waitFor();
    await expectNoAxeViolations(page);
    const checked = dialog.getByRole('checkbox', { name: /בדקתי תעודה מזהה/ });
    await checked.focus();
    await page.keyboard.press('Space');
    expect(await checked.isChecked()).toBe(true);
    // The full phone: refused at the field, nothing changed.
    await submit.click();
    await dialog.getByText('למספר הטלפון הזה כבר רשומים מספר המטופלים המרבי במרפאה.').waitFor();
    await expectNoAxeViolations(page);
    expect((await me()).status).toBe(200);
    await phone.fill(ownerPhone);
    await submit.click();
    await dialog.waitFor({ state: 'detached' });

    // The page shows the owner's details; the squatter is signed out.
    await page.getByRole('heading', { level: 1, name: 'נועה בעלת-המספר' }).waitFor();
    await page.getByText('מספר הזהות של נועה בעלת-המספר מעכשיו. מכשיר אחד נותק.').waitFor();
    await expectNoAxeViolations(page);
    const stored = await deskFetch<IntegrationPatient>(
      page,
      `/api/integration/patients/${idNumber}`,
    );
    expect(stored.body).toMatchObject({ first_name: 'נועה', phone: ownerPhone });
    expect((await me()).status).toBe(401);
    await context.close();

    const english = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await english.page.goto(`${baseUrl}/desk/patients/${idNumber}`);
    await english.page.getByRole('button', { name: 'Give this ID back to its owner' }).click();
    const dialogEn = english.page.getByRole('dialog');
    await settled(english.page, '[role="dialog"]');
    await expectNoAxeViolations(english.page);
    await dialogEn.getByRole('textbox', { name: "The owner's mobile number" }).fill(ownerPhone);
    await dialogEn.getByRole('textbox', { name: 'First name, as on the document' }).fill('Noa');
    await dialogEn.getByRole('textbox', { name: 'Last name, as on the document' }).fill('Owner');
    await dialogEn.getByRole('textbox', { name: 'Reason' }).fill('checked her ID card');
    await dialogEn.getByRole('checkbox', { name: /I checked an identity document/ }).check();
    await dialogEn.getByRole('button', { name: 'Give the ID number back' }).click();
    await dialogEn.waitFor({ state: 'detached' });
    await english.page.getByRole('heading', { level: 1, name: 'Noa Owner' }).waitFor();
    await english.page
      .getByText("The ID number is Noa Owner's from now on.", { exact: false })
      .waitFor();
    await expectNoAxeViolations(english.page);
    await english.context.close();
  }, 120_000);
});
