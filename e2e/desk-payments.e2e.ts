import type { PaymentRequest } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { messagesTo, withCheckDigit } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** A demo patient of clinic 1 (apps/api/src/demo/demo-clinic.ts). */
const patient = { idNumber: withCheckDigit('31266904'), name: 'מירב אזולאי', phone: '0541112233' };

describe('the desk: payment requests', () => {
  it('the front desk requests a payment for a patient, sees it listed live, and cancels it', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    // Told apart from other suites' requests on the same demo clinic.
    const purpose = `כתר זמני ${Date.now() % 1_000_000}`;

    // Opened for a patient (as the patient's page links to it): the dialog starts with them.
    await page.goto(`${baseUrl}/desk/payments?send=${patient.idNumber}`);
    // The dialog opens over the page at once (the page's heading is then hidden from roles).
    const dialog = page.getByRole('dialog', { name: 'בקשת תשלום' });
    await dialog.waitFor();
    const field = dialog.getByRole('combobox', { name: 'חיפוש מטופל/ת' });
    await expect.poll(() => field.inputValue()).toContain(patient.name);
    const send = dialog.getByRole('checkbox', { name: 'שליחת הקישור לנייד 054-1112233' });
    expect(await send.isChecked()).toBe(true);
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);

    // Refused at the field before anything is sent.
    await dialog.getByRole('textbox', { name: /סכום/ }).fill('12.345');
    await dialog.getByRole('button', { name: 'יצירת הבקשה' }).click();
    await dialog.getByText('יש להזין סכום בשקלים').waitFor();
    await expectNoAxeViolations(page);

    await dialog.getByRole('textbox', { name: /סכום/ }).fill('350');
    await dialog.getByRole('textbox', { name: 'עבור מה התשלום' }).fill(purpose);
    await dialog.getByRole('spinbutton', { name: 'מספר תשלומים מרבי' }).fill('3');
    await dialog.getByRole('spinbutton', { name: 'תוקף הקישור (ימים)' }).fill('7');
    const smsBefore = (await messagesTo(patient.phone)).length;
    await dialog.getByRole('button', { name: 'יצירת הבקשה' }).click();

    // The link, this once, and sent to the patient's mobile.
    const created = page.getByRole('dialog', { name: 'בקשת התשלום נוצרה' });
    await created.getByText('הקישור לתשלום על סך ₪350 נשלח לנייד 054-1112233.').waitFor();
    const link = await created.getByRole('textbox', { name: 'הקישור לתשלום' }).inputValue();
    expect(link).toMatch(/\/p\/[\w-]{43}$/);
    await page.getByText('בקשת התשלום על סך ₪350 נוצרה ונשלחה').waitFor();
    await expectNoAxeViolations(page);
    await expect.poll(async () => (await messagesTo(patient.phone)).length).toBe(smsBefore + 1);
    expect((await messagesTo(patient.phone))[0]?.body).toContain(link);
    await created.getByRole('button', { name: 'סיום' }).click();
    await created.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('heading', { level: 1, name: 'תשלומים' }).waitFor();

    // Listed, newest first, awaiting payment.
    const table = page.getByRole('table', { name: 'בקשות תשלום' });
    const row = table.getByRole('row', { name: new RegExp(purpose) });
    await row.getByText('ממתין לתשלום').waitFor();
    expect(await row.textContent()).toContain('עד 3 תשלומים');
    expect(await table.getByRole('row').nth(1).textContent()).toContain(purpose);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-payments');

    // The card attempts (none yet).
    await row.getByRole('button', { name: /^פרטים/ }).click();
    const details = page.getByRole('dialog', { name: 'בקשת תשלום על סך ₪350' });
    await details.getByText('עדיין לא היו ניסיונות תשלום בקישור הזה.').waitFor();
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await details.getByRole('button', { name: 'סגירה' }).click();
    await details.waitFor({ state: 'detached' });

    // Cancelled, asked first; the list says so without a reload.
    await row.getByRole('button', { name: /^ביטול הבקשה/ }).click();
    const confirm = page.getByRole('dialog', { name: 'לבטל את בקשת התשלום?' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'ביטול הבקשה' }).click();
    await page.getByText('בקשת התשלום על סך ₪350 בוטלה').waitFor();
    await row.getByText('בוטל').waitFor();
    expect(await row.getByRole('button', { name: /^ביטול הבקשה/ }).count()).toBe(0);
    const requests = await deskFetch<PaymentRequest[]>(
      page,
      `/api/integration/payment-requests?patient_id_number=${patient.idNumber}&limit=5`,
    );
    expect(requests.body.find((r) => r.purpose === purpose)).toMatchObject({
      stage: 'cancelled',
      amount: 350,
      max_payments: 3,
      patient_name_remarks: patient.name,
    });

    // The filter keeps the cancelled ones.
    await page.getByRole('combobox', { name: 'הצגה לפי מצב' }).selectOption({ label: 'בוטל' });
    await table.getByRole('row', { name: new RegExp(purpose) }).waitFor();
    expect(new URL(page.url()).searchParams.get('stage')).toBe('cancelled');

    await context.close();

    // In English too: the page (filtered by a stage) and the dialog.
    const en = await signedInDeskPage(browser(), demoFrontDesk, { lang: 'en' });
    en.context.setDefaultTimeout(10_000);
    await en.page.goto(`${baseUrl}/desk/payments?stage=cancelled`);
    await en.page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await en.page
      .getByRole('table', { name: 'Payment requests' })
      .getByRole('row', { name: new RegExp(purpose) })
      .getByText('Cancelled')
      .waitFor();
    await expectNoAxeViolations(en.page);
    await en.page.getByRole('button', { name: 'Request a payment' }).click();
    const english = en.page.getByRole('dialog', { name: 'Request a payment' });
    await english.getByRole('button', { name: 'Create the request' }).click();
    await english.getByText('Choose a patient').waitFor();
    await settled(en.page, '[role="dialog"]');
    await expectNoAxeViolations(en.page);
    await english.getByRole('button', { name: 'Cancel' }).click();
    await english.waitFor({ state: 'detached' });
    await en.context.close();
  }, 120_000);
});
