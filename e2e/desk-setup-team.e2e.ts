// Over 400 lines: its journeys share one browser and the suite's signed-in desk; a file's set-up is
// a browser launch.
import type {
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationClinic,
  PaymentProvider,
} from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, demoOwner, signedInDeskPage } from './support/desk';
import { suiteServer } from './support/suite-server';

// Long journeys on a shared 2-core machine.
const journey = { timeout: 120_000 };

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

// Names of this file's own rows; the demo clinic's are left as they were.
const typeName = 'הלבנת שיניים E2E';
const caregiverName = 'ד"ר אורית E2E';
// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const dateInDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A signed-in desk page whose waits fail within 15 s, naming what they waited for. */
async function deskPage(...args: Parameters<typeof signedInDeskPage>) {
  const opened = await signedInDeskPage(...args);
  opened.page.setDefaultTimeout(15_000);
  // Leaving a changed form by address: the browser's "leave the page?" is answered yes.
  opened.page.on('dialog', (dialog) => void dialog.accept());
  return opened;
}

async function caregivers(page: Page): Promise<IntegrationCaregiver[]> {
  return (await deskFetch<IntegrationCaregiver[]>(page, '/api/integration/caregivers')).body;
}

async function ours(page: Page): Promise<IntegrationCaregiver> {
  const found = (await caregivers(page)).find((c) => c.name === caregiverName);
  if (!found) throw new Error(`${caregiverName} is not there`);
  return found;
}

async function openPage(page: Page, path: string, title: string) {
  await page.goto(`${baseUrl}/desk${path}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/** Waits for the dialog named `name` to have faded in, then checks it with axe. */
async function dialogIsClean(page: Page, name: string) {
  await page.getByRole('dialog', { name }).waitFor();
  await settled(page, '[role="dialog"]');
  await expectNoAxeViolations(page);
}

describe('the desk: set-up of caregivers, types, channel and terminal', () => {
  it(
    'the owner adds an appointment type; the page and its dialog are axe-clean',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/types', 'סוגי תורים');
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'הוספת סוג תור' }).click();
      const dialog = page.getByRole('dialog', { name: 'סוג תור חדש' });
      await dialogIsClean(page, 'סוג תור חדש');
      // Checked before sending, said at the fields.
      await dialog.getByRole('button', { name: 'הוספת סוג תור' }).click();
      await dialog.getByText('שדה חובה').first().waitFor();
      await dialog.getByRole('textbox', { name: 'שם', exact: true }).fill(typeName);
      await dialog.getByLabel('משך (דקות)').fill('600');
      await dialog.getByRole('button', { name: 'הוספת סוג תור' }).click();
      await dialog.getByText('לכל היותר 480').waitFor();
      await expectNoAxeViolations(page);
      await dialog.getByLabel('משך (דקות)').fill('45');
      await dialog.getByRole('button', { name: 'הוספת סוג תור' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 2, name: typeName }).waitFor();

      const types = await deskFetch<IntegrationAppointmentType[]>(
        page,
        '/api/integration/appointment-types',
      );
      const added = types.body.find((t) => t.name === typeName);
      expect(added?.duration_minutes).toBe(45);
      await context.close();
    },
  );

  it(
    'adds a caregiver with a photo, a type, weekly hours, a break and a date off',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/caregivers', 'מטפלים');
      await expectNoAxeViolations(page);
      await page.getByRole('link', { name: 'הוספת מטפל/ת' }).click();
      await page.getByRole('heading', { level: 1, name: 'הוספת מטפל/ת' }).waitFor();
      await expectNoAxeViolations(page);

      // Nothing typed: the first field in error takes focus.
      await page.getByRole('button', { name: 'הוספת המטפל/ת' }).click();
      await page.getByText('שדה חובה').first().waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe(
        'true',
      );

      await page.getByRole('textbox', { name: 'שם', exact: true }).fill(caregiverName);
      await page.getByLabel('מספר רישיון').fill('12-34567');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('img', { name: `התמונה של ${caregiverName}` }).waitFor();
      await page.getByLabel(`${typeName} (45 דקות)`).check();

      // Sunday on: it starts at 09:00–17:00; an end before its start is said at the field.
      await page.getByLabel('ראשון', { exact: true }).check();
      const sunday = page.getByRole('group', { name: 'שעות עבודה ביום ראשון' });
      expect(await sunday.getByLabel('משעה').inputValue()).toBe('09:00');
      await sunday.getByLabel('עד שעה').fill('08:00');
      await page
        .getByRole('group', { name: 'הפסקות ביום ראשון' })
        .getByRole('button', { name: 'הוספת הפסקה' })
        .click();
      await page.getByRole('button', { name: 'הוספת המטפל/ת' }).click();
      await sunday.getByText('שעת הסיום חייבת להיות אחרי שעת ההתחלה').waitFor();
      await expectNoAxeViolations(page);
      await sunday.getByLabel('עד שעה').fill('16:00');
      // Monday on: it takes Sunday's hours.
      await page.getByLabel('שני', { exact: true }).check();
      expect(
        await page
          .getByRole('group', { name: 'שעות עבודה ביום שני' })
          .getByLabel('עד שעה')
          .inputValue(),
      ).toBe('16:00');

      await page.getByRole('button', { name: 'הוספת תאריך' }).click();
      const dateOff = dateInDays(20);
      await page.locator('input[type="date"]').fill(dateOff);
      await page.getByLabel('הערה').fill('כנס');
      await expectNoAxeViolations(page);
      await saveScreenshot(page, 'desk-setup-caregiver');

      await page.getByRole('button', { name: 'הוספת המטפל/ת' }).click();
      await page.waitForURL(/\/desk\/setup\/caregivers$/);
      await page.getByRole('heading', { level: 2, name: caregiverName }).waitFor();

      const added = await ours(page);
      expect(added.image).toMatch(/^\/api\/images\//);
      expect(added.license_number).toBe('12-34567');
      expect(added.is_active).toBe(true);
      expect(added.appointment_type_ids).toHaveLength(1);
      expect(added.marpe_rules.weekly_hours.sunday).toEqual([{ start: '09:00', end: '16:00' }]);
      expect(added.marpe_rules.weekly_hours.monday).toEqual([{ start: '09:00', end: '16:00' }]);
      expect(added.marpe_rules.breaks).toEqual([{ day: 'sunday', start: '12:00', end: '12:30' }]);
      expect(added.marpe_rules.exceptions).toEqual([{ date: dateOff, note: 'כנס', hours: [] }]);
      // It goes last, and inherits the clinic's booking rules.
      expect((await caregivers(page)).at(-1)?.id).toBe(added.id);
      expect(added.marpe_rules.min_notice_minutes).toBeNull();
      await context.close();
    },
  );

  it(
    'edits the caregiver’s licence and own notice, and moves them up the page by keyboard',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/caregivers', 'מטפלים');
      await page.getByRole('link', { name: `עריכה ${caregiverName}` }).click();
      await page.getByRole('heading', { level: 1, name: caregiverName }).waitFor();
      await page.getByLabel('מספר רישיון').fill('12-99999');
      // The clinic's notice is shown until the owner sets the caregiver's own.
      const notice = page.getByLabel('הודעה מראש מינימלית (דקות)');
      await expect(notice.isDisabled()).resolves.toBe(true);
      await page
        .getByRole('checkbox', { name: /^כמו במרפאה/ })
        .nth(1)
        .uncheck();
      await notice.fill('120');
      await expectNoAxeViolations(page);
      // Leaving with changes not saved is asked first; staying keeps them.
      await page.getByRole('link', { name: 'ביטול' }).click();
      await dialogIsClean(page, 'לצאת בלי לשמור?');
      await page.getByRole('button', { name: 'חזרה לטופס' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await notice.inputValue()).toBe('120');
      await page.getByRole('button', { name: 'שמירה' }).click();
      await page.waitForURL(/\/desk\/setup\/caregivers$/);
      const edited = await ours(page);
      expect(edited.license_number).toBe('12-99999');
      expect(edited.marpe_rules.min_notice_minutes).toBe(120);
      expect(edited.marpe_rules.weekly_hours.sunday).toHaveLength(1);

      const before = (await caregivers(page)).map((c) => c.id);
      const up = page.getByRole('button', { name: `הזזת ${caregiverName} למעלה` });
      await up.focus();
      await page.keyboard.press('Enter');
      await page.getByText(`${caregiverName} עכשיו במקום ${before.length - 1}`).waitFor();
      // The button stays under the keyboard after the row moved.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        `הזזת ${caregiverName} למעלה`,
      );
      await expect
        .poll(async () => (await caregivers(page)).map((c) => c.id).indexOf(edited.id))
        .toBe(before.length - 2);
      // And back down, so the demo clinic's page keeps its order.
      await page.getByRole('button', { name: `הזזת ${caregiverName} למטה` }).click();
      await expect.poll(async () => (await caregivers(page)).at(-1)?.id).toBe(edited.id);
      await context.close();
    },
  );

  it(
    'deactivates (asked first), reactivates, and deactivates from the caregiver’s page on a tablet',
    journey,
    async () => {
      const owner = await deskPage(browser(), demoOwner);
      const { page } = owner;
      await openPage(page, '/setup/caregivers', 'מטפלים');
      await page.getByRole('button', { name: `השבתה ${caregiverName}` }).click();
      await dialogIsClean(page, `להשבית את ${caregiverName}?`);
      await page.getByRole('dialog').getByRole('button', { name: 'השבתה' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: `הפעלה מחדש ${caregiverName}` }).waitFor();
      expect((await ours(page)).is_active).toBe(false);
      await page.getByRole('button', { name: `הפעלה מחדש ${caregiverName}` }).click();
      await page.getByRole('button', { name: `השבתה ${caregiverName}` }).waitFor();
      expect((await ours(page)).is_active).toBe(true);
      const id = (await ours(page)).id;
      await owner.context.close();

      const tablet = await deskPage(browser(), demoOwner, { viewport: 'tablet' });
      await openPage(tablet.page, `/setup/caregivers/${id}`, caregiverName);
      // The calendar section (connect, its state) is part of what is checked at 768 px.
      await tablet.page
        .getByRole('region', { name: 'סנכרון יומן' })
        .getByRole('button', { name: /חיבור/ })
        .first()
        .waitFor();
      await expectNoAxeViolations(tablet.page);
      // Nothing runs off the side at 768 px.
      expect(
        await tablet.page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(768);
      await saveScreenshot(tablet.page, 'desk-setup-caregiver-tablet');
      await tablet.page.getByRole('button', { name: 'השבתה' }).click();
      await dialogIsClean(tablet.page, `להשבית את ${caregiverName}?`);
      await tablet.page.getByRole('dialog').getByRole('button', { name: 'השבתה' }).click();
      await tablet.page.getByText('לא פעיל/ה: לא מופיע/ה בעמוד המרפאה').waitFor();
      expect((await ours(tablet.page)).is_active).toBe(false);
      await tablet.context.close();
    },
  );

  it(
    'a type with appointments cannot be deleted: it offers to stop offering it; an unused one goes',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/types', 'סוגי תורים');
      const types = await deskFetch<IntegrationAppointmentType[]>(
        page,
        '/api/integration/appointment-types',
      );
      const demoType = types.body.find((t) => t.name !== typeName && t.caregiver_ids.length > 0);
      if (!demoType) throw new Error('the demo clinic has no offered type');

      await page.getByRole('button', { name: `מחיקה ${demoType.name}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'מחיקה' }).click();
      await dialogIsClean(page, `אי אפשר למחוק את „${demoType.name}”`);
      await page.getByRole('dialog').getByRole('button', { name: 'הפסקת ההצעה' }).waitFor();
      // Not this time: the demo's type stays offered.
      await page.getByRole('dialog').getByRole('button', { name: 'ביטול' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `מחיקה ${typeName}` }).click();
      await dialogIsClean(page, `למחוק את „${typeName}”?`);
      await page.getByRole('dialog').getByRole('button', { name: 'מחיקה' }).click();
      await page.getByRole('heading', { level: 2, name: typeName }).waitFor({ state: 'detached' });
      const after = await deskFetch<IntegrationAppointmentType[]>(
        page,
        '/api/integration/appointment-types',
      );
      expect(after.body.some((t) => t.name === typeName)).toBe(false);
      expect(after.body.find((t) => t.id === demoType.id)?.caregiver_ids).toEqual(
        demoType.caregiver_ids,
      );
      await context.close();
    },
  );

  it(
    'the channel page keeps SMS and says why WhatsApp cannot connect on this server',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/channel', 'ערוץ ההודעות');
      await expectNoAxeViolations(page);
      await expect(page.getByRole('radio', { name: 'SMS' }).isChecked()).resolves.toBe(true);
      await expect(page.getByRole('radio', { name: 'וואטסאפ' }).isDisabled()).resolves.toBe(true);
      await page.getByRole('button', { name: /חיבור וואטסאפ/ }).click();
      await page.getByText('בשרת הזה אי אפשר לחבר וואטסאפ').waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'שמירה' }).click();
      await page.getByText('מעכשיו ההודעות למטופלים נשלחות ב-SMS').waitFor();
      const clinic = await deskFetch<IntegrationClinic>(page, '/api/integration/clinic');
      expect(clinic.body.settings.messaging_channel).toBe('sms');
      await context.close();
    },
  );

  it(
    'the terminal page sets the terminal and its credentials, write-only, and removes them',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner);
      await openPage(page, '/setup/terminal', 'מסוף הסליקה');
      await expectNoAxeViolations(page);
      const terminal = page.getByLabel('שם המסוף');
      const demoTerminal = await terminal.inputValue();
      expect(demoTerminal).not.toBe('');
      await terminal.fill('e2e-terminal');
      await page.getByRole('button', { name: 'שמירה' }).click();
      await page.getByText('שם המסוף נשמר: e2e-terminal').waitFor();
      const clinic = await deskFetch<IntegrationClinic>(page, '/api/integration/clinic');
      expect(clinic.body.settings.card_terminal).toBe('e2e-terminal');
      // Back to the demo's, which its payment links use.
      await terminal.fill(demoTerminal);
      await page.getByRole('button', { name: 'שמירה' }).click();
      await page.getByText(`שם המסוף נשמר: ${demoTerminal}`).waitFor();

      const demoKey = (await deskFetch<PaymentProvider>(page, '/api/integration/payment-provider'))
        .body.app_key;
      expect(demoKey).not.toBeNull();
      await page.getByText(`פרטי הגישה שמורים`).waitFor();
      await page.getByLabel('מפתח אפליקציה (app key)').fill('some-key');
      await page.getByLabel('סוד (secret)').fill('short');
      await page.getByRole('button', { name: 'שמירת פרטי הגישה' }).click();
      await page.getByText('לפחות 8 תווים').waitFor();
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'הסרת פרטי הגישה' }).click();
      await dialogIsClean(page, 'להסיר את פרטי הגישה?');
      await page.getByRole('dialog').getByRole('button', { name: 'הסרת פרטי הגישה' }).click();
      await page.getByText('פרטי הגישה לא הוגדרו').waitFor();
      expect(
        (await deskFetch<PaymentProvider>(page, '/api/integration/payment-provider')).body,
      ).toEqual({ configured: false, app_key: null });

      // The demo's credentials again (apps/api/src/demo/demo-payment.ts), so its payments verify.
      await page.getByLabel('מפתח אפליקציה (app key)').fill('marpe-demo-app-key');
      await page.getByLabel('סוד (secret)').fill('marpe-demo-api-secret');
      await page.getByRole('button', { name: 'שמירת פרטי הגישה' }).click();
      await page.getByText('פרטי הגישה שמורים').waitFor();
      // Write-only: the secret is neither shown back nor kept in the field.
      expect(await page.getByLabel('סוד (secret)').inputValue()).toBe('');
      expect(await page.content()).not.toContain('marpe-demo-api-secret');
      await context.close();
    },
  );

  it('the caregiver pages read in English and are axe-clean', journey, async () => {
    const { context, page } = await deskPage(browser(), demoOwner, { lang: 'en' });
    const id = (
      await (async () => {
        await openPage(page, '/setup/caregivers', 'Caregivers');
        return ours(page);
      })()
    ).id;
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: `Reactivate ${caregiverName}` }).waitFor();

    await openPage(page, '/setup/caregivers/new', 'Add a caregiver');
    await page.getByLabel('Sunday', { exact: true }).check();
    await page.getByRole('button', { name: 'Add a date' }).click();
    await page.getByRole('radio', { name: 'Working other hours' }).check();
    await page.getByRole('button', { name: 'Add the caregiver' }).click();
    await page.getByText('Required').first().waitFor();
    await expectNoAxeViolations(page);

    await openPage(page, `/setup/caregivers/${id}`, caregiverName);
    await expectNoAxeViolations(page);
    await context.close();
  });

  it(
    'the types, channel and terminal pages and their dialogs read in English, axe-clean',
    journey,
    async () => {
      const { context, page } = await deskPage(browser(), demoOwner, { lang: 'en' });
      await openPage(page, '/setup/types', 'Appointment types');
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Add an appointment type' }).click();
      await dialogIsClean(page, 'New appointment type');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await openPage(page, '/setup/channel', 'Messaging channel');
      await expectNoAxeViolations(page);

      await openPage(page, '/setup/terminal', 'Card terminal');
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Remove the credentials' }).click();
      await dialogIsClean(page, 'Remove the credentials?');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await context.close();
    },
  );

  it('front desk sees that the set-up is the owners’', journey, async () => {
    const { context, page } = await deskPage(browser(), demoFrontDesk);
    // The step's page, as every step's: read, not written, and pointing to the clinic page.
    await openPage(page, '/setup/caregivers', 'מטפלים');
    await page.getByText('את השלב הזה ממלאים בעלי המרפאה').waitFor();
    await page.getByRole('link', { name: /עמוד המרפאה כפי שמטופלים רואים אותו/ }).waitFor();
    await expect(page.getByRole('link', { name: 'הוספת מטפל/ת' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'סימון השלב כבוצע' }).count()).resolves.toBe(0);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
