import type { ApiKey } from '@marpe/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, settled, useBrowser } from './support/browser';
import { deskFetch, demoFrontDesk, demoOwner, signedInDeskPage } from './support/desk';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

async function openIntegrations(page: Page, title: string) {
  await page.goto(`${baseUrl}/desk/integrations`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/** Waits for a dialog's transition to end, then checks the page with it. */
async function dialogIsClean(page: Page) {
  await settled(page, '[role="dialog"]');
  await expectNoAxeViolations(page);
}

describe('the desk: integrations (owners)', () => {
  it('an owner creates an API key, sees it once, and revokes it; every dialog axe-clean', async () => {
    const { context, page } = await signedInDeskPage(browser(), demoOwner);
    context.setDefaultTimeout(10_000);
    await openIntegrations(page, 'חיבורים למערכות');
    await page.getByRole('heading', { level: 2, name: 'מפתחות API' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Webhooks' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'יומנים מנויים (iCalendar)' }).waitFor();
    await page.getByRole('table', { name: 'יומנים מנויים (iCalendar)' }).waitFor();
    await expectNoAxeViolations(page);

    // Create: the name is checked at the field, then the key is shown once, copied.
    await page.getByRole('button', { name: 'יצירת מפתח' }).click();
    const form = page.getByRole('dialog', { name: 'יצירת מפתח API' });
    await dialogIsClean(page);
    await form.getByRole('button', { name: 'יצירת המפתח' }).click();
    await form.getByText('שדה חובה').waitFor();
    await expectNoAxeViolations(page);
    const name = `מערכת e2e ${Date.now()}`;
    await form.getByRole('textbox', { name: 'שם' }).fill(name);
    await form.getByRole('button', { name: 'יצירת המפתח' }).click();
    const shown = page.getByRole('dialog', { name: 'המפתח מוכן' });
    await shown.getByText('לא תוכלו לראות את זה שוב').waitFor();
    const key = await shown.getByRole('textbox', { name: 'מפתח API' }).inputValue();
    expect(key).toMatch(/^mrp_[\w-]{43}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await shown.getByRole('button', { name: 'העתקה' }).click();
    await shown.getByText('הועתק.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByText(`המפתח "${name}" נוצר`).waitFor();
    await expectNoAxeViolations(page);
    await shown.getByRole('button', { name: 'סיום' }).click();
    await shown.waitFor({ state: 'detached' });

    // The key works, as the clinic's software would call with it.
    const asKey = await page.evaluate(
      async (bearer) =>
        (
          await fetch('/api/integration/api-keys', {
            headers: { authorization: `Bearer ${bearer}` },
          })
        ).status,
      key,
    );
    expect(asKey).toBe(200);

    // Revoke it: asked first, then listed as revoked and refused.
    const keys = page.getByRole('table', { name: 'מפתחות API' });
    await keys.getByRole('button', { name: `ביטול ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `לבטל את המפתח "${name}"?` });
    await dialogIsClean(page);
    await confirm.getByRole('button', { name: 'ביטול המפתח' }).click();
    await page.getByText(`המפתח "${name}" בוטל`).waitFor();
    await keys.getByRole('row', { name: new RegExp(`${name}.*בוטל ב-`) }).waitFor();
    const listed = await deskFetch<ApiKey[]>(page, '/api/integration/api-keys');
    expect(listed.body.find((k) => k.name === name)?.revoked_at).not.toBeNull();

    // The webhook and calendar-feed dialogs are clean too.
    await page.getByRole('button', { name: 'הוספת כתובת' }).click();
    const webhook = page.getByRole('dialog', { name: 'הוספת כתובת webhook' });
    await dialogIsClean(page);
    await webhook.getByRole('radio', { name: 'רק האירועים שאבחר' }).check();
    await webhook.getByRole('button', { name: 'הוספת הכתובת' }).click();
    await webhook.getByText('בחרו לפחות אירוע אחד, או את כל האירועים').waitFor();
    await expectNoAxeViolations(page);
    await webhook.getByRole('button', { name: 'ביטול' }).click();
    await webhook.waitFor({ state: 'detached' });
    const feeds = page.getByRole('table', { name: 'יומנים מנויים (iCalendar)' });
    await feeds
      .getByRole('button', { name: /^(יצירת כתובת|כתובת חדשה) / })
      .first()
      .click();
    await dialogIsClean(page);
    await page.getByRole('dialog').getByRole('button', { name: 'ביטול' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await context.close();
  }, 60_000);

  it('reads in English, axe-clean; front desk reads that it is for owners', async () => {
    const en = await signedInDeskPage(browser(), demoOwner, { lang: 'en' });
    en.context.setDefaultTimeout(10_000);
    await openIntegrations(en.page, 'Integrations');
    await en.page.getByRole('table', { name: 'Calendar feeds' }).waitFor();
    await expectNoAxeViolations(en.page);
    await en.page.getByRole('button', { name: 'Create a key' }).click();
    await en.page.getByRole('dialog', { name: 'Create an API key' }).waitFor();
    await dialogIsClean(en.page);
    await en.context.close();

    const desk = await signedInDeskPage(browser(), demoFrontDesk);
    desk.context.setDefaultTimeout(10_000);
    await desk.page.goto(`${baseUrl}/desk/integrations`);
    await desk.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await desk.page.getByRole('heading', { name: 'מפתחות API' }).count()).toBe(0);
    const refused = await deskFetch(desk.page, '/api/integration/api-keys');
    expect(refused.status).toBe(403);
    await desk.context.close();
  }, 60_000);
});
