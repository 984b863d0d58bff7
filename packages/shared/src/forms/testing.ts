/** fast-check arbitraries shared by the form tests (not exported from the package). */
import fc from 'fast-check';
import type { CalendarDate } from './dates.js';
import { daysInMonth } from './dates.js';

export const calendarDate = (minYear = 1900, maxYear = 2100): fc.Arbitrary<CalendarDate> =>
  fc
    .tuple(
      fc.integer({ min: minYear, max: maxYear }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
    )
    .map(([year, month, day]) => ({ year, month, day: Math.min(day, daysInMonth(year, month)) }));

/** Days added with the platform's own calendar, independent of the code under test. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(0);
  d.setUTCFullYear(date.year, date.month - 1, date.day + days);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export const dmy = (date: CalendarDate): string =>
  `${String(date.day).padStart(2, '0')}/${String(date.month).padStart(2, '0')}/${date.year}`;
