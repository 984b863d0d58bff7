import { describe, expect, it } from 'vitest';
import { monthName } from '../../lib/clinic-time';
import { dayOfMonth, groupByMonth } from './date-groups';

describe('the date picker’s months', () => {
  it('groups the dates by month, in order', () => {
    expect(groupByMonth(['2026-11-29', '2026-11-30', '2026-12-01', '2027-01-03'])).toEqual([
      { month: '2026-11', dates: ['2026-11-29', '2026-11-30'] },
      { month: '2026-12', dates: ['2026-12-01'] },
      { month: '2027-01', dates: ['2027-01-03'] },
    ]);
    expect(groupByMonth([])).toEqual([]);
  });

  it('names a month with its year, in Hebrew and English', () => {
    expect(monthName('2026-12', 'he')).toBe('דצמבר 2026');
    expect(monthName('2027-01', 'en')).toBe('January 2027');
  });

  it('shows the day of the month without a leading zero', () => {
    expect(dayOfMonth('2026-12-01')).toBe('1');
    expect(dayOfMonth('2026-12-28')).toBe('28');
  });
});
