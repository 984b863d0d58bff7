import { marpeRulesSchema } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { effectiveMarpeRules, emptySchedule } from './marpe-rules.js';

const defaults = { slotStepMinutes: 15, minNoticeMinutes: 120, bookingHorizonDays: 60 };
const inherit = { slotStepMinutes: null, minNoticeMinutes: null, bookingHorizonDays: null };

describe('effectiveMarpeRules', () => {
  it("takes the caregiver's own rules over the clinic's, each on its own", () => {
    const rules = effectiveMarpeRules(
      defaults,
      { slotStepMinutes: 30, minNoticeMinutes: null, bookingHorizonDays: 7 },
      emptySchedule,
      '2027-03-24',
    );
    expect(rules).toMatchObject({
      slot_step_minutes: 30,
      min_notice_minutes: 120,
      booking_horizon_days: 7,
    });
    expect(effectiveMarpeRules(defaults, inherit, emptySchedule, '2027-03-24')).toEqual({
      slot_step_minutes: 15,
      min_notice_minutes: 120,
      booking_horizon_days: 60,
      weekly_hours: {
        sunday: [],
        monday: [],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: [],
      },
      breaks: [],
      exceptions: [],
    });
  });

  it('sorts hours, orders breaks by week day (every day first) and keeps exceptions from today', () => {
    const rules = effectiveMarpeRules(
      defaults,
      inherit,
      {
        workingHours: [
          { weekDay: 0, startTime: '15:00:00', endTime: '19:00:00' },
          { weekDay: 5, startTime: '08:00:00', endTime: '12:00:00' },
          { weekDay: 0, startTime: '08:00:00', endTime: '14:00:00' },
        ],
        breaks: [
          { weekDay: 5, startTime: '10:00:00', endTime: '10:30:00' },
          { weekDay: null, startTime: '12:00:00', endTime: '12:15:00' },
          { weekDay: 0, startTime: '11:00:00', endTime: '11:15:00' },
        ],
        exceptions: [
          { date: '2027-03-30', hours: [] },
          { date: '2027-03-23', hours: [] },
          {
            date: '2027-03-24',
            hours: [
              { startTime: '13:00:00', endTime: '14:00:00' },
              { startTime: '09:00:00', endTime: '10:00:00' },
            ],
          },
        ],
      },
      '2027-03-24',
    );
    expect(rules.weekly_hours.sunday).toEqual([
      { start: '08:00', end: '14:00' },
      { start: '15:00', end: '19:00' },
    ]);
    expect(rules.weekly_hours.friday).toEqual([{ start: '08:00', end: '12:00' }]);
    expect(rules.weekly_hours.monday).toEqual([]);
    expect(rules.breaks).toEqual([
      { day: null, start: '12:00', end: '12:15' },
      { day: 'sunday', start: '11:00', end: '11:15' },
      { day: 'friday', start: '10:00', end: '10:30' },
    ]);
    expect(rules.exceptions).toEqual([
      {
        date: '2027-03-24',
        hours: [
          { start: '09:00', end: '10:00' },
          { start: '13:00', end: '14:00' },
        ],
      },
      { date: '2027-03-30', hours: [] },
    ]);
    expect(marpeRulesSchema.parse(rules)).toEqual(rules);
  });
});
