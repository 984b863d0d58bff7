import { weekDays, type MarpeRules, type TimeRange } from '@marpe/shared';

/** A clinic's booking rules, which its caregivers inherit. */
export interface BookingRuleDefaults {
  slotStepMinutes: number;
  minNoticeMinutes: number;
  bookingHorizonDays: number;
}

/** A caregiver's own booking rules; null inherits the clinic's. */
export interface BookingRuleOverrides {
  slotStepMinutes: number | null;
  minNoticeMinutes: number | null;
  bookingHorizonDays: number | null;
}

// Times as PostgreSQL's `time` reads back: 'HH:mm:ss' (whole minutes, by a CHECK).
export interface TimeRow {
  startTime: string;
  endTime: string;
}
/** weekDay: 0 = Sunday … 6 = Saturday. */
export interface WorkingHoursRow extends TimeRow {
  weekDay: number;
}
/** weekDay null: every day. */
export interface BreakRow extends TimeRow {
  weekDay: number | null;
}
/** An exception without hours is a day off. */
export interface ExceptionRow {
  date: string;
  hours: TimeRow[];
}

export interface ScheduleRows {
  workingHours: readonly WorkingHoursRow[];
  breaks: readonly BreakRow[];
  exceptions: readonly ExceptionRow[];
}

export const emptySchedule: ScheduleRows = { workingHours: [], breaks: [], exceptions: [] };

const hhmm = (time: string) => time.slice(0, 5);

const byStart = (a: TimeRange, b: TimeRange) =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : 0;

/**
 * The caregiver's effective `marpe_rules`: its own rules over the clinic's defaults, week days'
 * hours sorted, breaks in week order (every-day ones first), and only exceptions dated `today` or
 * later (clinic time), by date.
 */
export function effectiveMarpeRules(
  defaults: BookingRuleDefaults,
  own: BookingRuleOverrides,
  schedule: ScheduleRows,
  today: string,
): MarpeRules {
  const weekly: MarpeRules['weekly_hours'] = {
    sunday: [],
    monday: [],
    tuesday: [],
    wednesday: [],
    thursday: [],
    friday: [],
    saturday: [],
  };
  for (const row of schedule.workingHours) {
    const day = weekDays[row.weekDay];
    if (day) weekly[day].push({ start: hhmm(row.startTime), end: hhmm(row.endTime) });
  }
  for (const day of weekDays) weekly[day].sort(byStart);

  const breaks = schedule.breaks
    .map((row) => ({
      order: row.weekDay ?? -1,
      day: row.weekDay === null ? null : (weekDays[row.weekDay] ?? null),
      start: hhmm(row.startTime),
      end: hhmm(row.endTime),
    }))
    .sort((a, b) => a.order - b.order || byStart(a, b))
    .map(({ day, start, end }) => ({ day, start, end }));

  const exceptions = schedule.exceptions
    .filter((e) => e.date >= today)
    .map((e) => ({
      date: e.date,
      hours: e.hours.map((h) => ({ start: hhmm(h.startTime), end: hhmm(h.endTime) })).sort(byStart),
    }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  return {
    slot_step_minutes: own.slotStepMinutes ?? defaults.slotStepMinutes,
    min_notice_minutes: own.minNoticeMinutes ?? defaults.minNoticeMinutes,
    booking_horizon_days: own.bookingHorizonDays ?? defaults.bookingHorizonDays,
    weekly_hours: weekly,
    breaks,
    exceptions,
  };
}
