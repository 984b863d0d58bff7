import { describe, expect, it } from 'vitest';
import { openingHoursSchema, weekDays } from './clinic.js';

const open = { start: '08:00', end: '19:00' };
const week = Object.fromEntries(weekDays.map((d) => [d, open])) as Record<
  (typeof weekDays)[number],
  typeof open | null
>;

describe('openingHoursSchema', () => {
  it('accepts a week with closed days and a title', () => {
    const hours = { title: 'שעות פעילות', days: { ...week, saturday: null } };
    expect(openingHoursSchema.parse(hours)).toEqual(hours);
  });

  it('accepts a null title', () => {
    expect(openingHoursSchema.safeParse({ title: null, days: week }).success).toBe(true);
  });

  it.each([
    ['a missing day', { title: null, days: { ...week, friday: undefined } }],
    ['a bad time', { title: null, days: { ...week, monday: { start: '8:00', end: '19:00' } } }],
    ['24:00', { title: null, days: { ...week, monday: { start: '08:00', end: '24:00' } } }],
    [
      'start after end',
      { title: null, days: { ...week, monday: { start: '19:00', end: '08:00' } } },
    ],
    [
      'start equal to end',
      { title: null, days: { ...week, monday: { start: '08:00', end: '08:00' } } },
    ],
  ])('refuses %s', (_label, value) => {
    expect(openingHoursSchema.safeParse(value).success).toBe(false);
  });
});
