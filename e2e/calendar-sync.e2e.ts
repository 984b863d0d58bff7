import { describe, expect, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;
const browser = useBrowser();

interface ClinicCaregiver {
  id: number;
  name: string;
  first_available_slot: { start: string } | null;
}

/** An ISO time with the clinic's offset as clinic wall time, 'YYYY-MM-DD HH:mm'. */
const wall = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

describe('Google Calendar sync (the demo stand-in)', () => {
  // No login: the clinic page shows each caregiver's next free time to anyone, from the same
  // engine and mirror as the booking steps (and the suite's login codes are counted per address).
  it('an event the front desk adds to the caregiver’s calendar takes that time off the clinic page', async () => {
    const clinic = (await (await fetch(`${baseUrl}/api/clinic/1`)).json()) as {
      caregivers: ClinicCaregiver[];
    };
    const caregiver = clinic.caregivers.find((c) => c.first_available_slot !== null);
    const start = caregiver?.first_available_slot?.start ?? '';
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);

    const { context, page } = await newPage(browser(), { viewport: 'mobile' });
    await page.goto(`${baseUrl}/clinic/1`);
    const card = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: caregiver?.name ?? '' }),
    });
    const before = (await card.textContent()) ?? '';
    expect(before).toContain('התור הפנוי הקרוב');

    // The front desk books a phone caller into that hour, in the caregiver's Google Calendar.
    const hour = Number(start.slice(11, 13)) + 1;
    const added = await fetch(`${baseUrl}/api/dev/calendar-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        caregiverId: caregiver?.id,
        start: wall(start),
        end: `${start.slice(0, 10)} ${String(hour).padStart(2, '0')}:${start.slice(14, 16)}`,
      }),
    });
    expect(added.status).toBe(200);

    // Google pushes the change, Marpe syncs it: within seconds the page offers a later time.
    const deadline = Date.now() + 10_000;
    let after = before;
    while (after === before && Date.now() < deadline) {
      await page.waitForTimeout(250);
      await page.reload();
      after = (await card.textContent()) ?? '';
    }
    expect(after).not.toBe(before);
    expect(after).toContain('התור הפנוי הקרוב');
    const now = (await (await fetch(`${baseUrl}/api/clinic/1`)).json()) as {
      caregivers: ClinicCaregiver[];
    };
    const next = now.caregivers.find((c) => c.id === caregiver?.id)?.first_available_slot?.start;
    expect(Date.parse(next ?? '')).toBeGreaterThanOrEqual(Date.parse(start) + 60 * 60_000);
    await context.close();
  });
});
