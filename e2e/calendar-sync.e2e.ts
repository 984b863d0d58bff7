import { describe, expect, inject, it } from 'vitest';
import { newPage, useBrowser } from './support/browser';
import { messagesTo, waitForMessages, withCheckDigit } from './support/patients';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

// A phone no other e2e file uses (5 codes per phone an hour). One code here.
const patient = { idBase: '31415926', phone: '0546000391', firstName: 'יומן', lastName: 'בדיקה' };

describe('Google Calendar sync (the demo stand-in)', () => {
  it('an event the front desk adds to the caregiver’s calendar removes that time from the booking page', async () => {
    const { context, page } = await newPage(browser(), { viewport: 'mobile' });
    await page.goto(`${baseUrl}/login/1?next=booking`);
    await page
      .getByRole('textbox', { name: 'מספר תעודת זהות' })
      .fill(withCheckDigit(patient.idBase));
    await page.getByRole('textbox', { name: 'טלפון נייד' }).fill(patient.phone);
    await page.getByRole('button', { name: 'המשך' }).click();
    await page.getByRole('textbox', { name: 'שם פרטי' }).fill(patient.firstName);
    await page.getByRole('textbox', { name: 'שם משפחה' }).fill(patient.lastName);
    const before = (await messagesTo(patient.phone)).length;
    await page.getByRole('button', { name: 'המשך' }).click();
    const [message] = await waitForMessages(patient.phone, before + 1);
    const code = /#(\d{6})\s*$/.exec(message?.body ?? '')?.[1] ?? '';
    await page.getByRole('textbox', { name: 'קוד אימות' }).fill(code);
    await page.waitForURL(`${baseUrl}/booking/1`);

    await page.getByRole('combobox', { name: 'סוג התור' }).selectOption({ index: 1 });
    const caregiverStep = page.getByRole('region', { name: 'בחירת מטפל' });
    await caregiverStep.getByRole('button', { pressed: false }).first().click();
    const times = page.getByRole('radiogroup', { name: 'שעות פנויות' }).getByRole('radio');
    await times.first().waitFor();
    const offered = await times.evaluateAll((radios) =>
      radios.map((r) => r.getAttribute('value') ?? ''),
    );
    // A time in the middle of the list; its value is the slot's start with the clinic's offset,
    // so its first 16 characters are the clinic's wall time.
    const start = offered[Math.floor(offered.length / 2)] ?? '';
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const caregiverId = Number(new URL(page.url()).searchParams.get('caregiverId'));
    const end = offered[Math.floor(offered.length / 2) + 1] ?? '';

    // The front desk books a phone caller into that time, in the caregiver's Google Calendar.
    const wall = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    const added = await fetch(`${baseUrl}/api/dev/calendar-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caregiverId, start: wall(start), end: wall(end) }),
    });
    expect(added.status).toBe(200);

    // Google pushes the change, Marpe syncs it: within seconds the time is gone.
    const deadline = Date.now() + 10_000;
    let still = true;
    while (still && Date.now() < deadline) {
      await page.reload();
      await times.first().waitFor();
      const now = await times.evaluateAll((radios) =>
        radios.map((r) => r.getAttribute('value') ?? ''),
      );
      still = now.includes(start);
    }
    expect(still).toBe(false);
    await context.close();
  });
});
