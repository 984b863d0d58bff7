import { describe, expect, it } from 'vitest';
import {
  localParts,
  parseDate,
  stepDate,
  todayIn,
  visibleDates,
  windowOf,
  zonedInstant,
} from './clinic-time';

const TZ = 'Asia/Jerusalem';

describe("the diary's clinic time", () => {
  it('reads only real dates from the address', () => {
    expect(parseDate('2027-03-24')).toBe('2027-03-24');
    expect(parseDate('2027-02-30')).toBeNull();
    expect(parseDate('24/03/2027')).toBeNull();
    expect(parseDate(null)).toBeNull();
  });

  it("says today as the clinic's clock does, not the browser's", () => {
    // 23:30 in New York on the 23rd is 06:30 on the 24th in Israel.
    const now = Date.parse('2027-03-23T23:30:00-04:00');
    expect(todayIn('America/New_York', now)).toBe('2027-03-23');
    expect(todayIn(TZ, now)).toBe('2027-03-24');
  });

  it('shows a week from Sunday to Saturday, and steps a day or a week', () => {
    expect(visibleDates('week', '2027-03-24')).toEqual([
      '2027-03-21',
      '2027-03-22',
      '2027-03-23',
      '2027-03-24',
      '2027-03-25',
      '2027-03-26',
      '2027-03-27',
    ]);
    expect(visibleDates('week', '2027-03-21')[0]).toBe('2027-03-21');
    expect(visibleDates('day', '2027-03-24')).toEqual(['2027-03-24']);
    expect(stepDate('week', '2027-03-24', 1)).toBe('2027-03-31');
    expect(stepDate('day', '2027-03-31', 1)).toBe('2027-04-01');
    expect(stepDate('day', '2027-03-01', -1)).toBe('2027-02-28');
  });

  it("puts wall-clock times on the right instant across the clinic's DST change", () => {
    // Israel moves its clocks forward on Friday 2027-03-26 at 02:00.
    expect(new Date(zonedInstant('2027-03-25', '09:00', TZ)).toISOString()).toBe(
      '2027-03-25T07:00:00.000Z',
    );
    expect(new Date(zonedInstant('2027-03-26', '09:00', TZ)).toISOString()).toBe(
      '2027-03-26T06:00:00.000Z',
    );
    expect(new Date(zonedInstant('2027-03-25', '24:00', TZ)).toISOString()).toBe(
      '2027-03-25T22:00:00.000Z',
    );
    expect(localParts('2027-03-26T06:00:00Z', TZ)).toEqual({ date: '2027-03-26', time: '09:00' });
    expect(localParts(Date.parse('2027-03-25T22:30:00Z'), TZ)).toEqual({
      date: '2027-03-26',
      time: '00:30',
    });
  });

  it("asks the API for the view's dates and instants with the clinic's offsets", () => {
    expect(windowOf('week', '2027-03-24', TZ)).toEqual({
      dates: expect.any(Array),
      fromDate: '2027-03-21',
      toDate: '2027-03-27',
      from: '2027-03-21T00:00:00+02:00',
      to: '2027-03-28T00:00:00+03:00',
    });
    expect(windowOf('day', '2027-03-24', 'America/New_York')).toMatchObject({
      from: '2027-03-24T00:00:00-04:00',
      to: '2027-03-25T00:00:00-04:00',
    });
  });
});
