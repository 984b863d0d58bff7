import { openingHoursSchema, type OpeningHours } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import {
  copyToOpenDays,
  formPathOf,
  hoursFormOf,
  openDays,
  openingHoursOf,
  setDayOpen,
  setDayTime,
} from './hours-form';
import { leadTimeOf, minutesOf, parseAmount } from './lead-times';

const closedWeek: OpeningHours['days'] = {
  sunday: null,
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
};

describe('the opening-hours editor', () => {
  it('reads the stored hours, offering a closed day the hours of the open day before it', () => {
    const form = hoursFormOf({
      title: 'שעות קבלה',
      days: {
        ...closedWeek,
        sunday: { start: '08:00', end: '16:00' },
        tuesday: { start: '12:00', end: '20:00' },
      },
    });
    expect(form.title).toBe('שעות קבלה');
    expect(openDays(form)).toEqual(['sunday', 'tuesday']);
    expect(form.days.monday).toEqual({ open: false, start: '08:00', end: '16:00' });
    expect(form.days.friday).toEqual({ open: false, start: '12:00', end: '20:00' });
    // A clinic closed all week starts from a usual working day.
    expect(hoursFormOf({ title: null, days: closedWeek }).days.sunday).toEqual({
      open: false,
      start: '08:00',
      end: '16:00',
    });
  });

  it('writes closed days as null and an empty title as none, valid for the shared schema', () => {
    let form = hoursFormOf({ title: null, days: closedWeek });
    form = setDayOpen(form, 'sunday', true);
    form = setDayTime(form, 'sunday', 'start', '07:30');
    form = setDayOpen(form, 'thursday', true);
    form = { ...form, title: '   ' };
    const hours = openingHoursOf(form);
    expect(hours).toEqual({
      title: null,
      days: {
        ...closedWeek,
        sunday: { start: '07:30', end: '16:00' },
        thursday: { start: '08:00', end: '16:00' },
      },
    });
    expect(openingHoursSchema.safeParse(hours).success).toBe(true);
  });

  it('keeps a closed day’s hours for when it opens again, and round-trips', () => {
    let form = hoursFormOf({
      title: 'שעות פתיחה',
      days: { ...closedWeek, monday: { start: '09:00', end: '13:00' } },
    });
    form = setDayOpen(form, 'monday', false);
    expect(openingHoursOf(form).days.monday).toBeNull();
    form = setDayOpen(form, 'monday', true);
    expect(openingHoursOf(form).days.monday).toEqual({ start: '09:00', end: '13:00' });
    expect(hoursFormOf(openingHoursOf(form))).toEqual(form);
  });

  it('copies one day’s hours to every other open day only', () => {
    let form = hoursFormOf({
      title: null,
      days: {
        ...closedWeek,
        sunday: { start: '08:00', end: '14:00' },
        monday: { start: '10:00', end: '18:00' },
        wednesday: { start: '10:00', end: '18:00' },
      },
    });
    form = copyToOpenDays(form, 'sunday');
    const hours = openingHoursOf(form).days;
    expect(hours.monday).toEqual({ start: '08:00', end: '14:00' });
    expect(hours.wednesday).toEqual({ start: '08:00', end: '14:00' });
    expect(hours.tuesday).toBeNull();
    expect(hours.saturday).toBeNull();
  });

  it('names a bad day as the shared schema and the server do', () => {
    let form = hoursFormOf({ title: null, days: closedWeek });
    form = setDayOpen(form, 'monday', true);
    form = setDayTime(form, 'monday', 'end', '07:00');
    form = setDayOpen(form, 'friday', true);
    form = setDayTime(form, 'friday', 'start', '');
    const result = openingHoursSchema.safeParse(openingHoursOf(form));
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(['days.monday.end', 'days.friday.start']);
    expect(formPathOf('opening_hours.days.monday.end')).toBe('days.monday.end');
    expect(formPathOf('opening_hours.title')).toBe('title');
  });
});

describe('reminder lead times', () => {
  it('show in the largest whole unit and convert back to minutes', () => {
    expect(leadTimeOf(1440)).toEqual({ amount: '1', unit: 'days' });
    expect(leadTimeOf(2880)).toEqual({ amount: '2', unit: 'days' });
    expect(leadTimeOf(120)).toEqual({ amount: '2', unit: 'hours' });
    expect(leadTimeOf(90)).toEqual({ amount: '90', unit: 'minutes' });
    for (const minutes of [30, 90, 120, 1440, 2880, 10080]) {
      expect(minutesOf(leadTimeOf(minutes))).toBe(minutes);
    }
    expect(minutesOf({ amount: '1.5', unit: 'hours' })).toBe(90);
  });

  it('leave an empty or non-numeric amount to the schema (NaN)', () => {
    expect(minutesOf({ amount: '', unit: 'hours' })).toBeNaN();
    expect(minutesOf({ amount: 'abc', unit: 'days' })).toBeNaN();
    expect(parseAmount(' 3 ')).toBe(3);
  });
});
