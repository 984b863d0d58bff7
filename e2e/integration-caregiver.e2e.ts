import fs from 'node:fs';
import { withIdCheckDigit, type DevMessage } from '@marpe/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, newPage, settled, useBrowser } from './support/browser';
import { seedClinicWithKey } from './support/connections';
import { freshDataDir, repoRoot, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
let server: RunningServer;
let dataDir: string;
let apiKey: string;

// A server of its own: the clinic's software adds a caregiver through the integration API.
beforeAll(async () => {
  dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function integration<T>(method: string, path: string, body: object): Promise<T> {
  const response = await fetch(`${server.url}/api/integration${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as T;
}

/** The caregiver example of docs/integration.md, as a clinic developer would copy it. */
function guideCaregiver(): Record<string, unknown> {
  const guide = fs.readFileSync(`${repoRoot}/docs/integration.md`, 'utf8');
  const block = /### Caregivers[\s\S]*?```json\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('the guide has no caregiver example');
  const caregiver = JSON.parse(block) as Record<string, unknown>;
  delete caregiver.id;
  return caregiver;
}

async function codeFor(phone: string, before: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${server.url}/api/dev/messages`);
    const messages = ((await response.json()) as DevMessage[]).filter((m) => m.to === phone);
    const code = messages.length > before ? /#(\d{6})\s*$/.exec(messages[0]?.body ?? '') : null;
    if (code?.[1]) return code[1];
    if (Date.now() > deadline) throw new Error(`no code sent to ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a caregiver made as the integration guide's example shows", () => {
  it('is bookable: a patient picks it and books a time', async () => {
    const type = await integration<{ id: number }>('POST', '/appointment-types', {
      name: 'ייעוץ אורתודונטי',
      duration_minutes: 30,
    });
    const example = guideCaregiver();
    expect(example.google_calendar_sync_calendar_id).toBeNull();
    const caregiver = await integration<{ id: number; name: string }>('POST', '/caregivers', {
      ...example,
      appointment_type_ids: [type.id],
    });

    const { context, page } = await newPage(browser(), { viewport: 'desktop' });
    await page.goto(
      `${server.url}/booking/1?caregiverId=${caregiver.id}&appointmentTypeId=${type.id}`,
    );
    // A new patient (the demo ones have bookings of their own): sign-up, then the code.
    const phone = '0547000316';
    const before = (
      (await (await fetch(`${server.url}/api/dev/messages`)).json()) as DevMessage[]
    ).filter((m) => m.to === phone).length;
    await page.getByRole('textbox', { name: 'מספר תעודת זהות' }).fill(withIdCheckDigit('31622776'));
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(phone);
    await page.getByRole('button', { name: 'המשך' }).click();
    await page.getByRole('textbox', { name: 'שם פרטי' }).fill('נעמה');
    await page.getByRole('textbox', { name: 'שם משפחה' }).fill('ברק');
    await page.getByRole('button', { name: 'המשך' }).click();
    await page.getByRole('textbox', { name: 'קוד אימות' }).fill(await codeFor(phone, before));

    const chosen = page
      .getByRole('region', { name: 'בחירת מטפל' })
      .getByRole('button', { pressed: true });
    expect(await chosen.innerText()).toContain(caregiver.name);
    await page.getByRole('radiogroup', { name: 'שעות פנויות' }).getByRole('radio').first().check();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'אישור התור' }).click();
    await settled(page, '[role="dialog"]');
    await page.getByRole('dialog').getByRole('button', { name: 'אישור התור' }).click();
    await page.waitForURL(`${server.url}/booking/1/confirmation`);
    await page.getByRole('heading', { level: 1, name: 'התור נקבע בהצלחה' }).waitFor();
    await context.close();
  }, 60_000);
});
