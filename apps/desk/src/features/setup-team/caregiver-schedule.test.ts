import { createCaregiverBodySchema, type IntegrationCaregiver } from '@marpe/shared';
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { validate } from '../../lib/field-errors';
import {
  clinicToday,
  copyDayToWorkingDays,
  exceptionProblems,
  hasWeeklyHours,
  hoursForNewDay,
  moved,
  ruleValueOf,
  scheduleBodyOf,
  scheduleErrorsOf,
  scheduleFormOf,
  setDayWorks,
  sortOrderChanges,
} from './caregiver-schedule';

const noHours = {
  sunday: [],
  monday: [],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
};

const rules: IntegrationCaregiver['marpe_rules'] = {
  slot_step_minutes: null,
  min_notice_minutes: 60,
  booking_horizon_days: null,
  weekly_hours: {
    ...noHours,
    sunday: [
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ],
    monday: [{ start: '09:00', end: '15:00' }],
  },
  breaks: [
    { day: 'monday', start: '11:00', end: '11:30' },
    { day: null, start: '10:00', end: '10:15' },
  ],
  exceptions: [
    { date: '2031-04-10', note: 'כנס', hours: [] },
    { date: '2031-04-12', note: null, hours: [{ start: '08:00', end: '10:00' }] },
  ],
};

describe('a caregiver’s schedule in the form', () => {
  let he: TFunction;
  beforeAll(async () => {
    he = (await initDeskI18n('he')).t;
  });

  it('reads the API’s schedule into days, every-day breaks and exceptions, and back', () => {
    const form = scheduleFormOf(rules);
    expect(form.hours.sunday).toHaveLength(2);
    expect(form.dayBreaks.monday).toEqual([{ start: '11:00', end: '11:30' }]);
    expect(form.everyDayBreaks).toEqual([{ start: '10:00', end: '10:15' }]);
    expect(form.exceptions[0]).toEqual({
      date: '2031-04-10',
      note: 'כנס',
      dayOff: true,
      hours: [],
    });
    expect(form.exceptions[1]?.dayOff).toBe(false);

    const body = scheduleBodyOf(form);
    expect(body.weekly_hours).toEqual(rules.weekly_hours);
    // Every day's breaks go first, then each week day's.
    expect(body.breaks).toEqual([
      { day: null, start: '10:00', end: '10:15' },
      { day: 'monday', start: '11:00', end: '11:30' },
    ]);
    expect(body.exceptions).toEqual([
      { date: '2031-04-10', note: 'כנס', hours: [] },
      { date: '2031-04-12', note: null, hours: [{ start: '08:00', end: '10:00' }] },
    ]);
  });

  it('a new caregiver starts with no hours', () => {
    const form = scheduleFormOf(null);
    expect(hasWeeklyHours(scheduleBodyOf(form).weekly_hours)).toBe(false);
    expect(hasWeeklyHours(rules.weekly_hours)).toBe(true);
  });

  it('a day turned on takes the nearest earlier working day’s hours; turned off, it drops its breaks', () => {
    const form = scheduleFormOf(rules);
    expect(hoursForNewDay(form, 'tuesday')).toEqual([{ start: '09:00', end: '15:00' }]);
    // Saturday's nearest earlier working day, going back around the week, is Monday.
    expect(hoursForNewDay(form, 'saturday')).toEqual([{ start: '09:00', end: '15:00' }]);
    expect(hoursForNewDay(scheduleFormOf(null), 'sunday')).toEqual([
      { start: '09:00', end: '17:00' },
    ]);
    const off = setDayWorks(form, 'monday', false);
    expect(off.hours.monday).toEqual([]);
    expect(scheduleBodyOf(off).breaks).toEqual([{ day: null, start: '10:00', end: '10:15' }]);
    const on = setDayWorks(off, 'wednesday', true);
    expect(on.hours.wednesday).toEqual(form.hours.sunday);
  });

  it('copies a day to the other working days only', () => {
    const form = copyDayToWorkingDays(scheduleFormOf(rules), 'monday');
    expect(form.hours.sunday).toEqual([{ start: '09:00', end: '15:00' }]);
    expect(form.dayBreaks.sunday).toEqual([{ start: '11:00', end: '11:30' }]);
    expect(form.hours.tuesday).toEqual([]);
  });

  it('puts the schema’s errors on the fields that caused them', () => {
    const form = scheduleFormOf(rules);
    form.hours.monday = [
      { start: '09:00', end: '15:00' },
      { start: '14:00', end: '13:00' },
    ];
    form.dayBreaks.monday.push({ start: '11:15', end: '12:00' });
    form.exceptions = form.exceptions.map((e, i) =>
      i === 1 ? { ...e, hours: [{ start: '10:00', end: '09:00' }] } : e,
    );
    const checked = validate(he, createCaregiverBodySchema, {
      name: 'ד"ר',
      license_number: '1',
      marpe_rules: scheduleBodyOf(form),
    });
    expect(checked.errors).not.toBeNull();
    const errors = scheduleErrorsOf(checked.errors ?? {}, form);
    expect(errors).toEqual({
      'hours.monday.1.end': 'שעת הסיום חייבת להיות אחרי שעת ההתחלה',
      // The third break sent is Monday's second: it overlaps Monday's first.
      'breaks.monday.1': 'חופף לטווח אחר',
      'exceptions.1.hours.0.end': 'שעת הסיום חייבת להיות אחרי שעת ההתחלה',
    });
  });

  it('maps the API’s own 400 for an every-day break and a past date', () => {
    const form = scheduleFormOf(rules);
    expect(
      scheduleErrorsOf(
        {
          'marpe_rules.breaks.0.end': 'x',
          'marpe_rules.exceptions.0.date': 'y',
          name: 'z',
        },
        form,
      ),
    ).toEqual({ 'breaks.every.0.end': 'x', 'exceptions.0.date': 'y', name: 'z' });
  });

  it('says which exceptions are past or have no hours, in the clinic’s today', () => {
    const form = scheduleFormOf(rules);
    form.exceptions.push({ date: '2020-01-01', note: '', dayOff: false, hours: [] });
    expect(exceptionProblems(form, '2031-04-11')).toEqual({
      'exceptions.0.date': 'past',
      'exceptions.2.date': 'past',
      'exceptions.2.hours': 'noHours',
    });
    // 22:30 UTC on 31 March is already 1 April in Jerusalem (UTC+3).
    expect(clinicToday('Asia/Jerusalem', Date.UTC(2031, 2, 31, 22, 30))).toBe('2031-04-01');
    expect(clinicToday('UTC', Date.UTC(2031, 2, 31, 22, 30))).toBe('2031-03-31');
  });

  it('keeps an inherited rule null and a typed one a number', () => {
    expect(ruleValueOf(null)).toBeNull();
    expect(ruleValueOf(' 15 ')).toBe(15);
    expect(ruleValueOf('')).toBe('');
  });
});

describe('the caregivers’ order', () => {
  it('moves one place up or down, never past the ends', () => {
    expect(moved([1, 2, 3], 3, -1)).toEqual([1, 3, 2]);
    expect(moved([1, 2, 3], 1, 1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 1, -1)).toEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });

  it('sends only the sort orders that change', () => {
    const stored = new Map([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    // All at 0 (the API's default): every one after the first gets its place.
    expect(sortOrderChanges([1, 2, 3], stored)).toEqual([
      { id: 2, sort_order: 1 },
      { id: 3, sort_order: 2 },
    ]);
    const numbered = new Map([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(sortOrderChanges([1, 3, 2], numbered)).toEqual([
      { id: 3, sort_order: 1 },
      { id: 2, sort_order: 2 },
    ]);
  });
});
