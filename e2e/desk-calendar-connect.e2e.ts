import type { CalendarSyncStatus, IntegrationCaregiver } from '@marpe/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, settled, useBrowser } from './support/browser';
import { PUBLIC_ORIGIN } from './support/constants';
import { deskFetch, demoOwner, signedInDeskPage } from './support/desk';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

const caregiverName = 'ד"ר יעל E2E';

/**
 * The demo owner's desk in a language. The server's links (the connection link, the consent
 * page's return address, Google's stand-in) name its PUBLIC_ORIGIN, an https address no machine
 * answers: the browser's requests there are carried to the server under test, as a proxy in
 * front of it would, redirects and cookies included.
 */
async function ownerPage(lang: 'he' | 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await signedInDeskPage(browser(), demoOwner, { lang });
  opened.context.setDefaultTimeout(15_000);
  await opened.context.route(`${PUBLIC_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `${baseUrl}${url.pathname}${url.search}`,
      maxRedirects: 0,
    });
    await route.fulfill({ response });
  });
  // "Copy" writes to the clipboard as a person's click would.
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseUrl,
  });
  return opened;
}

/** This file's caregiver, made once through the API: the demo's own are left as they were. */
let caregiverId = 0;
async function ourCaregiver(page: Page): Promise<number> {
  if (caregiverId) return caregiverId;
  const made = await deskFetch<IntegrationCaregiver>(page, '/api/integration/caregivers', {
    method: 'POST',
    // Active: an inactive caregiver's calendar is not synced. Deactivated at the end.
    body: { name: caregiverName, license_number: '77001' },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  caregiverId = made.body.id;
  return caregiverId;
}

async function openCaregiver(page: Page) {
  const id = await ourCaregiver(page);
  await page.goto(`${baseUrl}/desk/setup/caregivers/${id}`);
  await page.getByRole('heading', { level: 1, name: caregiverName }).waitFor();
}

/** Waits for the dialog named `name` to have faded in, then checks the page with axe. */
async function dialogIsClean(page: Page, name: string | RegExp) {
  await page.getByRole('dialog', { name }).waitFor();
  await settled(page, '[role="dialog"]');
  await expectNoAxeViolations(page);
}

describe('the desk: a caregiver connects their own Google Calendar by a link', () => {
  it(
    'the owner makes a link, the caregiver consents in a new tab, the desk shows it connected; then disconnects',
    { timeout: 180_000 },
    async () => {
      const { context, page } = await ownerPage('he');
      await openCaregiver(page);
      const section = page.getByRole('region', { name: 'סנכרון יומן' });
      await section.getByText('לא מחובר', { exact: true }).waitFor();
      await section.scrollIntoViewIfNeeded();
      await expectNoAxeViolations(page);

      await section.getByRole('button', { name: 'חיבור יומן Google' }).click();
      const dialogName = `קישור לחיבור היומן של ${caregiverName}`;
      const dialog = page.getByRole('dialog', { name: dialogName });
      await dialogIsClean(page, dialogName);
      const field = dialog.getByRole('textbox', { name: 'קישור לחיבור' });
      const url = await field.inputValue();
      expect(url.startsWith(`${PUBLIC_ORIGIN}/calendar/connect/`)).toBe(true);
      await dialog.getByText(/^בתוקף עד \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}\./).waitFor();
      await dialog.getByRole('button', { name: 'העתקה' }).click();
      await dialog.getByRole('status').getByText('הקישור הועתק.').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      // A caregiver at the desk: the link opens in a new tab, the desk stays as it was.
      const [consent] = await Promise.all([
        context.waitForEvent('page'),
        dialog.getByRole('link', { name: 'פתיחה כאן' }).click(),
      ]);
      await consent.waitForLoadState();
      expect(consent.url()).toBe(url);
      const account = await connectInConsentPages(consent);
      await consent.close();

      await dialog.getByRole('button', { name: 'סגירה' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The open page learns of the connection by itself, within seconds.
      await section.getByText('מחובר', { exact: true }).waitFor({ timeout: 30_000 });
      await section.getByText(account).first().waitFor();
      await section.getByText(/^סנכרון אחרון: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/).waitFor({
        timeout: 30_000,
      });
      await expectNoAxeViolations(page);
      const status = await deskFetch<CalendarSyncStatus>(page, '/api/integration/calendar-sync');
      expect(status.body.caregivers.find((c) => c.caregiver_id === caregiverId)).toMatchObject({
        connection: 'oauth',
        account_email: account,
      });

      await section.getByRole('button', { name: 'ניתוק' }).click();
      const confirmName = `לנתק את היומן של ${caregiverName}?`;
      await dialogIsClean(page, confirmName);
      const confirm = page.getByRole('dialog', { name: confirmName });
      await confirm.getByText(/האירועים שמרפא כבר רשמה נשארים ביומן Google/).waitFor();
      await confirm.getByRole('button', { name: 'ניתוק' }).click();
      await confirm.waitFor({ state: 'detached' });
      await section.getByText('לא מחובר', { exact: true }).waitFor();
      const after = await deskFetch<CalendarSyncStatus>(page, '/api/integration/calendar-sync');
      expect(after.body.caregivers.some((c) => c.caregiver_id === caregiverId)).toBe(false);
      await context.close();
    },
  );

  it(
    'Microsoft 365 / Outlook: the link page offers it beside Google, the stand-in consents, the desk names it',
    { timeout: 180_000 },
    async () => {
      const { context, page } = await ownerPage('he');
      await openCaregiver(page);
      const section = page.getByRole('region', { name: 'סנכרון יומן' });
      await section.getByText('לא מחובר', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'חיבור יומן Microsoft 365 / Outlook' }).click();
      const dialogName = `קישור לחיבור היומן של ${caregiverName}`;
      const dialog = page.getByRole('dialog', { name: dialogName });
      await dialogIsClean(page, dialogName);
      const [consent] = await Promise.all([
        context.waitForEvent('page'),
        dialog.getByRole('link', { name: 'פתיחה כאן' }).click(),
      ]);
      await consent.waitForLoadState();
      await consent
        .getByRole('heading', { level: 1, name: `חיבור היומן של ${caregiverName}` })
        .waitFor();
      // Both providers, the link's first; the page is axe-clean with both.
      await expectNoAxeViolations(consent);
      await consent.getByRole('button', { name: 'המשך ל-Microsoft' }).click();
      await consent.getByRole('heading', { level: 1, name: 'Microsoft (demo)' }).waitFor();
      await consent.getByRole('button', { name: 'Allow' }).click();
      await consent.getByRole('heading', { level: 1, name: 'באיזה יומן להשתמש?' }).waitFor();
      await expectNoAxeViolations(consent);
      await consent.getByRole('button', { name: 'חיבור היומן' }).click();
      await consent.getByRole('heading', { level: 1, name: 'היומן חובר' }).waitFor();
      await consent.close();

      await dialog.getByRole('button', { name: 'סגירה' }).click();
      await dialog.waitFor({ state: 'detached' });
      await section.getByText('מחובר', { exact: true }).waitFor({ timeout: 30_000 });
      await section.getByText('יומן Microsoft 365 / Outlook').waitFor();
      await expectNoAxeViolations(page);
      const status = await deskFetch<CalendarSyncStatus>(page, '/api/integration/calendar-sync');
      expect(status.body.caregivers.find((c) => c.caregiver_id === caregiverId)).toMatchObject({
        connection: 'oauth',
        provider: 'microsoft',
      });
      // The demo's dev route types into the Microsoft stand-in for a caregiver connected there.
      const added = await fetch(`${baseUrl}/api/dev/calendar-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          caregiverId,
          start: '2030-01-06 09:00',
          end: '2030-01-06 10:00',
          summary: 'Outlook walk-in',
        }),
      });
      expect(added.status).toBe(200);
      const events = (await (
        await fetch(`${baseUrl}/api/dev/calendar-events?caregiverId=${caregiverId}`)
      ).json()) as { subject?: string; start: string }[];
      expect(events).toContainEqual(
        expect.objectContaining({ subject: 'Outlook walk-in', start: '2030-01-06T07:00:00' }),
      );
      const gone = await deskFetch(
        page,
        `/api/integration/caregivers/${caregiverId}/calendar-connection`,
        { method: 'DELETE', body: {} },
      );
      expect(gone.status).toBe(204);
      await context.close();
    },
  );

  it('in English: the section and both dialogs are axe-clean', { timeout: 120_000 }, async () => {
    const { context, page } = await ownerPage('en');
    await openCaregiver(page);
    const section = page.getByRole('region', { name: 'Calendar sync' });
    await section.getByText('Not connected', { exact: true }).waitFor();
    await expectNoAxeViolations(page);
    await section.getByRole('button', { name: 'Connect Google Calendar' }).click();
    const linkDialog = `A link to connect ${caregiverName}'s calendar`;
    await dialogIsClean(page, linkDialog);
    await page
      .getByRole('dialog', { name: linkDialog })
      .getByRole('button', { name: 'Close' })
      .click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // A link waits: it can be shown again or replaced.
    await section.getByRole('button', { name: 'Send a new link' }).waitFor();
    await section.getByRole('button', { name: 'Show the link' }).click();
    await dialogIsClean(page, linkDialog);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectNoAxeViolations(page);

    // Tidy: this file's caregiver leaves the demo clinic's page.
    const gone = await deskFetch(page, `/api/integration/caregivers/${caregiverId}`, {
      method: 'DELETE',
      // deskFetch says the body is JSON: an empty one would be refused.
      body: {},
    });
    expect(gone.status).toBe(204);
    await context.close();
  });
});

/**
 * The caregiver's side, on their own device: the connection page, the demo's stand-in of Google's
 * consent, choosing the calendar. Answers the Google account that consented.
 */
async function connectInConsentPages(page: Page): Promise<string> {
  await page.getByRole('heading', { level: 1, name: `חיבור היומן של ${caregiverName}` }).waitFor();
  await page.getByRole('button', { name: 'המשך ל-Google' }).click();
  // The demo's stand-in of Google's consent screen, with its one account.
  await page.getByRole('heading', { level: 1, name: 'Google (demo)' }).waitFor();
  const account = (await page.locator('strong').first().textContent()) ?? '';
  expect(account).toMatch(/@/);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.getByRole('heading', { level: 1, name: 'באיזה יומן להשתמש?' }).waitFor();
  // The main calendar is chosen already.
  const group = page.getByRole('group', { name: 'יומן' });
  expect(await group.getByRole('radio', { checked: true }).count()).toBe(1);
  await page.getByRole('button', { name: 'חיבור היומן' }).click();
  await page.getByRole('heading', { level: 1, name: 'היומן חובר' }).waitFor();
  return account;
}
