import type { WaitlistSlot } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { formatDate, formatInstant, slotsByDate, slotTime } from './waitlist-format';

const slot = (start: string, inPart = true, offered = false): WaitlistSlot => ({
  start,
  end: start,
  in_part_of_day: inPart,
  offered,
});

describe('the waitlist page’s times', () => {
  it('groups slots by clinic date, leaving out other parts of the day unless asked', () => {
    const slots = [
      slot('2027-03-28T09:00:00+03:00'),
      slot('2027-03-28T13:00:00+03:00', false),
      slot('2027-03-29T09:30:00+03:00', true, true),
      slot('2027-03-30T14:00:00+03:00', false),
    ];
    expect(
      slotsByDate(slots, false).map((d) => [d.date, d.slots.map((s) => slotTime(s.start))]),
    ).toEqual([
      ['2027-03-28', ['09:00']],
      ['2027-03-29', ['09:30']],
    ]);
    expect(slotsByDate(slots, true).map((d) => [d.date, d.slots.length])).toEqual([
      ['2027-03-28', 2],
      ['2027-03-29', 1],
      ['2027-03-30', 1],
    ]);
  });

  it('reads dates and instants in the clinic’s calendar and zone', () => {
    expect(formatDate('2027-03-28', 'en')).toBe('Sun 28 Mar');
    // 23:30 UTC is already the next day in Israel.
    expect(formatInstant('2027-03-27T23:30:00Z', 'Asia/Jerusalem', 'en')).toBe(
      '28 Mar 2027, 02:30',
    );
  });
});
