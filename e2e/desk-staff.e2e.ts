import type { CreatedStaffInvitation, StaffList } from '@marpe/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, saveScreenshot, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, demoOwner, newDeskPage, signedInDeskPage } from './support/desk';
import { messagesTo, nextCode } from './support/patients';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

/** The server allows a phone one code a minute: when each phone was last sent one. */
const lastCodeAt = new Map<string, number>();

async function codeFor(phone: string, send: () => Promise<void>): Promise<string> {
  const wait = (lastCodeAt.get(phone) ?? 0) + 61_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const before = (await messagesTo(phone)).length;
  await send();
  lastCodeAt.set(phone, Date.now());
  return nextCode(phone, before);
}

/** Opens an invitation link in a new context and accepts it with the code sent to the phone. */
async function join(url: string, phone: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newDeskPage(browser());
  opened.context.setDefaultTimeout(10_000);
  const { page } = opened;
  await page.goto(`${baseUrl}${new URL(url).pathname}`);
  const code = await codeFor(phone, () => page.getByRole('button', { name: 'שליחת קוד' }).click());
  await page.getByRole('textbox', { name: 'קוד אימות' }).fill(code);
  await page.waitForURL((u) => !u.pathname.startsWith('/desk/invite'));
  return opened;
}

const staffOf = async (page: Page) =>
  (await deskFetch<StaffList>(page, '/api/integration/staff')).body;

async function openStaffPage(page: Page, title = 'צוות') {
  await page.goto(`${baseUrl}/desk/staff`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

describe('the desk: staff', () => {
  it('the last owner is explained before the server refuses it', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    context.setDefaultTimeout(10_000);
    await openStaffPage(page);
    const members = page.getByRole('table', { name: 'אנשי הצוות' });
    await members.getByRole('row', { name: /רונית מזרחי/ }).waitFor();
    await members.getByRole('row', { name: /שירה דוד/ }).waitFor();
    // The only owner: both of their controls are off, and the page says why, in words.
    const note = page.getByText('אי אפשר להסיר את רונית מזרחי מהצוות או להעביר לתפקיד קבלה');
    await note.waitFor();
    const role = members.getByRole('combobox', { name: 'התפקיד של רונית מזרחי' });
    expect(await role.isDisabled()).toBe(true);
    expect(await role.getAttribute('aria-describedby')).toBeTruthy();
    expect(await members.getByRole('button', { name: 'הסרה רונית מזרחי' }).isDisabled()).toBe(true);
    expect(await members.getByRole('button', { name: 'הסרה שירה דוד' }).isDisabled()).toBe(false);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'desk-staff');

    // The server refuses it anyway.
    const me = (await staffOf(page)).members.find((m) => m.phone === demoOwner.phone);
    const refused = await deskFetch<{ code: string }>(page, `/api/integration/staff/${me?.id}`, {
      method: 'PATCH',
      body: { role: 'front_desk' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('last_owner');
    await context.close();
  }, 60_000);

  it('an owner invites; the invitee joins; the role changes; the member is removed', async () => {
    const phone = '0527000081';
    const owner = await signedInDeskPage(browser(), demoOwner);
    owner.context.setDefaultTimeout(10_000);
    const { page } = owner;
    await openStaffPage(page);

    await page.getByRole('button', { name: 'הזמנה לצוות' }).click();
    const dialog = page.getByRole('dialog', { name: 'הזמנה לצוות' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    // Said at the fields, before anything is sent.
    await dialog.getByRole('button', { name: 'יצירת ההזמנה' }).click();
    await dialog.getByText('שדה חובה').waitFor();
    await dialog.getByText('יש להזין מספר נייד ישראלי תקין').waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('textbox', { name: 'שם מלא' }).fill('נגה ברק');
    await dialog.getByRole('textbox', { name: 'מספר נייד' }).fill('052-7000081');
    expect(await dialog.getByRole('radio', { name: /קבלה/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: 'שליחת הקישור ב-SMS' }).isChecked()).toBe(
      true,
    );
    const smsBefore = (await messagesTo(phone)).length;
    await dialog.getByRole('button', { name: 'יצירת ההזמנה' }).click();

    // The link, once, with a copy button, and what happens next.
    const created = page.getByRole('dialog', { name: 'ההזמנה מוכנה' });
    await created.getByText('הקישור נשלח ב-SMS למספר 052-7000081.').waitFor();
    const link = await created.getByRole('textbox', { name: 'קישור ההזמנה' }).inputValue();
    expect(link).toMatch(/\/desk\/invite\/[\w-]{20,}$/);
    await created.getByRole('heading', { name: 'מה קורה עכשיו' }).waitFor();
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await created.getByRole('button', { name: 'העתקת הקישור' }).click();
    await created.getByText('הקישור הועתק.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expectNoAxeViolations(page);
    const sms = await messagesTo(phone);
    expect(sms.length).toBe(smsBefore + 1);
    expect(sms[0]?.body).toContain(link);
    await created.getByRole('button', { name: 'סיום' }).click();
    await created.waitFor({ state: 'detached' });
    const invitations = page.getByRole('table', { name: 'הזמנות פתוחות' });
    await invitations.getByRole('row', { name: /נגה ברק/ }).waitFor();

    // The invitee joins from the link in a browser of their own, as front desk.
    const invitee = await join(link, phone);
    // Front desk starts on the diary, and its navigation has no staff page.
    await invitee.page.waitForURL((u) => u.pathname === '/desk/diary');
    const nav = invitee.page.getByRole('navigation', { name: 'ניווט ראשי' });
    await nav.getByRole('link', { name: 'יומן' }).waitFor();
    await nav.getByRole('link', { name: 'החשבון שלי' }).waitFor();
    expect(await nav.getByRole('link', { name: 'צוות' }).count()).toBe(0);

    // The owner sees a member, no longer an invitation.
    await page.reload();
    const members = page.getByRole('table', { name: 'אנשי הצוות' });
    await members.getByRole('row', { name: /נגה ברק/ }).waitFor();
    expect(await page.getByRole('table', { name: 'הזמנות פתוחות' }).count()).toBe(0);

    // Made an owner: the last-owner note goes, and the first owner's controls open.
    await members
      .getByRole('combobox', { name: 'התפקיד של נגה ברק' })
      .selectOption({ label: 'בעלים' });
    await page.getByText('התפקיד של נגה ברק עודכן: בעלים').waitFor();
    await page.getByText('אי אפשר להסיר את רונית מזרחי').waitFor({ state: 'detached' });
    expect(
      await members.getByRole('combobox', { name: 'התפקיד של רונית מזרחי' }).isDisabled(),
    ).toBe(false);
    // Their desk now shows the staff page too.
    await invitee.page.reload();
    await invitee.page
      .getByRole('navigation', { name: 'ניווט ראשי' })
      .getByRole('link', { name: 'צוות' })
      .waitFor();

    // Removed: asked first, then gone, and their session can no longer act for the clinic.
    await members.getByRole('button', { name: 'הסרה נגה ברק' }).click();
    const confirm = page.getByRole('dialog', { name: 'להסיר את נגה ברק מהצוות?' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'הסרה מהצוות' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('נגה ברק הוסר/ה מהצוות').waitFor();
    await members.getByRole('row', { name: /נגה ברק/ }).waitFor({ state: 'detached' });
    await page.getByText('אי אפשר להסיר את רונית מזרחי').waitFor();
    const after = await deskFetch(invitee.page, '/api/integration/clinic');
    expect(after.status).toBe(403);

    await invitee.context.close();
    await owner.context.close();
  }, 150_000);

  it('in English on a tablet: invite without SMS, copy by hand, cancel the invitation', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner, {
      lang: 'en',
      viewport: 'tablet',
    });
    context.setDefaultTimeout(10_000);
    // A browser that will not write to the clipboard: the link is selected for copying by hand.
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      });
    });
    await openStaffPage(page, 'Staff');
    await page
      .getByText("cannot be removed or made front desk: they are the clinic's only owner")
      .waitFor();
    await expectNoAxeViolations(page);
    // The navigation is a drawer here, with the staff page in it.
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await settled(page, '.MuiDrawer-paper');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Staff' })
      .click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Invite to the staff' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite to the staff' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await dialog.getByRole('textbox', { name: 'Full name' }).fill('Tal Cohen');
    await dialog.getByRole('textbox', { name: 'Mobile number' }).fill('0527000082');
    await dialog.getByRole('radio', { name: /^Owner/ }).check();
    await dialog.getByRole('checkbox', { name: 'Send the link by SMS' }).uncheck();
    const smsBefore = (await messagesTo('0527000082')).length;
    await dialog.getByRole('button', { name: 'Create the invitation' }).click();
    const created = page.getByRole('dialog', { name: 'The invitation is ready' });
    await created
      .getByText('The link was not sent by SMS: pass it on to Tal Cohen yourselves.')
      .waitFor();
    await created.getByRole('button', { name: 'Copy the link' }).click();
    await created
      .getByText('The link could not be copied automatically.', { exact: false })
      .waitFor();
    const field = created.getByRole('textbox', { name: 'Invitation link' });
    const selected = await field.evaluate((input: HTMLInputElement) =>
      input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
    );
    expect(selected).toBe(await field.inputValue());
    await expectNoAxeViolations(page);
    expect((await messagesTo('0527000082')).length).toBe(smsBefore);
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    const invitations = page.getByRole('table', { name: 'Open invitations' });
    const row = invitations.getByRole('row', { name: /Tal Cohen/ });
    await row.getByText('Owner').waitFor();
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: 'Cancel the invitation Tal Cohen' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel the invitation?' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel the invitation' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText("Tal Cohen's invitation was cancelled").waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  }, 90_000);

  it('front desk reaching /staff by its address reads that it is for owners, in both languages', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    await page.goto(`${baseUrl}/desk/staff`);
    await page.getByRole('heading', { level: 1, name: 'לבעלי המרפאה בלבד' }).waitFor();
    await page.getByText('העמוד הזה פתוח רק לבעלי המרפאה.', { exact: false }).waitFor();
    const nav = page.getByRole('navigation', { name: 'ניווט ראשי' });
    expect(await nav.getByRole('link', { name: 'צוות' }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: "For the clinic's owners only" }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'עברית' }).click();
    await context.close();
  }, 60_000);

  it('a session ended elsewhere mid-work: sign in over the page, and what was typed is still there', async () => {
    const phone = '0527000083';
    const owner = await signedInDeskPage(browser(), demoOwner);
    owner.context.setDefaultTimeout(10_000);
    await owner.page.goto(`${baseUrl}/desk/account`);
    const made = await deskFetch<CreatedStaffInvitation>(
      owner.page,
      '/api/integration/staff/invitations',
      { method: 'POST', body: { name: 'עדי שמש', phone, role: 'owner', send_sms: false } },
    );
    expect(made.status).toBe(201);

    // At the front desk: halfway through an invitation.
    const first = await join(made.body.url, phone);
    await openStaffPage(first.page);
    await first.page.getByRole('button', { name: 'הזמנה לצוות' }).click();
    const dialog = first.page.getByRole('dialog', { name: 'הזמנה לצוות' });
    await dialog.getByRole('textbox', { name: 'שם מלא' }).fill('יעל אור');
    await dialog.getByRole('textbox', { name: 'מספר נייד' }).fill('052-7000084');

    // Meanwhile, on another device of theirs: "sign out everywhere".
    const second = await browser().newContext({
      viewport: { width: 1366, height: 768 },
      storageState: await first.context.storageState(),
    });
    const other = await second.newPage();
    await other.goto(`${baseUrl}/desk/account`);
    await other.getByRole('button', { name: 'יציאה מכל המכשירים' }).click();
    await other
      .getByRole('dialog', { name: 'לצאת מכל המכשירים?' })
      .getByRole('button', { name: 'יציאה מכל המכשירים' })
      .click();
    await other.waitForURL(/\/desk\/sign-in/);
    await second.close();

    // Back at the front desk: the save meets the ended session, and sign-in opens over the page.
    await dialog.getByRole('button', { name: 'יצירת ההזמנה' }).click();
    const ended = first.page.getByRole('dialog', { name: /החיבור לדלפק הסתיים/ });
    await ended.waitFor();
    await settled(first.page, '[role="dialog"]');
    await expectNoAxeViolations(first.page);
    await ended.getByRole('textbox', { name: 'מספר נייד' }).fill('052-7000083');
    const code = await codeFor(phone, () =>
      ended.getByRole('button', { name: 'שליחת קוד' }).click(),
    );
    await ended.getByRole('textbox', { name: 'קוד אימות' }).fill(code);
    await ended.waitFor({ state: 'detached' });

    // Still on the page, the typed invitation intact: sent again, it goes through.
    expect(new URL(first.page.url()).pathname).toBe('/desk/staff');
    expect(await dialog.getByRole('textbox', { name: 'שם מלא' }).inputValue()).toBe('יעל אור');
    expect(await dialog.getByRole('textbox', { name: 'מספר נייד' }).inputValue()).toBe(
      '052-7000084',
    );
    await dialog.getByRole('button', { name: 'יצירת ההזמנה' }).click();
    await first.page.getByRole('dialog', { name: 'ההזמנה מוכנה' }).waitFor();
    await first.context.close();

    // Tidy: the suite's demo clinic keeps one owner.
    const list = await staffOf(owner.page);
    for (const invitation of list.invitations.filter((i) => i.phone === '0527000084')) {
      await deskFetch(owner.page, `/api/integration/staff/invitations/${invitation.id}`, {
        method: 'DELETE',
        body: {},
      });
    }
    const adi = list.members.find((m) => m.phone === phone);
    expect(
      (
        await deskFetch(owner.page, `/api/integration/staff/${adi?.id}`, {
          method: 'DELETE',
          // deskFetch always says JSON, and an empty JSON body is refused.
          body: {},
        })
      ).status,
    ).toBe(204);
    await owner.context.close();
  }, 150_000);
});
