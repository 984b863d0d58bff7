import fs from 'node:fs';
import type { DevMessage } from '@marpe/shared';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, settled, useBrowser } from './support/browser';
import { demoOwner, newDeskPage } from './support/desk';
import { freePort, freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
let server: RunningServer;
let dataDir: string;
let origin: string;

// A server of its own whose PUBLIC_ORIGIN is `http://localhost:<port>`: WebAuthn refuses an IP
// address as the relying party, and the suite's shared server's origin is not where the browser
// goes. Its fresh data also gives the demo owner a fresh budget of sign-in codes.
beforeAll(async () => {
  dataDir = freshDataDir();
  const port = String(await freePort());
  origin = `http://localhost:${port}`;
  server = await startServer({ DATA_DIR: dataDir, PORT: port, PUBLIC_ORIGIN: origin });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function messagesTo(phone: string): Promise<DevMessage[]> {
  const response = await fetch(`${server.url}/api/dev/messages`);
  return ((await response.json()) as DevMessage[]).filter((message) => message.to === phone);
}

async function nextCode(phone: string, before: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = await messagesTo(phone);
    const code = messages.length > before ? /#(\d{6})\s*$/.exec(messages[0]?.body ?? '') : null;
    if (code?.[1]) return code[1];
    if (Date.now() > deadline) throw new Error(`no code sent to ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain): a platform authenticator that keeps
 * discoverable credentials and verifies its user at once, as a laptop's fingerprint reader would.
 */
async function virtualAuthenticator(cdp: CDPSession): Promise<string> {
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

async function signInWithCode(page: Page) {
  await page.goto(`${origin}/desk/sign-in`);
  await page.getByRole('textbox', { name: 'מספר נייד' }).fill(demoOwner.typed);
  const before = (await messagesTo(demoOwner.phone)).length;
  await page.getByRole('button', { name: 'שליחת קוד' }).click();
  const code = await nextCode(demoOwner.phone, before);
  await page.getByRole('textbox', { name: 'קוד אימות' }).fill(code);
  await page.waitForURL((url) => !url.pathname.startsWith('/desk/sign-in'));
}

describe('the desk: passkeys in a real browser', () => {
  it('the owner adds a passkey, signs in with it without an SMS, and removes it', async () => {
    const { context, page } = await newDeskPage(browser());
    const cdp = await context.newCDPSession(page);
    const authenticatorId = await virtualAuthenticator(cdp);

    await signInWithCode(page);
    await page.goto(`${origin}/desk/account`);
    await page.getByRole('heading', { level: 1, name: 'החשבון שלי' }).waitFor();
    await page.getByText('עדיין לא הוספת מפתח גישה.').waitFor();

    // Add one: the dialog names it, the browser makes it on the authenticator.
    await page.getByRole('button', { name: 'הוספת מפתח גישה' }).click();
    const dialog = page.getByRole('dialog', { name: 'מפתח גישה חדש' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    // A name is needed: said at the field, before the browser is asked.
    await dialog.getByRole('button', { name: 'יצירת המפתח' }).click();
    await dialog.getByText('שדה חובה').waitFor();
    await dialog.getByRole('textbox', { name: 'שם המפתח' }).fill('המחשב בקבלה');
    await dialog.getByRole('button', { name: 'יצירת המפתח' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('מפתח הגישה „המחשב בקבלה” נוסף').waitFor();
    const list = page.getByRole('list', { name: 'מפתחות הגישה שלי' });
    await list.getByRole('button', { name: 'הסרה המחשב בקבלה' }).waitFor();
    await expectNoAxeViolations(page);

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');
    const signCountAfterAdding = credentials[0]?.signCount ?? 0;

    // Sign out, then in with the passkey: one touch, and no SMS is sent.
    await page.getByRole('button', { name: 'יציאה', exact: true }).click();
    await page.waitForURL(/\/desk\/sign-in/);
    const smsBefore = (await messagesTo(demoOwner.phone)).length;
    await page.getByRole('button', { name: 'כניסה עם מפתח גישה' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/desk/sign-in'));
    await page.goto(`${origin}/desk/account`);
    await page.getByText('נכנסת עם מפתח גישה.', { exact: false }).waitFor();
    await list.getByText(/שימוש אחרון ב-/).waitFor();
    expect((await messagesTo(demoOwner.phone)).length).toBe(smsBefore);
    const used = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(used.credentials[0]?.signCount ?? 0).toBeGreaterThan(signCountAfterAdding);

    // A second passkey sign-in works too: the stored counter moved on with the authenticator's.
    await page.getByRole('button', { name: 'יציאה', exact: true }).click();
    await page.waitForURL(/\/desk\/sign-in/);
    await page.getByRole('button', { name: 'כניסה עם מפתח גישה' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/desk/sign-in'));

    // Remove it: the device still holds the credential, but the desk no longer takes it.
    await page.goto(`${origin}/desk/account`);
    await list.getByRole('button', { name: 'הסרה המחשב בקבלה' }).click();
    const confirm = page.getByRole('dialog', { name: 'להסיר את מפתח הגישה?' });
    await settled(page, '[role="dialog"]');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'הסרה' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('עדיין לא הוספת מפתח גישה.').waitFor();

    await page.getByRole('button', { name: 'יציאה', exact: true }).click();
    await page.waitForURL(/\/desk\/sign-in/);
    await page.getByRole('button', { name: 'כניסה עם מפתח גישה' }).click();
    await page.getByText('לא הצלחנו לאמת את מפתח הגישה').waitFor();
    await expectNoAxeViolations(page);
    expect(new URL(page.url()).pathname).toBe('/desk/sign-in');
    await context.close();
  }, 120_000);
});
