// Over 400 lines: its journeys share one browser and the suite's signed-in desk; a file's set-up is
// a browser launch.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  newPage,
  saveScreenshot,
  switchLanguage,
  useBrowser,
  type Viewport,
} from './support/browser';
import { demoLinkPath } from './support/demo-links';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

const demoFormPath = () => demoLinkPath(baseUrl, 'formUrl');

async function stepHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** Axe on the step as shown, then in English, then back in Hebrew. */
async function axeBothLanguages(page: Page, heading: string): Promise<void> {
  await page.mouse.move(0, 0);
  await expectNoAxeViolations(page);
  await switchLanguage(page, 'en');
  await stepHeading(page, heading);
  await expectNoAxeViolations(page);
  await switchLanguage(page, 'he');
  await stepHeading(page, heading);
}

/** One stroke across the pad, from (x1, y1) to (x2, y2) as fractions of its box. */
async function drawStroke(page: Page, pad: Locator, from: [number, number], to: [number, number]) {
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad is not on screen');
  const at = ([x, y]: [number, number]) => [box.x + box.width * x, box.y + box.height * y] as const;
  const [x1, y1] = at(from);
  const [x2, y2] = at(to);
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(x1 + ((x2 - x1) * i) / 12, y1 + ((y2 - y1) * i) / 12 + Math.sin(i) * 10);
  }
  await page.mouse.up();
}

/** The demo form's first step with `is_ltr` set: the same Hebrew fields, laid out left to right. */
async function routeAsLeftToRight(page: Page, path: string): Promise<void> {
  // The page the server sends when it cannot render the form with its data (an unknown link's):
  // the app then asks for the form itself.
  await page.route(`${baseUrl}${path}`, async (route) => {
    await route.fulfill({
      response: await route.fetch({ url: `${baseUrl}/q/not-a-real-token` }),
    });
  });
  await page.route('**/api/get-form', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      data: { schema: { is_ltr?: boolean; title: string }[] };
    };
    const [first] = body.data.schema;
    if (first) Object.assign(first, { is_ltr: true, title: 'Personal details' });
    await route.fulfill({ response, json: body });
  });
}

interface FieldLayout {
  label: string;
  kind: string;
  direction: string;
  overlaps: boolean;
}

/**
 * Each text field's and select's label against the box its text is drawn in (the control's
 * content box: placeholder, value or chosen option), for every field where something shows.
 */
function fieldLayouts(page: Page): Promise<FieldLayout[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.MuiTextField-root')].flatMap((root) => {
      const label = root.querySelector('label');
      const control = root.querySelector<HTMLInputElement | HTMLSelectElement>('input, select');
      if (!label || !control) return [];
      const shows = control instanceof HTMLSelectElement || control.placeholder || control.value;
      if (!shows) return [];
      const box = control.getBoundingClientRect();
      const style = getComputedStyle(control);
      const px = (value: string) => parseFloat(value) || 0;
      const text = {
        left: box.left + px(style.borderLeftWidth) + px(style.paddingLeft),
        right: box.right - px(style.borderRightWidth) - px(style.paddingRight),
        top: box.top + px(style.borderTopWidth) + px(style.paddingTop),
        bottom: box.bottom - px(style.borderBottomWidth) - px(style.paddingBottom),
      };
      const l = label.getBoundingClientRect();
      return [
        {
          label: label.textContent ?? '',
          kind:
            control instanceof HTMLSelectElement
              ? 'select'
              : `${control.type}${control.placeholder ? ` placeholder ${control.placeholder}` : ''}`,
          // The field's, not the control's: an email address reads left to right in any form.
          direction: getComputedStyle(root).direction,
          overlaps:
            l.left < text.right &&
            l.right > text.left &&
            l.top < text.bottom &&
            l.bottom > text.top,
        },
      ];
    }),
  );
}

describe('intake form (/q/:token)', () => {
  it('a patient fills the demo form, survives a reload, finishes on another device, signs, submits; the link then expires', async () => {
    const path = await demoFormPath();
    const first = await newPage(browser(), { viewport: 'desktop' });
    let page = first.page;
    await page.goto(`${baseUrl}${path}`);

    // Step 1: placeholders resolved, required fields marked, validation messages.
    await stepHeading(page, 'פרטים אישיים');
    await page.getByRole('heading', { name: 'שלום דנה,' }).waitFor();
    await axeBothLanguages(page, 'פרטים אישיים');
    expect(await page.getByRole('textbox', { name: 'שם פרטי' }).inputValue()).toBe('דנה');
    await page.getByRole('button', { name: 'המשך' }).click();
    const summary = page.getByRole('alert');
    await summary.waitFor();
    expect(await summary.getByRole('link').allTextContents()).toEqual([
      'תעודת זהות',
      'תאריך לידה',
      'טלפון נייד',
      'מין',
    ]);
    await axeBothLanguages(page, 'פרטים אישיים');

    await page.getByRole('textbox', { name: 'תעודת זהות' }).fill('12345');
    // Dates show as DD.MM.YYYY (docs/formats.md) however they are typed: digits alone, the
    // older slashes or the dots themselves.
    const birthDate = page.getByRole('textbox', { name: 'תאריך לידה' });
    expect(await birthDate.getAttribute('placeholder')).toBe('יום.חודש.שנה');
    for (const typed of ['01011990', '01/01/1990', '01.01.1990']) {
      await birthDate.fill(typed);
      expect(await birthDate.inputValue(), typed).toBe('01.01.1990');
    }
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
    await page.getByRole('textbox', { name: 'דואר אלקטרוני' }).fill('dana@');
    await page.getByRole('combobox', { name: 'מין' }).selectOption('female');
    await page.getByRole('button', { name: 'המשך' }).click();
    await page.getByText('מספר תעודת הזהות אינו תקין').waitFor();
    await page.getByText('כתובת הדוא״ל אינה תקינה').waitFor();
    await page.getByRole('textbox', { name: 'תעודת זהות' }).fill('123456782');
    await page.getByRole('textbox', { name: 'דואר אלקטרוני' }).fill('dana@example.com');
    await page.getByRole('button', { name: 'המשך' }).click();

    // Step 2: a checkbox reveals a required field and hides it again.
    await stepHeading(page, 'היסטוריה רפואית');
    const details = page.getByRole('textbox', { name: 'פירוט האלרגיות' });
    expect(await details.count()).toBe(0);
    const allergies = page.getByRole('checkbox', { name: /רגישות או אלרגיה/ });
    await allergies.check();
    await details.fill('פניצילין');
    await allergies.uncheck();
    await details.waitFor({ state: 'detached' });
    await allergies.check();
    expect(await details.inputValue()).toBe('');
    await details.fill('לטקס');
    await page.getByRole('combobox', { name: 'עישון' }).selectOption('never');
    await axeBothLanguages(page, 'היסטוריה רפואית');

    // Saved on the server once typing pauses: a reload comes back to the same step and answers.
    await page.getByText('התשובות נשמרו', { exact: false }).waitFor();
    await page.reload();
    await stepHeading(page, 'היסטוריה רפואית');
    expect(await page.getByRole('textbox', { name: 'פירוט האלרגיות' }).inputValue()).toBe('לטקס');
    expect(await page.getByRole('combobox', { name: 'עישון' }).inputValue()).toBe('never');

    // Another device (a fresh browser context) opens the same link and finishes the form.
    const second = await newPage(browser(), { viewport: 'desktop' });
    page = second.page;
    await page.goto(`${baseUrl}${path}`);
    await stepHeading(page, 'היסטוריה רפואית');
    expect(await page.getByRole('textbox', { name: 'פירוט האלרגיות' }).inputValue()).toBe('לטקס');
    await page.getByRole('button', { name: 'חזרה' }).click();
    await stepHeading(page, 'פרטים אישיים');
    expect(await page.getByRole('textbox', { name: 'תעודת זהות' }).inputValue()).toBe('123456782');
    await page.getByRole('button', { name: 'המשך' }).click();
    await stepHeading(page, 'היסטוריה רפואית');
    await page.getByRole('button', { name: 'המשך' }).click();

    // Step 3: an adult signs (birth_date:age>18); the guardian's fields stay hidden.
    await stepHeading(page, 'הצהרה וחתימה');
    expect(await page.getByRole('textbox', { name: 'שם ההורה או האפוטרופוס' }).count()).toBe(0);
    await page.getByRole('button', { name: 'שליחה' }).click();
    await page.getByRole('alert').waitFor();
    await axeBothLanguages(page, 'הצהרה וחתימה');

    await page.getByRole('checkbox', { name: 'קראתי ואני מאשר/ת את ההצהרה' }).check();
    const group = page.getByRole('group', { name: 'חתימת המטופל/ת' });
    const pad = group.locator('canvas');
    await pad.scrollIntoViewIfNeeded();
    expect(await pad.getAttribute('aria-label')).toMatch(/ריק/);
    await drawStroke(page, pad, [0.2, 0.5], [0.5, 0.4]);
    await drawStroke(page, pad, [0.5, 0.6], [0.8, 0.5]);
    expect(await pad.getAttribute('aria-label')).toBe('משטח חתימה, חתום');
    const undo = group.getByRole('button', { name: 'ביטול הקו האחרון' });
    await undo.click();
    expect(await pad.getAttribute('aria-label')).toBe('משטח חתימה, חתום');
    await undo.click();
    await page.waitForFunction(
      () => document.querySelector('canvas')?.getAttribute('aria-label')?.includes('ריק') ?? false,
    );
    // Without a pointer: a typed name becomes the signature image; clear empties the pad.
    await group.getByRole('button', { name: 'הקלדת שם במקום ציור' }).click();
    await group.getByRole('textbox', { name: 'שם מלא לחתימה' }).fill('דנה לוי');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('canvas')?.getAttribute('aria-label') === 'משטח חתימה, חתום',
    );
    await group.getByRole('button', { name: 'ניקוי' }).click();
    expect(await pad.getAttribute('aria-label')).toMatch(/ריק/);
    // The empty pad says where to sign, on it and in its description.
    await group.getByText('חתמו כאן').waitFor();
    expect(await pad.getAttribute('aria-describedby')).toBeTruthy();
    // Locked, the pad ignores the pointer; unlocked, it draws again. The button says which.
    await group.getByRole('button', { name: 'נעילת החתימה מפני שינויים' }).click();
    await drawStroke(page, pad, [0.2, 0.5], [0.8, 0.5]);
    expect(await pad.getAttribute('aria-label')).toMatch(/ריק/);
    await group.getByRole('button', { name: 'ביטול הנעילה לשינוי החתימה' }).click();
    await drawStroke(page, pad, [0.2, 0.5], [0.8, 0.5]);
    expect(await pad.getAttribute('aria-label')).toBe('משטח חתימה, חתום');
    // A narrower window redraws the signature at the new size.
    await page.setViewportSize({ width: 700, height: 800 });
    await page.waitForFunction(() => {
      const canvas = document.querySelector('canvas');
      if (!canvas || canvas.width > 700 * devicePixelRatio) return false;
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      return pixels?.some((value, i) => i % 4 === 3 && value > 0) ?? false;
    });
    await page.getByText('התשובות נשמרו', { exact: false }).waitFor();
    await axeBothLanguages(page, 'הצהרה וחתימה');

    await page.getByRole('button', { name: 'שליחה' }).click();
    // The completed page names the clinic that sent the link, with a tap-to-call button.
    await page.waitForURL(`${baseUrl}/completed?clinic=1`);
    await page.getByRole('heading', { level: 1, name: 'טופס נשלח' }).waitFor();
    await page.getByRole('link', { name: /^התקשרו למרפאה/ }).waitFor();

    // Neither device keeps any of the answers or the signature.
    for (const { page: device } of [first, second]) {
      const kept = await device.evaluate(() =>
        JSON.stringify({ ...localStorage, ...sessionStorage }),
      );
      for (const answer of ['לטקס', '123456782', 'dana@example.com', 'data:image']) {
        expect(kept).not.toContain(answer);
      }
    }

    // The same link again, on either device: sent, and said so (not "invalid"), with the clinic.
    for (const { page: device } of [first, second]) {
      await device.goto(`${baseUrl}${path}`);
      await device.waitForURL(`${baseUrl}/completed?clinic=1`);
      await device.getByRole('heading', { level: 1, name: 'טופס נשלח' }).waitFor();
    }
    await first.context.close();
    await second.context.close();
  }, 90_000);

  it("in English, a patient fills the clinic's Hebrew form with English buttons, counter, messages and signature controls", async () => {
    const path = await demoFormPath();
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await page.goto(`${baseUrl}${path}`);
    await stepHeading(page, 'פרטים אישיים');
    // The page is built in Hebrew; English is the app's, once it has started (on a loaded
    // machine, a moment after the clinic's heading shows).
    const counter = page.getByText('Step 1 of 3', { exact: true });
    await counter.waitFor();
    // The clinic's questions stay Hebrew, right to left and named as Hebrew; ours are English.
    const form = page.locator('form');
    expect(await form.evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('he');
    expect(await counter.getAttribute('lang')).toBe('en');
    expect(await counter.getAttribute('dir')).toBe('ltr');
    expect(await page.getByRole('button', { name: 'המשך' }).count()).toBe(0);
    const birthDate = page.getByRole('textbox', { name: 'תאריך לידה' });
    expect(await birthDate.getAttribute('placeholder')).toBe('DD.MM.YYYY');
    await page.mouse.move(0, 0);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Next' }).click();
    const summary = page.getByRole('alert');
    await summary.getByText('Please correct these fields:', { exact: true }).waitFor();
    expect(
      await page.getByRole('textbox', { name: 'תעודת זהות' }).getAttribute('aria-invalid'),
    ).toBe('true');
    await page.getByText('Required field').first().waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('textbox', { name: 'תעודת זהות' }).fill('123456782');
    await birthDate.fill('01/01/1990');
    expect(await birthDate.inputValue()).toBe('01.01.1990');
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill('0501234567');
    const gender = page.getByRole('combobox', { name: 'מין' });
    expect(await gender.locator('option[value=""]').textContent()).toBe('Choose');
    await gender.selectOption('female');
    await page.getByRole('button', { name: 'Next' }).click();

    await stepHeading(page, 'היסטוריה רפואית');
    await page.getByText('Step 2 of 3', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'עישון' }).selectOption('never');
    await page.getByText('Your answers are saved.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Back' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Next' }).click();

    await stepHeading(page, 'הצהרה וחתימה');
    await page.getByRole('checkbox', { name: 'קראתי ואני מאשר/ת את ההצהרה' }).check();
    const group = page.getByRole('group', { name: 'חתימת המטופל/ת' });
    await group.getByText('Sign here', { exact: true }).waitFor();
    await group.getByRole('button', { name: 'Type a name instead of drawing' }).click();
    await group.getByRole('textbox', { name: 'Full name to sign with' }).fill('Dana Levi');
    await group.getByRole('button', { name: 'Add signature' }).click();
    await group.getByRole('img', { name: 'Signature pad, signed' }).waitFor();
    await group.getByRole('button', { name: 'Clear' }).waitFor();
    await expectNoAxeViolations(page);
    // Back in Hebrew, the clinic's own button labels return.
    await switchLanguage(page, 'he');
    await page.getByRole('button', { name: 'שליחה' }).waitFor();
    await page.mouse.move(0, 0);
    await expectNoAxeViolations(page);
    await switchLanguage(page, 'en');
    await page.getByText('Your answers are saved.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Send form' }).click();
    await page.waitForURL(`${baseUrl}/completed?clinic=1`);
    await page.getByRole('heading', { level: 1, name: 'Form sent' }).waitFor();
    await context.close();
  }, 90_000);

  it('answers typed just before a reload are all there after it, even when the save sent on leaving never lands', async () => {
    const path = await demoFormPath();
    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await page.goto(`${baseUrl}${path}`);
    await stepHeading(page, 'פרטים אישיים');
    const answers: [string, string][] = [
      ['שם משפחה', 'כהן'],
      ['תעודת זהות', '123456782'],
      ['תאריך לידה', '01.01.1990'],
      ['טלפון נייד', '050-1234567'],
      ['דואר אלקטרוני', 'dana@example.com'],
    ];
    // The worst case of the race: the server renders the reloaded page before the save sent as
    // the page left has landed, here never (the tab's own copy is what brings the answers back).
    await context.route('**/api/save-form-draft', (route) => route.abort());
    for (const [name, value] of answers) {
      await page.getByRole('textbox', { name }).fill(value);
    }
    await page.getByRole('combobox', { name: 'מין' }).selectOption('female');
    // At once: well inside the save delay after the last keystroke.
    await page.reload();
    await stepHeading(page, 'פרטים אישיים');
    await context.unroute('**/api/save-form-draft');
    const expectAnswers = async (device: typeof page) => {
      for (const [name, value] of answers) {
        await expect
          .poll(() => device.getByRole('textbox', { name }).inputValue(), { message: name })
          .toBe(value);
      }
      expect(await device.getByRole('combobox', { name: 'מין' }).inputValue()).toBe('female');
    };
    await expectAnswers(page);
    // And sent again from there: another device finds them on the server.
    await page.getByText('התשובות נשמרו', { exact: false }).waitFor();
    const other = await newPage(browser(), { viewport: 'desktop' });
    await other.page.goto(`${baseUrl}${path}`);
    await stepHeading(other.page, 'פרטים אישיים');
    await expectAnswers(other.page);
    await other.context.close();
    await context.close();
  });

  it("every label on the first step reads clear of the field's placeholder or value, right to left and left to right", async () => {
    const path = await demoFormPath();
    const cases = (['he', 'en'] as const).flatMap((lang) =>
      (['mobile', 'desktop'] as const satisfies readonly Viewport[]).flatMap((viewport) =>
        [false, true].map((ltr) => ({ lang, viewport, ltr })),
      ),
    );
    for (const { lang, viewport, ltr } of cases) {
      const { context, page } = await newPage(browser(), { viewport, lang });
      if (ltr) await routeAsLeftToRight(page, path);
      await page.goto(`${baseUrl}${path}`);
      await stepHeading(page, ltr ? 'Personal details' : 'פרטים אישיים');
      // The date's hint is the app's, in the page's language once it has started.
      await page.getByPlaceholder(lang === 'he' ? 'יום.חודש.שנה' : 'DD.MM.YYYY').waitFor();
      await page.evaluate(() =>
        Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      );
      const fields = await fieldLayouts(page);
      const where = `${lang} ${viewport} ${ltr ? 'ltr' : 'rtl'}`;
      // Filled text, masked date and phone, ID and email placeholders, and the select.
      expect(fields.map((f) => f.kind).sort(), where).toEqual([
        'email placeholder name@example.com',
        'select',
        'text',
        'text',
        'text placeholder 050-1234567',
        'text placeholder 9 ספרות',
        // The date's hint in the page's language, in the app's one date format.
        `text placeholder ${lang === 'he' ? 'יום.חודש.שנה' : 'DD.MM.YYYY'}`,
      ]);
      expect(new Set(fields.map((f) => f.direction)), where).toEqual(
        new Set([ltr ? 'ltr' : 'rtl']),
      );
      expect(
        fields.filter((f) => f.overlaps),
        where,
      ).toEqual([]);
      if (!ltr) {
        const name = `form-step1-${viewport === 'mobile' ? 'phone' : 'desktop'}-${lang}`;
        await saveScreenshot(page, name);
      }
      await context.close();
    }
  }, 60_000);

  it('a form whose first step has is_ltr reads left to right', async () => {
    const path = await demoFormPath();
    const { context, page } = await newPage(browser());
    // The demo form is Hebrew; the same form with is_ltr on its first step.
    await routeAsLeftToRight(page, path);
    await page.goto(`${baseUrl}${path}`);
    await stepHeading(page, 'Personal details');
    const dir = await page
      .getByRole('heading', { level: 1, name: 'Personal details' })
      .evaluate((el) => el.closest('[dir]')?.getAttribute('dir'));
    expect(dir).toBe('ltr');
    const align = await page
      .getByRole('textbox', { name: 'שם פרטי' })
      .evaluate((el) => getComputedStyle(el).direction);
    expect(align).toBe('ltr');
    await expectNoAxeViolations(page);
    await context.close();
  });

  it('an unknown link goes to the expired page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl}/q/not-a-real-token`);
    await page.waitForURL(`${baseUrl}/expired`);
    await page.getByRole('heading', { level: 1, name: 'הקישור אינו תקף' }).waitFor();
    await context.close();
  });
});
