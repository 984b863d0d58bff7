import type { IntegrationCaregiver } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { zonedInstant } from './clinic-time';
import { hoursToShow, isWithin, openIntervals, workingMinutes } from './working-hours';

const TZ = 'Asia/Jerusalem';
const none = {
  sunday: [],
  monday: [],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
};

const rules = (overrides: Partial<IntegrationCaregiver['marpe_rules']> = {}) => ({
  slot_step_minutes: null,
  min_notice_minutes: null,
  booking_horizon_days: null,
  weekly_hours: {
    ...none,
    // Wednesday and Thursday: a morning and an afternoon.
    wednesday: [
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ],
    thursday: [{ start: '09:00', end: '15:00' }],
  },
  breaks: [
    { day: null, start: '10:00', end: '10:15' },
    { day: 'thursday' as const, start: '12:00', end: '12:30' },
  ],
  exceptions: [],
  ...overrides,
});

const h = (hh: number, mm = 0) => hh * 60 + mm;

describe("the diary's working hours", () => {
  it("takes the week day's hours less that day's breaks and every day's", () => {
    // 2027-03-24 is a Wednesday.
    expect(workingMinutes(rules(), '2027-03-24')).toEqual([
      [h(8), h(10)],
      [h(10, 15), h(12)],
      [h(13), h(17)],
    ]);
    expect(workingMinutes(rules(), '2027-03-25')).toEqual([
      [h(9), h(10)],
      [h(10, 15), h(12)],
      [h(12, 30), h(15)],
    ]);
    expect(workingMinutes(rules(), '2027-03-26')).toEqual([]);
  });

  it("lets a dated exception replace the day's hours (none: a day off), breaks still cut", () => {
    const r = rules({
      exceptions: [
        { date: '2027-03-24', note: 'כנס', hours: [] },
        { date: '2027-03-26', note: null, hours: [{ start: '09:00', end: '11:00' }] },
      ],
    });
    expect(workingMinutes(r, '2027-03-24')).toEqual([]);
    expect(workingMinutes(r, '2027-03-26')).toEqual([
      [h(9), h(10)],
      [h(10, 15), h(11)],
    ]);
  });

  it("places the hours in the clinic's zone and shuts the clinic's closed dates", () => {
    const dates = ['2027-03-24', '2027-03-25'];
    const open = openIntervals(rules(), dates, TZ);
    expect(isWithin(open, zonedInstant('2027-03-24', '08:00', TZ))).toBe(true);
    expect(isWithin(open, zonedInstant('2027-03-24', '07:45', TZ))).toBe(false);
    expect(isWithin(open, zonedInstant('2027-03-24', '10:00', TZ))).toBe(false);
    expect(isWithin(open, zonedInstant('2027-03-24', '12:30', TZ))).toBe(false);
    expect(isWithin(open, zonedInstant('2027-03-24', '16:45', TZ))).toBe(true);
    expect(isWithin(open, zonedInstant('2027-03-24', '17:00', TZ))).toBe(false);
    // The same wall clock in New York is another instant: 08:00 there is 15:00 in Israel.
    expect(isWithin(open, zonedInstant('2027-03-24', '08:00', 'America/New_York'))).toBe(true);
    expect(isWithin(open, zonedInstant('2027-03-24', '11:00', 'America/New_York'))).toBe(false);
    const closed = openIntervals(rules(), dates, TZ, new Set(['2027-03-25']));
    expect(isWithin(closed, zonedInstant('2027-03-25', '09:30', TZ))).toBe(false);
    expect(isWithin(closed, zonedInstant('2027-03-24', '09:30', TZ))).toBe(true);
  });

  it('keeps wall-clock hours on the day the clocks go forward', () => {
    const r = rules({ weekly_hours: { ...none, friday: [{ start: '01:00', end: '05:00' }] } });
    const [interval] = openIntervals(r, ['2027-03-26'], TZ);
    // 01:00 at +02:00 to 05:00 at +03:00: three hours, not four.
    expect(interval && (interval.end - interval.start) / 3_600_000).toBe(3);
  });

  it('shows at least 08:00–18:00, and whatever the hours and appointments need', () => {
    expect(hoursToShow([])).toEqual({ from: 8, to: 18 });
    expect(hoursToShow([h(7, 30), h(19, 10)])).toEqual({ from: 7, to: 20 });
    expect(hoursToShow([h(9), h(12)])).toEqual({ from: 8, to: 18 });
  });
});
