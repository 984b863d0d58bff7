import type { Closure, SetupChecklist } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, demoOwner, signedInDeskPage } from './support/desk';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** The step pages this suite covers (the others are another part of the desk). */
const stepPages = ['profile', 'hours', 'closures', 'rules', 'reminders'] as const;

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

/** Saves the form, and waits for the snackbar saying it saved and marked the step. */
async function saveAndMark(page: Page, lang: 'he' | 'en' = 'he') {
  // The last step's notice may still be on screen: wait for this step's mark to be answered.
  const marked = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && /\/api\/integration\/setup\/steps\//.test(r.url()),
  );
  await page.getByRole('button', { name: lang === 'he' ? 'שמירה' : 'Save' }).click();
  expect((await marked).ok()).toBe(true);
  await page
    .getByText(lang === 'he' ? 'נשמר, והשלב סומן כבוצע' : 'Saved, and the step is marked as done')
    .waitFor();
}

// Many axe runs a test, on a machine the whole suite shares: minutes, not the default 30 s.
describe('the desk: the owner’s set-up checklist', () => {
  it('shows the checklist with its progress, readiness and the clinic page; he and en', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    // The demo clinic takes bookings: its owner lands where they work, set-up one click away.
    await page.goto(`${baseUrl}/desk/`);
    await page.waitForURL((url) => url.pathname !== '/desk/');
    const nav = page.getByRole('navigation', { name: 'ניווט ראשי' });
    await nav.getByRole('link', { name: 'הגדרת המרפאה' }).click();
    await h1(page, 'הגדרת המרפאה');
    await page.getByText(/הושלמו \d מתוך 9 שלבים/).waitFor();
    await page.getByText('המרפאה מוכנה למטופלים').waitFor();
    const clinicPage = page.getByRole('link', {
      name: 'עמוד המרפאה כפי שמטופלים רואים אותו (נפתח בכרטיסייה חדשה)',
    });
    expect(await clinicPage.getAttribute('href')).toMatch(/^\/clinic\/1\/.+/);
    expect(await clinicPage.getAttribute('target')).toBe('_blank');
    const steps = page.getByRole('list', { name: 'שלבי ההגדרה' }).getByRole('listitem');
    expect(await steps.count()).toBe(9);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-setup');

    await page.getByRole('button', { name: 'English' }).click();
    await h1(page, 'Clinic set-up');
    await page.getByText('The clinic is ready for patients').waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'עברית' }).click();
    await h1(page, 'הגדרת המרפאה');
    await context.close();
  }, 240_000);

  it('the owner walks profile, hours, closures, rules and reminders, each checked at its fields', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    await page.goto(`${baseUrl}/desk/setup`);
    await h1(page, 'הגדרת המרפאה');

    // Profile: a field left empty is said at the field, before any call; then saved as it was.
    await page.getByRole('link', { name: 'פתיחה פרטי המרפאה' }).click();
    await h1(page, 'פרטי המרפאה');
    await page.getByText('שלב 1 מתוך 9').waitFor();
    const name = page.getByRole('textbox', { name: 'שם המרפאה' });
    const clinicName = await name.inputValue();
    await name.fill('');
    await page.getByRole('button', { name: 'שמירה' }).click();
    await page.getByText('שדה חובה').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    await name.fill(clinicName);
    await saveAndMark(page);

    // Hours: an end before the start is refused at that day's field.
    await page.getByRole('link', { name: 'לשלב הבא: שעות פתיחה' }).click();
    await h1(page, 'שעות פתיחה');
    await expectNoAxeViolations(page);
    const sunday = page.getByRole('group', { name: 'ראשון' });
    const sundayOpen = sunday.getByLabel('פתוח ביום ראשון');
    const wasOpen = await sundayOpen.isChecked();
    if (!wasOpen) await sundayOpen.check();
    const sundayEnd = page.getByLabel('עד שעה ביום ראשון');
    const end = await sundayEnd.inputValue();
    await sundayEnd.fill('00:30');
    await page.getByRole('button', { name: 'שמירה' }).click();
    await page.getByText('שעת הסיום חייבת להיות אחרי שעת ההתחלה').waitFor();
    await expectNoAxeViolations(page);
    await sundayEnd.fill(end);
    if (!wasOpen) await sundayOpen.uncheck();
    await saveAndMark(page);

    // Closures: a date is closed and opened again (a destructive step asks first).
    await page.getByRole('link', { name: 'לשלב הבא: ימי סגירה וחגים' }).click();
    await h1(page, 'ימי סגירה וחגים');
    await page.getByRole('heading', { name: 'חגים', exact: true }).waitFor();
    await page.getByRole('group', { name: /^חגי שנת \d{4}$/ }).waitFor();
    await expectNoAxeViolations(page);
    const date = `${new Date().getFullYear() + 1}-12-30`;
    await page.getByRole('textbox', { name: 'תאריך' }).fill(date);
    await page.getByRole('textbox', { name: 'הערה' }).fill('ספירת מלאי');
    await page.getByRole('button', { name: 'הוספת יום סגירה' }).click();
    await page.getByText('ספירת מלאי').waitFor();
    // The same date twice is said at the field.
    await page.getByRole('textbox', { name: 'תאריך' }).fill(date);
    await page.getByRole('button', { name: 'הוספת יום סגירה' }).click();
    await page.getByText('המרפאה כבר סגורה בתאריך הזה').waitFor();
    await expectNoAxeViolations(page);
    const closures = await deskFetch<Closure[]>(page, '/api/integration/closures');
    expect(closures.body.map((c) => [c.date, c.note])).toContainEqual([date, 'ספירת מלאי']);
    await page.getByRole('button', { name: /^פתיחת היום מחדש .*30/ }).click();
    const dialog = page.getByRole('dialog');
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'פתיחת היום מחדש' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('אין ימי סגירה מתוכננים.').waitFor();
    await page.getByRole('button', { name: 'סימון השלב כבוצע' }).click();
    await page.getByText('השלב סומן כבוצע').first().waitFor();

    // Rules: the form speaks in hours and days and says each field's range.
    await page.goto(`${baseUrl}/desk/setup/rules`);
    await h1(page, 'כללי הזמנת תורים');
    await page.getByText('תור אחד ביום לכל מטופל: תמיד פעיל').waitFor();
    const allDay = page.getByRole('switch', {
      name: 'ימי חופשה ואירועים של יום שלם ביומן חוסמים תורים',
    });
    expect(await allDay.isChecked()).toBe(true);
    await expectNoAxeViolations(page);
    const horizon = page.getByRole('textbox', { name: 'כמה ימים קדימה אפשר לקבוע' });
    const days = await horizon.inputValue();
    await horizon.fill('0');
    await page.getByRole('button', { name: 'שמירה' }).click();
    await page.getByText('בין 1 ל-365 ימים').waitFor();
    await expectNoAxeViolations(page);
    await horizon.fill(days);
    await saveAndMark(page);

    // Reminders: a lead time out of range is said at its field; removed, the rest save.
    await page.getByRole('link', { name: 'לשלב הבא: תזכורות ושעות שקטות' }).click();
    await h1(page, 'תזכורות ושעות שקטות');
    await expectNoAxeViolations(page);
    const leads = await page.getByRole('group', { name: /^תזכורת \d$/ }).count();
    if (leads < 3) {
      await page.getByRole('button', { name: 'הוספת תזכורת' }).click();
      const amount = page.getByRole('textbox', {
        name: `כמה זמן לפני התור (תזכורת ${leads + 1})`,
      });
      await amount.fill('10');
      await page.getByRole('combobox', { name: `יחידה (תזכורת ${leads + 1})` }).click();
      await page.getByRole('option', { name: 'דקות' }).click();
      await page.getByRole('button', { name: 'שמירה' }).click();
      await page.getByText('בין 30 דקות ל-7 ימים', { exact: true }).waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: `הסרת תזכורת ${leads + 1}` }).click();
    }
    await saveAndMark(page);

    const checklist = await deskFetch<SetupChecklist>(page, '/api/integration/setup');
    const done = checklist.body.steps.filter((s) => s.done).map((s) => s.step);
    expect(done).toEqual(expect.arrayContaining(['profile', 'hours', 'closures', 'rules']));
    expect(done).toContain('reminders');
    await page.getByRole('link', { name: 'הגדרת המרפאה' }).click();
    await h1(page, 'הגדרת המרפאה');
    await expect(
      page
        .getByRole('listitem')
        .filter({ hasText: 'כללי הזמנת תורים' })
        .getByText('סומן כבוצע')
        .isVisible(),
    ).resolves.toBe(true);
    await context.close();
  }, 240_000);

  it('every step page is axe-clean in English, and the checklist and hours on a tablet', async () => {
    const en = await signedInDeskPage(browser(), demoOwner, { lang: 'en' });
    const titles = {
      profile: 'Clinic profile',
      hours: 'Opening hours',
      closures: 'Closures and holidays',
      rules: 'Booking rules',
      reminders: 'Reminders and quiet hours',
    } as const;
    for (const step of stepPages) {
      await en.page.goto(`${baseUrl}/desk/setup/${step}`);
      await h1(en.page, titles[step]);
      await en.page
        .getByRole('button', { name: /^(Save|Unmark|Mark this step as done)$/ })
        .first()
        .waitFor();
      expect(await en.page.evaluate(() => document.documentElement.dir)).toBe('ltr');
      if (step === 'rules') {
        await en.page
          .getByRole('switch', { name: 'All-day calendar events (days off) block bookings' })
          .waitFor();
      }
      await expectNoAxeViolations(en.page);
    }
    // An error in English reads in English.
    await en.page.goto(`${baseUrl}/desk/setup/closures`);
    await h1(en.page, titles.closures);
    await en.page.getByRole('textbox', { name: 'Date' }).fill('2001-01-01');
    await en.page.getByRole('button', { name: 'Add a closure' }).click();
    await en.page.getByText('This date has passed').waitFor();
    await expectNoAxeViolations(en.page);
    await en.context.close();

    const tablet = await signedInDeskPage(browser(), demoOwner, { viewport: 'tablet' });
    for (const [path, title] of [
      ['/desk/setup', 'הגדרת המרפאה'],
      ['/desk/setup/hours', 'שעות פתיחה'],
    ] as const) {
      await tablet.page.goto(`${baseUrl}${path}`);
      await h1(tablet.page, title);
      await tablet.page.getByRole('link', { name: /עמוד המרפאה/ }).waitFor();
      await expectNoAxeViolations(tablet.page);
      // Nothing runs off the side of a 768 px screen.
      const overflow = await tablet.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await saveScreenshot(tablet.page, 'desk-setup-hours-tablet');
    await tablet.context.close();
  }, 240_000);

  it('front desk sees no set-up in its navigation, and the checklist read-only', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    await page.goto(`${baseUrl}/desk/account`);
    await h1(page, 'החשבון שלי');
    const nav = page.getByRole('navigation', { name: 'ניווט ראשי' });
    expect(await nav.getByRole('link', { name: 'הגדרת המרפאה' }).count()).toBe(0);
    await page.goto(`${baseUrl}/desk/setup`);
    await h1(page, 'הגדרת המרפאה');
    await page.getByText('רק בעלי המרפאה יכולים לשנות את הגדרות המרפאה').waitFor();
    expect(await page.getByRole('link', { name: /^פתיחה / }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.goto(`${baseUrl}/desk/setup/rules`);
    await h1(page, 'כללי הזמנת תורים');
    expect(await page.getByRole('button', { name: 'שמירה' }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await context.close();
  }, 240_000);
});
