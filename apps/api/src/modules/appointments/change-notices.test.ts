import { describe, expect, it } from 'vitest';
import { NOTICE_URGENT_WITHIN_MS } from '../messaging/quiet-hours-at-send.js';
import { noticeSendAt } from './change-notices.js';

const quiet = {
  quietStart: '21:00',
  quietEnd: '08:00',
  observeRestDays: false,
  timezone: 'Asia/Jerusalem',
};
const at = (local: string) => Date.parse(`${local}+02:00`);

describe('noticeSendAt', () => {
  it('is now outside quiet hours', () => {
    const now = at('2027-03-24T15:00:00');
    expect(noticeSendAt(now, at('2027-03-25T09:00:00'), quiet)).toBe(now);
  });

  it('waits for the end of quiet hours when the appointment is well after it', () => {
    expect(noticeSendAt(at('2027-03-24T23:00:00'), at('2027-03-25T12:00:00'), quiet)).toBe(
      at('2027-03-25T08:00:00'),
    );
    // Just far enough: three hours after quiet hours end.
    expect(noticeSendAt(at('2027-03-24T23:00:00'), at('2027-03-25T11:00:00'), quiet)).toBe(
      at('2027-03-25T08:00:00'),
    );
    expect(NOTICE_URGENT_WITHIN_MS).toBe(3 * 3_600_000);
  });

  it('goes at once when the end of quiet hours would come too close to the appointment', () => {
    const now = at('2027-03-24T23:00:00');
    expect(noticeSendAt(now, at('2027-03-25T08:00:00'), quiet)).toBe(now);
    expect(noticeSendAt(now, at('2027-03-25T10:59:00'), quiet)).toBe(now);
  });

  it('keeps out of Shabbat when the clinic observes it', () => {
    // Friday 2027-03-26 at 19:00 (summer time since 02:00): Shabbat until Saturday night.
    const now = Date.parse('2027-03-26T19:00:00+03:00');
    const rest = { ...quiet, observeRestDays: true };
    const sendAt = noticeSendAt(now, Date.parse('2027-03-29T09:00:00+03:00'), rest);
    expect(sendAt).toBeGreaterThan(Date.parse('2027-03-27T19:00:00+03:00'));
    expect(sendAt).toBeLessThan(Date.parse('2027-03-27T21:00:00+03:00'));
    // Without Shabbat: quiet hours only, ending Saturday 08:00.
    expect(noticeSendAt(now + 3 * 3_600_000, Date.parse('2027-03-29T09:00:00+03:00'), quiet)).toBe(
      Date.parse('2027-03-27T08:00:00+03:00'),
    );
  });

  it('has no quiet hours when start and end are equal', () => {
    const now = at('2027-03-24T23:00:00');
    expect(noticeSendAt(now, at('2027-03-25T12:00:00'), { ...quiet, quietEnd: '21:00' })).toBe(now);
  });
});
