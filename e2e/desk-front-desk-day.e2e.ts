import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { demoFrontDesk, signedInDeskPage } from './support/desk';
import { withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** A demo patient of clinic 1 (apps/api/src/demo/demo-clinic.ts) no other desk journey uses. */
const patient = { idNumber: withCheckDigit('20547718'), name: 'יוסי כהן', phone: '0527654321' };

/** A link the desk shows once, in its "ready" dialog, read from its field and the dialog closed. */
async function linkShownOnce(page: Page, dialogName: string, fieldName: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  const url = await dialog.getByRole('textbox', { name: fieldName }).inputValue();
  await dialog.getByRole('button', { name: 'סיום' }).click();
  await dialog.waitFor({ state: 'detached' });
  return new URL(url).pathname;
}

/** The demo form, filled and signed in the patient's own browser, as a patient does it. */
async function fillDemoForm(page: Page, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('heading', { level: 1, name: 'פרטים אישיים' }).waitFor();
  await page.getByRole('textbox', { name: 'תעודת זהות' }).fill(patient.idNumber);
  await page.getByRole('textbox', { name: 'תאריך לידה' }).fill('02031985');
  await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
  await page.getByRole('textbox', { name: 'דואר אלקטרוני' }).fill('yossi@example.com');
  await page.getByRole('combobox', { name: 'מין' }).selectOption('male');
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByRole('heading', { level: 1, name: 'היסטוריה רפואית' }).waitFor();
  await page.getByRole('combobox', { name: 'עישון' }).selectOption('never');
  await page.getByRole('button', { name: 'המשך' }).click();
  await page.getByRole('heading', { level: 1, name: 'הצהרה וחתימה' }).waitFor();
  await page.getByRole('checkbox', { name: 'קראתי ואני מאשר/ת את ההצהרה' }).check();
  const signature = page.getByRole('group', { name: 'חתימת המטופל/ת' });
  await signature.getByRole('button', { name: 'הקלדת שם במקום ציור' }).click();
  await signature.getByRole('textbox', { name: 'שם מלא לחתימה' }).fill(patient.name);
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => document.querySelector('canvas')?.getAttribute('aria-label') === 'משטח חתימה, חתום',
  );
  await page.getByRole('button', { name: 'שליחה' }).click();
  await page.getByRole('heading', { level: 1, name: 'טופס נשלח' }).waitFor();
}

/** Pays the link with the sandbox's approving card, in 1 payment. */
async function payLink(page: Page, path: string): Promise<void> {
  const frameTitle = 'טופס תשלום מאובטח';
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('heading', { level: 1, name: 'בקשת תשלום' }).waitFor();
  await page.getByText('ניקוי אבנית', { exact: true }).waitFor();
  await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('yossi@example.com');
  await page.getByRole('button', { name: 'המשך לתשלום' }).click();
  await page.getByTitle(frameTitle).waitFor();
  const frame = page.frameLocator(`iframe[title="${frameTitle}"]`);
  await frame.getByRole('radio', { name: /\(000\)/ }).check();
  await frame.getByRole('button', { name: 'תשלום' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/tranzila/'));
}

describe('the desk: a front-desk day', () => {
  it('finds a patient, sends a form and a payment link; the patient fills and pays in their own browser; the desk shows both done without a reload', async () => {
    const desk = await signedInDeskPage(browser(), demoFrontDesk);
    desk.context.setDefaultTimeout(15_000);
    const { page } = desk;

    // Find the patient as a caller on the phone would be found: by a few letters of the name.
    await page.goto(`${baseUrl}/desk/patients`);
    await page.getByRole('heading', { level: 1, name: 'מטופלים' }).waitFor();
    await page.getByRole('searchbox', { name: 'חיפוש מטופלים' }).fill('כהן');
    await page
      .getByRole('table', { name: /כהן/ })
      .getByRole('link', { name: patient.name })
      .click();
    await page.getByRole('heading', { level: 1, name: patient.name }).waitFor();

    // A form, from the patient's page: the dialog opens with them chosen.
    await page.getByRole('link', { name: 'שליחת טופס' }).click();
    const send = page.getByRole('dialog', { name: 'שליחת טופס למטופל/ת' });
    await send.getByRole('combobox', { name: 'טופס' }).selectOption({ label: 'שאלון רפואי' });
    await send.getByRole('radio', { name: /052-7654321/ }).waitFor();
    await send.getByRole('button', { name: 'שליחה' }).click();
    const formPath = await linkShownOnce(page, 'הקישור לטופס מוכן', 'הקישור לטופס');
    expect(formPath).toMatch(/^\/q\//);

    // A payment request, the same way.
    await page.goto(`${baseUrl}/desk/patients/${patient.idNumber}`);
    await page.getByRole('link', { name: 'בקשת תשלום' }).click();
    const request = page.getByRole('dialog', { name: 'בקשת תשלום' });
    await request.getByRole('textbox', { name: 'סכום (₪)' }).fill('350');
    await request.getByRole('textbox', { name: 'עבור מה התשלום' }).fill('ניקוי אבנית');
    await request.getByRole('button', { name: 'יצירת הבקשה' }).click();
    const payPath = await linkShownOnce(page, 'בקשת התשלום נוצרה', 'הקישור לתשלום');
    expect(payPath).toMatch(/^\/p\//);

    // Back on the patient's page, which stays open from here on: both are waiting.
    await page.goto(`${baseUrl}/desk/patients/${patient.idNumber}`);
    const forms = page.getByRole('region', { name: 'טופסי קבלה' });
    const payments = page.getByRole('region', { name: 'בקשות תשלום' });
    await forms.getByRole('cell', { name: 'נשלח', exact: true }).first().waitFor();
    await payments.getByRole('cell', { name: 'ממתין לתשלום', exact: true }).first().waitFor();

    // The patient, on their own phone: fills and signs the form, then pays.
    const phone = await newPage(browser(), { viewport: 'mobile' });
    await fillDemoForm(phone.page, formPath);
    await payLink(phone.page, payPath);
    await phone.context.close();

    // The desk shows both as done by itself, within a few seconds.
    await forms
      .getByRole('cell', { name: 'הוגש', exact: true })
      .first()
      .waitFor({ timeout: 8_000 });
    // Paid, with the card's last 4 digits beside it.
    await payments
      .getByRole('cell', { name: /^שולם \(\d{4}\)$/ })
      .first()
      .waitFor({
        timeout: 8_000,
      });
    await desk.context.close();
  }, 120_000);
});
