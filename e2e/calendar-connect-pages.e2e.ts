import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, newPage, useBrowser } from './support/browser';
import { seedClinicWithKey } from './support/connections';
import { freePort, freshDataDir, startServer, type RunningServer } from './support/server';

// The caregiver's connection link, in real Chromium against the demo build: the link's page, the
// stand-in's consent, the choice of calendar, done. Its own server, so PUBLIC_ORIGIN is the address
// the browser reaches (Google sends the browser back there).
const browser = useBrowser();
let server: RunningServer | undefined;
let apiKey = '';

beforeAll(async () => {
  const dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  const port = String(await freePort());
  server = await startServer({
    DATA_DIR: dataDir,
    PORT: port,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** A link for one of the demo clinic's caregivers (`fromLast`: 0 the last, 1 the one before). */
async function linkFor(fromLast: number): Promise<string> {
  const base = server?.url ?? '';
  const caregivers = (await (
    await fetch(`${base}/api/integration/caregivers`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })
  ).json()) as { id: number }[];
  const caregiverId = caregivers[caregivers.length - 1 - fromLast]?.id ?? 0;
  const created = await fetch(
    `${base}/api/integration/caregivers/${caregiverId}/calendar-connection`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'google' }),
    },
  );
  expect(created.status).toBe(201);
  return ((await created.json()) as { url: string }).url;
}

describe('connecting a caregiver’s calendar by link', () => {
  for (const lang of ['he', 'en'] as const) {
    it(`link, consent, choice and done, accessible (${lang})`, async () => {
      const url = await linkFor(lang === 'he' ? 0 : 1);
      const { context, page } = await newPage(browser(), { viewport: 'mobile' });
      try {
        await page.goto(lang === 'en' ? `${url}?lang=en` : url);
        await expect
          .poll(() => page.locator('html').getAttribute('dir'))
          .toBe(lang === 'he' ? 'rtl' : 'ltr');
        await expectNoAxeViolations(page);
        await page
          .getByRole('button', { name: lang === 'he' ? 'המשך ל-Google' : 'Continue to Google' })
          .click();
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        await expectNoAxeViolations(page);
        await page.getByRole('button', { name: 'Allow' }).click();
        const legend = lang === 'he' ? 'יומן' : 'Calendar';
        await page.getByRole('group', { name: legend }).waitFor();
        await expectNoAxeViolations(page);
        // The read-only calendar is shown and cannot be chosen.
        await expect
          .poll(() => page.getByRole('radio', { name: /חגים בישראל/ }).isDisabled())
          .toBe(true);
        await page.getByRole('radio', { name: /משמרות במרפאה/ }).check();
        await page
          .getByRole('button', { name: lang === 'he' ? 'חיבור היומן' : 'Connect the calendar' })
          .click();
        const done = lang === 'he' ? 'היומן חובר' : 'Calendar connected';
        if (lang === 'en') {
          // The calendar went to the Hebrew run's caregiver: this one is told, and chooses again.
          await page.getByRole('alert').waitFor();
          await expectNoAxeViolations(page);
          await page.getByRole('radio', { name: /caregiver@demo-google\.example/ }).check();
          await page.getByRole('button', { name: 'Connect the calendar' }).click();
        }
        await page.getByRole('heading', { name: done }).waitFor();
        await expectNoAxeViolations(page);
      } finally {
        await context.close();
      }
    }, 90_000);
  }
});
