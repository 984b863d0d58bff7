import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  newPage,
  saveScreenshot,
  switchLanguage,
  useBrowser,
} from './support/browser';
import { demoLinkPath } from './support/demo-links';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
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

/** The demo clinic, which asks for the demo payment. */
const demoClinicName = 'מרפאת שיניים לב העיר';

/** The terms and definitions of the description list that holds `term`, in order. */
async function details(page: Page, term: string): Promise<string[][]> {
  const list = page.locator('dl', { has: page.getByText(term, { exact: true }) });
  return list.evaluate((dl) =>
    [...dl.querySelectorAll('dt')].map((dt) => [
      dt.textContent ?? '',
      dt.nextElementSibling?.textContent ?? '',
    ]),
  );
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
    // Who asks, what for and for whom; the clinic's own description never shows.
    await page.getByText(demoClinicName, { exact: true }).waitFor();
    expect(await details(page, 'עבור')).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['שם המטופל/ת', 'דנה לוי'],
      ['סכום לתשלום', '₪1,250.50'],
    ]);
    expect(await page.getByText('טיפול שיניים (הדגמה)').count()).toBe(0);
    // On whose page the card is typed (the demo's sandbox, said plainly), and the legal pages.
    await page.getByText(/^זהו דף הדגמה: .*אף כרטיס אינו מחויב\.$/).waitFor();
    // The page's footer opens them in a new tab: leaving would lose the form or the frame.
    const legal = page.getByRole('contentinfo');
    expect(await legal.getByRole('link').allTextContents()).toEqual([
      'מדיניות פרטיות (נפתח בכרטיסייה חדשה)',
      'תנאי שימוש (נפתח בכרטיסייה חדשה)',
      'הצהרת נגישות (נפתח בכרטיסייה חדשה)',
    ]);
    await axeBothLanguages(page, requestHeading);

    await page.getByRole('combobox', { name: 'מספר תשלומים' }).selectOption('3');
    // The split before the frame opens (docs/product/payments.md#instalments).
    await page.getByText('3 תשלומים: הראשון ₪416.84, ואחריו 2 × ₪416.83').waitFor();
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
    // The confirmed charge, as the server verified it with the (sandbox) provider's API.
    // Looked up by term: the result page may add rows (what for, when) around these.
    const paid = Object.fromEntries(await details(page, 'סכום'));
    expect(paid).toMatchObject({
      סכום: '₪1,250.50',
      תשלומים: '3 תשלומים: הראשון ₪416.84, ואחריו 2 × ₪416.83',
      כרטיס: 'מסתיים ב-1111',
      'הקבלה תישלח אל': 'dana@example.com',
    });
    expect(paid['מספר אישור']).toMatch(/^\d{4,}$/);
    await saveScreenshot(page, 'payment-result-success-desktop-he');
    await axeBothLanguages(page, { he: 'תשלום התקבל', en: 'Payment received' });
    await switchLanguage(page, 'en');
    await heading(page, 'Payment received');
    expect(Object.fromEntries(await details(page, 'Amount'))).toMatchObject({
      Payments: '3 payments: first ₪416.84, then 2 × ₪416.83',
      Card: 'ending in 1111',
    });
    await saveScreenshot(page, 'payment-result-success-desktop-en');
    await switchLanguage(page, 'he');
    await heading(page, 'תשלום התקבל');

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

  it('on a phone the card frame holds its whole page; a declined card says what to do, in both languages', async () => {
    const path = await demoPaymentPath();
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}${path}`);

    await heading(page, requestHeading.he);
    await saveScreenshot(page, 'payment-phone-he');
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('dana@example.com');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();
    const frame = await cardFrame(page);

    // At 390×844 the frame is as tall as its page: nothing scrolls inside it, and the pay button
    // is reached by scrolling the page itself.
    const inner = await page.frame({ url: /iframenew\.php/ })?.evaluate(() => ({
      scrollable: (document.scrollingElement?.scrollHeight ?? 0) - window.innerHeight,
      width: window.innerWidth,
    }));
    expect(inner?.scrollable).toBeLessThanOrEqual(0);
    expect(inner?.width).toBeLessThanOrEqual(390);
    const pay = frame.getByRole('button', { name: 'תשלום' });
    await pay.scrollIntoViewIfNeeded();
    const box = await pay.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 844).toBe(true);

    await payWith(frame, '033');
    await waitForResult(page);
    // The failure line of docs/product/payments.md#result, then what to do; the description
    // translated on the English page.
    const failure = { he: 'שגיאה בתשלום: כרטיס פגום', en: 'Payment error: faulty card' };
    await heading(page, failure.he);
    await page.getByText('בדקו את פרטי הכרטיס ונסו שוב, או נסו כרטיס אחר.').waitFor();
    await saveScreenshot(page, 'payment-result-failure-phone-he');
    await axeBothLanguages(page, failure);

    await page.getByRole('button', { name: 'ניסיון נוסף' }).click();
    await page.waitForURL(`${baseUrl}${path}`);
    await heading(page, requestHeading.he);
    // Still unpaid: the form again, ready for another card.
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).waitFor();
    await context.close();
  });

  it('one money format: ₪ first, "2 × ₪416.83" on one line on a narrow phone, the card page too', async () => {
    const path = await demoPaymentPath();
    const { context, page } = await newPage(browser());
    // The narrowest phones still in use: where a line would break first.
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${baseUrl}${path}`);
    await heading(page, requestHeading.he);

    await page.getByRole('combobox', { name: 'מספר תשלומים' }).selectOption('3');
    // The lines a run of text takes: its boxes' distinct tops (in Hebrew one line holds several
    // boxes, one per direction run).
    const lines = (text: string) =>
      page
        .getByText(text, { exact: true })
        .evaluate((el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size);
    expect(await lines('ואחריו 2 × ₪416.83')).toBe(1);
    await page.getByRole('textbox', { name: 'דוא״ל לקבלה' }).fill('dana@example.com');
    await page.getByRole('button', { name: 'המשך לתשלום' }).click();
    const frame = await cardFrame(page);

    // Above the frame the split is a definition of its own: a screen reader no longer runs the
    // sum into it ("₪1,250.50 3 תשלומים").
    const amount = page.locator('dl', { has: page.getByText('סכום לתשלום', { exact: true }) });
    expect(await amount.getByRole('definition').allInnerTexts()).toEqual(
      expect.arrayContaining(['₪1,250.50', '3 תשלומים: הראשון ₪416.84, ואחריו 2 × ₪416.83']),
    );
    expect(await lines('ואחריו 2 × ₪416.83')).toBe(1);
    // The demo card page writes sums as our pages do, and never breaks one.
    for (const sum of ['₪1,250.50', '₪416.84', '₪416.83']) {
      const run = frame.getByText(sum, { exact: true });
      expect(await run.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
    }
    expect(await frame.locator('body').innerText()).not.toMatch(/\d\s*₪/);
    await saveScreenshot(page, 'payment-frame-320-he');
    await axeBothLanguages(page, requestHeading);

    await switchLanguage(page, 'en');
    await heading(page, requestHeading.en);
    expect(await lines('then 2 × ₪416.83')).toBe(1);
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
