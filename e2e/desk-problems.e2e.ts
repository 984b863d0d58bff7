import type { CreatedApiKey } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, demoOwner, signedInDeskPage } from './support/desk';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

async function open(page: Page, path: string, title: string) {
  await page.goto(`${baseUrl}/desk${path}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

describe("the desk: an owner's problems page and audit log", () => {
  it('problems: three sections, each saying plainly when it is empty; he and en', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    context.setDefaultTimeout(10_000);
    await open(page, '/problems', 'תקלות');
    await page.getByRole('heading', { level: 2, name: 'הודעות שלא נשלחו' }).waitFor();
    // The demo sends by its log provider: nothing fails.
    await page.getByText('אין הודעות שנכשלו.').waitFor();
    await page.getByRole('heading', { level: 2, name: 'סנכרון יומני Google' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'התנגשויות ביומנים' }).waitFor();
    await page
      .getByText(/^(אין התנגשויות\.|זוהתה)$/)
      .first()
      .waitFor();
    await expectNoAxeViolations(page);

    await context.close();

    const english = await signedInDeskPage(browser(), demoOwner, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await open(english.page, '/problems', 'Problems');
    await english.page.getByText('No failed messages.').waitFor();
    await english.page.getByRole('heading', { level: 2, name: 'Calendar conflicts' }).waitFor();
    await expectNoAxeViolations(english.page);
    await english.context.close();
  }, 60_000);

  it('audit: shows an action just done with who did it, and filters by who; he and en', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    context.setDefaultTimeout(10_000);
    const name = `e2e-audit-${Date.now()}`;
    const created = await deskFetch<CreatedApiKey>(page, '/api/integration/api-keys', {
      method: 'POST',
      body: { name },
    });
    expect(created.status).toBe(201);

    await open(page, '/audit', 'יומן פעולות');
    const table = page.getByRole('table', { name: 'פעולות, מהחדשה לישנה' });
    const row = table.getByRole('row').filter({ hasText: `name: ${name}` });
    await row.waitFor();
    expect(await row.getByRole('rowheader').textContent()).toBe('יצירת מפתח API');
    expect(await row.textContent()).toContain(demoOwner.name);
    await expectNoAxeViolations(page);

    // Narrowed to the front desk: the owner's action is not among theirs.
    const who = page.getByRole('combobox', { name: 'מי' });
    await who.selectOption({ label: demoFrontDesk.name });
    await page
      .getByText('אין פעולות שמתאימות לסינון.')
      .or(table.getByRole('row').nth(1))
      .first()
      .waitFor();
    expect(await row.count()).toBe(0);
    // And to the owner, in the API keys' area: it is back.
    await who.selectOption({ label: demoOwner.name });
    await page.getByRole('combobox', { name: 'תחום' }).selectOption({ label: 'מפתחות API' });
    await row.waitFor();
    expect(await table.getByRole('rowheader').allTextContents()).not.toContain('קביעת תור');
    await expectNoAxeViolations(page);

    const english = await signedInDeskPage(browser(), demoOwner, { lang: 'en' });
    english.context.setDefaultTimeout(10_000);
    await open(english.page, '/audit', 'Audit log');
    await english.page
      .getByRole('table', { name: 'Actions, newest first' })
      .getByRole('row')
      .filter({ hasText: `name: ${name}` })
      .waitFor();
    await expectNoAxeViolations(english.page);
    await english.context.close();

    // Tidy: the key made for this test goes.
    const revoked = await deskFetch(page, `/api/integration/api-keys/${created.body.id}`, {
      method: 'DELETE',
      // deskFetch says the body is JSON: an empty one would be refused.
      body: {},
    });
    expect(revoked.status).toBe(204);
    await context.close();
  }, 90_000);

  it('front desk reads that these pages are for owners, and the API refuses them', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoFrontDesk);
    context.setDefaultTimeout(10_000);
    await open(page, '/problems', 'לבעלי המרפאה בלבד');
    await open(page, '/audit', 'לבעלי המרפאה בלבד');
    expect((await deskFetch(page, '/api/integration/message-failures')).status).toBe(403);
    await context.close();
  }, 60_000);
});
