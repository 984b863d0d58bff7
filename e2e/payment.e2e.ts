import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, newPage, switchLanguage, useBrowser } from './support/browser';
import { demoLinkPath } from './support/demo-links';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

const demoPaymentPath = () => demoLinkPath(baseUrl, 'paymentUrl');

interface Heading {
  he: string;
  en: string;
}

const requestHeading: Heading = { he: 'בקשת תשלום', en: 'Payment request' };
const frameTitle = 'טופס תשלום מאובטח';

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** Axe on the page as shown, then in English, then back in Hebrew. */
async function axeBothLanguages(page: Page, { he, en }: Heading): Promise<void> {
  await page.mouse.move(0, 0);
  await expectNoAxeViolations(page);
  await switchLanguage(page, 'en');
  await heading(page, en);
  await expectNoAxeViolations(page);
  await switchLanguage(page, 'he');
  await heading(page, he);
}

/** The sandbox card page inside the frame, once it has loaded. */
async function cardFrame(page: Page): Promise<FrameLocator> {
  await page.getByTitle(frameTitle).waitFor();
  const frame = page.frameLocator(`iframe[title="${frameTitle}"]`);
  await frame.getByRole('button', { name: 'תשלום' }).waitFor();
  return frame;
}

/** Pays in the sandbox with the test card that answers `code`. */
async function payWith(frame: FrameLocator, code: string): Promise<void> {
  await frame.getByRole('radio', { name: new RegExp(`\\(${code}\\)`) }).check();
  await frame.getByRole('button', { name: 'תשלום' }).click();
}

/** The result route at top level: the frame's return moved the whole window. */
async function waitForResult(page: Page): Promise<URL> {
  await page.waitForURL((url) => url.pathname.startsWith('/tranzila/'));
  const url = new URL(page.url());
  expect(url.searchParams.get('results')).toMatch(/Response=/);
  expect(await page.locator('iframe').count()).toBe(0);
  return url;
}

describe('payment request (/p/:token) and result (/tranzila/:token)', () => {
  it('pays in 3 payments with the approving card: success at top level, then the link is paid', async () => {
    const path = await demoPaymentPath();
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await page.goto(`${baseUrl}${path}`);

    await heading(page, requestHeading.he);
    await page.getByRole('img', { name: 'לוגו המרפאה' }).waitFor();
    expect(await page.getByText(/^₪[\d,]+(\.\d\d)?$/).count()).toBe(1);
    await axeBothLanguages(page, requestHeading);

    await page.getByRole('combobox', { name: 'מספר תשלומים' }).selectOption('3');
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('dana@example.com');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();

    // The form gives way to the frame, which carries the choices.
    const frame = await cardFrame(page);
    await frame.getByText(/^3 תשלומים: תשלום ראשון/).waitFor();
    expect(await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).count()).toBe(0);
    const src = new URL((await page.getByTitle(frameTitle).getAttribute('src')) ?? '');
    expect(src.searchParams.get('cred_type')).toBe('8');
    expect(src.searchParams.get('npay')).toBe('2');
    expect(src.searchParams.get('email')).toBe('dana@example.com');
    await axeBothLanguages(page, requestHeading);

    // Back returns to the form as it was; forward again.
    await page.getByRole('button', { name: 'חזרה לפרטי התשלום' }).click();
    expect(await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).inputValue()).toBe(
      'dana@example.com',
    );
    expect(await page.getByRole('combobox', { name: 'מספר תשלומים' }).inputValue()).toBe('3');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();

    await payWith(await cardFrame(page), '000');
    const result = await waitForResult(page);
    expect(result.pathname).toBe(path.replace(/^\/p\//, '/tranzila/'));
    await heading(page, 'תשלום התקבל');
    await page.getByText('תודה!').waitFor();
    await axeBothLanguages(page, { he: 'תשלום התקבל', en: 'Payment received' });

    // Loaded again, the confirmed result is the server's HTML: the app's code is not fetched.
    await page.reload();
    await heading(page, 'תשלום התקבל');
    await page.waitForLoadState('networkidle');
    const appCode = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/index-[\w-]+\.js$/.test(entry.name)).length,
    );
    expect(appCode).toBe(0);

    // The provider's notify reached the server first: the link now says it was paid.
    await page.goto(`${baseUrl}${path}`);
    await heading(page, 'הבקשה כבר שולמה');
    await axeBothLanguages(page, {
      he: 'הבקשה כבר שולמה',
      en: 'This request has already been paid',
    });
    await context.close();
    // Eight axe runs on a 2-core machine.
  }, 60_000);

  it('a declined card shows the error with its Hebrew description; try again returns to the form', async () => {
    const path = await demoPaymentPath();
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);

    await heading(page, requestHeading.he);
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('dana@example.com');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();
    await payWith(await cardFrame(page), '033');

    await waitForResult(page);
    const failure = { he: 'שגיאה בתשלום: כרטיס פגום', en: 'Payment error: כרטיס פגום' };
    await heading(page, failure.he);
    await axeBothLanguages(page, failure);

    await page.getByRole('button', { name: 'ניסיון נוסף' }).click();
    await page.waitForURL(`${baseUrl}${path}`);
    await heading(page, requestHeading.he);
    // Still unpaid: the form again, ready for another card.
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).waitFor();
    await context.close();
  });

  it('a bad email marks the field and shows no frame', async () => {
    const path = await demoPaymentPath();
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);

    await heading(page, requestHeading.he);
    const email = page.getByRole('textbox', { name: 'דוא״ל לקבלה' });
    await email.fill('dana@');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();

    await page.getByText('כתובת הדוא״ל אינה תקינה').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('iframe').count()).toBe(0);
    await axeBothLanguages(page, requestHeading);
    await context.close();
  });

  it('an unknown link goes to the expired page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/p/not-a-real-token`);
    await page.waitForURL(`${baseUrl}/expired`);
    await heading(page, 'הקישור אינו תקף');
    await context.close();
  });
});
