import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  newPage,
  saveScreenshot,
  switchLanguage,
  useBrowser,
} from './support/browser';
import { deskFetch, demoFrontDesk, signedInDeskPage } from './support/desk';
import { demoLinkPath } from './support/demo-links';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** The demo clinic (apps/api/src/demo/demo-clinic.ts), whose links these are. */
const clinic = { id: 1, name: 'מרפאת שיניים לב העיר', phone: '03-5551234', tel: 'tel:035551234' };
const call = { he: `התקשרו למרפאה ${clinic.phone}`, en: `Call the clinic ${clinic.phone}` };
const clinicPage = { he: 'לדף המרפאה', en: "The clinic's page" };
const frameTitle = 'טופס תשלום מאובטח';

interface Texts {
  he: string;
  en: string;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The terms and definitions of the page's description list, as a screen reader says them. */
async function details(page: Page): Promise<string[][]> {
  return page.locator('dl').evaluate((dl) =>
    [...dl.querySelectorAll('dt')].map((dt) => {
      const dd = dt.nextElementSibling;
      // What is said: the short date is hidden from screen readers, its words are not.
      const said = [...(dd?.childNodes ?? [])]
        .filter((node) => !(node instanceof Element && node.getAttribute('aria-hidden')))
        .map((node) => node.textContent ?? '')
        .join('');
      return [dt.textContent ?? '', said];
    }),
  );
}

/** The clinic's name, its phone as one tap-to-call link (a space before the number), its page. */
async function expectClinicOnward(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.getByText(clinic.name, { exact: true }).first().waitFor();
  const link = page.getByRole('link', { name: call[lang] });
  expect(await link.getAttribute('href')).toBe(clinic.tel);
  // As painted, not only as named: the words and the number apart.
  expect(await link.innerText()).toBe(call[lang]);
  expect(await page.getByRole('link', { name: clinicPage[lang] }).getAttribute('href')).toBe(
    `/clinic/${clinic.id}`,
  );
}

/** Axe on the page in Hebrew and in English (each with its onward links), then Hebrew again. */
async function checkBothLanguages(
  page: Page,
  name: string,
  texts: Texts,
  { callable = true, shots = true }: { callable?: boolean; shots?: boolean } = {},
): Promise<void> {
  await page.mouse.move(0, 0);
  await heading(page, texts.he);
  if (callable) await expectClinicOnward(page, 'he');
  await expectNoAxeViolations(page);
  if (shots) await screenshots(page, `${name}-he`);
  await switchLanguage(page, 'en');
  await heading(page, texts.en);
  if (callable) await expectClinicOnward(page, 'en');
  await expectNoAxeViolations(page);
  if (shots) await screenshots(page, `${name}-en`);
  await switchLanguage(page, 'he');
  await heading(page, texts.he);
}

/** The page on a phone and on a laptop, for people to look at. */
async function screenshots(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
  await saveScreenshot(page, `${name}-1366`);
  if (size) await page.setViewportSize(size);
}

/** Pays the demo payment at `path` in the sandbox with the test card that answers `code`. */
async function payDemo(page: Page, path: string, code: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('dana@example.com');
  await page.getByRole('button', { name: 'המשך לתשלום' }).click();
  const frame = page.frameLocator(`iframe[title="${frameTitle}"]`);
  await frame.getByRole('radio', { name: new RegExp(`\\(${code}\\)`) }).check();
  await frame.getByRole('button', { name: 'תשלום' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/tranzila/'));
}

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

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** An adult's answers to the demo form (as e2e/desk-forms.e2e.ts sends them). */
const answers = {
  first_name: 'דנה',
  last_name: 'לוי',
  id_number: '039845128',
  birth_date: '15/05/1990',
  phone: '050-1234567',
  email: 'dana@example.com',
  gender: 'female',
  last_visit_date: '',
  has_allergies: false,
  allergies_details: '',
  takes_medication: false,
  blood_thinners: false,
  diabetes: false,
  heart_disease: false,
  smoking: 'never',
  consent: true,
  patient_signature: PNG,
};

describe('result pages say who and what, and lead on', () => {
  it('paid: the clinic, what for, the sum, when, the card, and the way back to the clinic', async () => {
    const path = await demoLinkPath(baseUrl, 'paymentUrl');
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await payDemo(page, path, '000');

    await heading(page, 'התשלום התקבל');
    const rows = await details(page);
    expect(rows.slice(0, 3)).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['סכום', '₪1,250.50'],
      ['תשלומים', 'תשלום אחד'],
    ]);
    // The date paid, said as a person says it: "יום …, 29 בנובמבר 2026, בשעה 10:05".
    expect(rows[3]?.[0]).toBe('תאריך התשלום');
    expect(rows[3]?.[1]).toMatch(/^יום \S+, \d{1,2} ב\S+ \d{4}, בשעה \d\d:\d\d$/);
    expect(await page.getByText(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/).count()).toBe(1);
    expect(rows[4]).toEqual(['כרטיס', 'מסתיים ב-1111']);
    await page.getByRole('img', { name: 'לוגו המרפאה' }).waitFor();
    // Paid: no phone to call, no try again; the clinic's page onward.
    expect(await page.getByRole('button').filter({ hasText: 'ניסיון נוסף' }).count()).toBe(0);
    await checkBothLanguages(
      page,
      'result-paid',
      { he: 'התשלום התקבל', en: 'Payment received' },
      { callable: false },
    );
    expect(await page.getByRole('link', { name: clinicPage.he }).getAttribute('href')).toBe(
      `/clinic/${clinic.id}`,
    );

    // The link again: already paid, with the same receipt.
    await page.goto(`${baseUrl}${path}`);
    await heading(page, 'הבקשה כבר שולמה');
    expect((await details(page)).slice(0, 2)).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['סכום', '₪1,250.50'],
    ]);
    await checkBothLanguages(
      page,
      'payment-already-paid',
      { he: 'הבקשה כבר שולמה', en: 'This request has already been paid' },
      { callable: false },
    );
    await context.close();
  }, 90_000);

  it('declined: the sum tried, what for and when, try again, and the clinic to call', async () => {
    const path = await demoLinkPath(baseUrl, 'paymentUrl');
    const { context, page } = await newPage(browser());
    await payDemo(page, path, '004');

    const failure = { he: 'שגיאה בתשלום: סירוב', en: 'Payment error: declined' };
    await heading(page, failure.he);
    const rows = await details(page);
    expect(rows.slice(0, 2)).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['סכום', '₪1,250.50'],
    ]);
    expect(rows[2]?.[0]).toBe('תאריך');
    expect(rows[2]?.[1]).toMatch(/^יום \S+, \d{1,2} ב\S+ \d{4}$/);
    await checkBothLanguages(page, 'result-declined', failure);

    await page.getByRole('button', { name: 'ניסיון נוסף' }).click();
    await page.waitForURL(`${baseUrl}${path}`);
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).waitFor();
    await context.close();
  }, 90_000);

  it('a form link already sent tells whoever opens it that it arrived, with the clinic to call', async () => {
    const path = await demoLinkPath(baseUrl, 'formUrl');
    const token = path.slice('/q/'.length);
    expect(await patientPost('/api/submit', { token, inputData: answers })).toBe(200);

    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);
    await page.waitForURL(`${baseUrl}/completed?clinic=${clinic.id}`);
    await page.getByText('הטופס נשלח בהצלחה למרפאה. תודה').waitFor();
    expect(await page.getByText('הקישור אינו תקף').count()).toBe(0);
    await checkBothLanguages(page, 'form-already-sent', { he: 'טופס נשלח', en: 'Form sent' });
    await context.close();
  }, 60_000);

  it('a cancelled payment link says so, with the clinic to call', async () => {
    const desk = await signedInDeskPage(browser(), demoFrontDesk);
    const created = await deskFetch<{ id: number; url: string }>(
      desk.page,
      '/api/integration/payment-requests',
      { method: 'POST', body: { amount: 80, purpose: 'צילום רנטגן' } },
    );
    expect(created.status).toBe(201);
    const cancelled = await deskFetch(
      desk.page,
      `/api/integration/payment-requests/${created.body.id}/cancel`,
      { method: 'POST', body: {} },
    );
    expect(cancelled.status).toBe(200);
    await desk.context.close();

    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${new URL(created.body.url).pathname}`);
    await page.waitForURL(`${baseUrl}/expired?clinic=${clinic.id}&ended=cancelled`);
    await page.getByText('המרפאה ביטלה את הקישור הזה. לשאלות, פנו למרפאה.').waitFor();
    expect(await page.title()).toBe('הקישור בוטל');
    // Loaded afresh, the page's HTML (built for every visitor) gives way to what this address says,
    // without React throwing the HTML away.
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.reload();
    await heading(page, 'הקישור בוטל');
    await page.getByRole('link', { name: call.he }).waitFor();
    expect(errors).toEqual([]);
    await checkBothLanguages(page, 'link-cancelled', {
      he: 'הקישור בוטל',
      en: 'This link was cancelled',
    });
    await context.close();
  }, 60_000);

  it('the landing page tells a patient how to reach their clinic', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/`);
    const patients = page.getByRole('region', { name: 'למטופלים' });
    await patients.getByRole('heading', { name: 'איך מגיעים לדף של המרפאה?' }).waitFor();
    await patients.getByText(/^המרפאה שולחת לכם קישור במסרון/).waitFor();
    await page.getByRole('link', { name: 'מנהלים מרפאה? מידע על מרפא למרפאות' }).waitFor();
    await checkBothLanguages(
      page,
      'landing',
      {
        he: 'מרפא – זימון תורים למרפאות שיניים',
        en: 'Marpe – appointment booking for dental clinics',
      },
      { callable: false },
    );
    await context.close();
  }, 60_000);
});
