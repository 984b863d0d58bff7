import type { FormRequest } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { messagesTo, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** A demo patient of clinic 1 (apps/api/src/demo/demo-clinic.ts). */
const patient = { idNumber: withCheckDigit('05873341'), name: 'אורי בן דוד', phone: '0589876543' };

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** An adult's answers to the demo form. */
const answers = {
  first_name: 'אורי',
  last_name: 'בן דוד',
  id_number: patient.idNumber,
  birth_date: '15/05/1990',
  phone: '058-9876543',
  email: 'uri@example.com',
  gender: 'male',
  last_visit_date: '',
  has_allergies: true,
  allergies_details: 'פניצילין',
  takes_medication: false,
  blood_thinners: false,
  diabetes: false,
  heart_disease: false,
  smoking: 'past',
  consent: true,
  patient_signature: PNG,
};

/** A POST from the patient's side (no session): the anti-forgery pair from a first refusal. */
async function patientPost(pathname: string, body: unknown): Promise<number> {
  const send = (headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${pathname}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const first = await send();
  if (first.status !== 403) return first.status;
  const [, name = '', cookie = ''] =
    /((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(first.headers.get('set-cookie') ?? '') ?? [];
  return (await send({ Cookie: `${name}=${cookie}`, 'X-XSRF-TOKEN': decodeURIComponent(cookie) }))
    .status;
}

const rowOf = (page: Page, id: number) =>
  page
    .getByRole('table', { name: /טפסים שנשלחו|Forms sent/ })
    .locator(`tr:has(a[href$="/forms/${id}"])`);

describe('the desk: intake forms', () => {
  it('the front desk sends a form, sees it opened and submitted live, and reads the answers', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);

    // Opened for a patient (as the patient's page links to it): the dialog starts with them.
    await page.goto(`${baseUrl}/desk/forms?send=${patient.idNumber}`);
    // (The page behind a modal dialog is hidden from the accessibility tree.)
    const dialog = page.getByRole('dialog', { name: 'שליחת טופס למטופל/ת' });
    const field = dialog.getByRole('combobox', { name: 'חיפוש מטופל/ת' });
    // The patient is looked up before the field fills: the page's 10 s, not expect.poll's 1 s
    // (under the full suite's load the lookup took longer than 1 s).
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toContain(patient.name);
    await dialog.getByRole('combobox', { name: 'טופס' }).selectOption({ label: 'שאלון רפואי' });
    await dialog.getByRole('radio', { name: /^שליחה ב/ }).waitFor();
    expect(await dialog.getByRole('radio', { name: /058-9876543/ }).isChecked()).toBe(true);
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);

    const smsBefore = (await messagesTo(patient.phone)).length;
    await dialog.getByRole('button', { name: 'שליחה' }).click();
    const created = page.getByRole('dialog', { name: 'הקישור לטופס מוכן' });
    await created.getByText('הקישור נשלח ב-SMS לנייד 058-9876543.').waitFor();
    const url = await created.getByRole('textbox', { name: 'הקישור לטופס' }).inputValue();
    expect(url).toMatch(/\/q\/[\w-]{43}$/);
    await page.getByText(`הטופס „שאלון רפואי” נשלח אל ${patient.name}`).waitFor();
    await expectNoAxeViolations(page);
    const sms = await messagesTo(patient.phone);
    expect(sms.length).toBe(smsBefore + 1);
    expect(sms[0]?.body).toContain(url);
    await created.getByRole('button', { name: 'סיום' }).click();
    await created.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.has('send')).toBe(false);
    await page.getByRole('heading', { level: 1, name: 'טפסים' }).waitFor();

    // Listed, newest first, with the patient's name and its state.
    const [request] = (
      await deskFetch<FormRequest[]>(
        page,
        `/api/integration/form-requests?patient_id_number=${patient.idNumber}&limit=1`,
      )
    ).body;
    if (!request) throw new Error('no request listed');
    const row = rowOf(page, request.id);
    await row.getByRole('rowheader', { name: patient.name }).waitFor();
    await row.getByText('נשלח', { exact: true }).waitFor();
    await expectNoAxeViolations(page);

    // The patient opens the link and submits: the list follows without a reload.
    const token = url.slice(url.indexOf('/q/') + 3);
    expect(await patientPost('/api/get-form', { token })).toBe(200);
    await row.getByText('נפתח', { exact: true }).waitFor();
    expect(await patientPost('/api/submit', { token, inputData: answers })).toBe(200);
    await row.getByText('הוגש', { exact: true }).waitFor();
    await saveScreenshot(page, 'desk-forms-list');

    // The answers, as the patient saw them: choices by their labels, yes/no, the signature.
    await row.getByRole('link', { name: /^פתיחה/ }).click();
    await page.getByRole('heading', { level: 1, name: 'טופס: שאלון רפואי' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'התשובות' }).waitFor();
    await page.getByRole('heading', { level: 3, name: 'פרטים אישיים' }).waitFor();
    await page.getByRole('img', { name: /^חתימה: / }).waitFor();
    await page.getByText('15 במאי 1990').waitFor();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-forms-answers');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'הורדת PDF' }).click();
    expect((await download).suggestedFilename()).toBe(`form-${request.id}.pdf`);
    await page.getByRole('button', { name: 'הדפסה' }).waitFor();

    await context.close();

    // The same in English.
    const en = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    en.context.setDefaultTimeout(10_000);
    await en.page.goto(`${baseUrl}/desk/forms/${request.id}`);
    await en.page.getByRole('heading', { level: 1, name: 'Form: שאלון רפואי' }).waitFor();
    await en.page.getByText('15 May 1990').waitFor();
    await expectNoAxeViolations(en.page);
    await en.page.getByRole('link', { name: 'All forms' }).click();
    await en.page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    await rowOf(en.page, request.id).getByText('Submitted', { exact: true }).waitFor();
    await en.page.getByRole('combobox', { name: 'State' }).selectOption({ label: 'Submitted' });
    await expect.poll(() => new URL(en.page.url()).searchParams.get('stage')).toBe('submitted');
    await rowOf(en.page, request.id).waitFor();
    await expectNoAxeViolations(en.page);
    await en.page.getByRole('button', { name: 'Send a form' }).click();
    const english = en.page.getByRole('dialog', { name: 'Send a form to a patient' });
    await english.getByRole('combobox', { name: 'Form' }).waitFor();
    await settled(en.page, '[role="dialog"]');
    await expectNoAxeViolations(en.page);
    await english.getByRole('button', { name: 'Cancel' }).click();
    await english.waitFor({ state: 'detached' });
    await en.context.close();
  }, 60_000);
});
