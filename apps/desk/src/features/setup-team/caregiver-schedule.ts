import { weekDays, type IntegrationCaregiver, type WeekDay } from '@marpe/shared';
import type { FieldErrors } from '../../lib/field-errors';
import type { TimeRangeValue } from '../../lib/time-ranges-field';

type CaregiverRules = IntegrationCaregiver['marpe_rules'];

/** One dated exception as the form edits it: a day off, or other hours, with a note. */
export interface ExceptionForm {
  date: string;
  note: string;
  dayOff: boolean;
  hours: TimeRangeValue[];
}

/**
 * A caregiver's week as the form edits it. The API keeps breaks in one list, each on a week day
 * or on every day (`day: null`); the form shows every-day breaks apart and each day's beside its
 * hours.
 */
export interface ScheduleForm {
  hours: Record<WeekDay, TimeRangeValue[]>;
  dayBreaks: Record<WeekDay, TimeRangeValue[]>;
  everyDayBreaks: TimeRangeValue[];
  exceptions: ExceptionForm[];
}

/** Where a break of the form is: `every` or a week day, and its place there. */
type BreakPlace = { group: 'every' | WeekDay; index: number };

const byDay = <T>(make: (day: WeekDay) => T): Record<WeekDay, T> =>
  Object.fromEntries(weekDays.map((day) => [day, make(day)])) as Record<WeekDay, T>;

const range = ({ start, end }: TimeRangeValue): TimeRangeValue => ({ start, end });

/** The form of a caregiver's schedule; a new caregiver's is empty (no hours yet). */
export function scheduleFormOf(rules: CaregiverRules | null): ScheduleForm {
  if (!rules) {
    return {
      hours: byDay(() => []),
      dayBreaks: byDay(() => []),
      everyDayBreaks: [],
      exceptions: [],
    };
  }
  return {
    hours: byDay((day) => rules.weekly_hours[day].map(range)),
    dayBreaks: byDay((day) => rules.breaks.filter((b) => b.day === day).map(range)),
    everyDayBreaks: rules.breaks.filter((b) => b.day === null).map(range),
    exceptions: rules.exceptions.map((e) => ({
      date: e.date,
      note: e.note ?? '',
      dayOff: e.hours.length === 0,
      hours: e.hours.map(range),
    })),
  };
}

/** The breaks in the order the API gets them: every day's first, then Sunday's… */
function breakPlaces(form: ScheduleForm): BreakPlace[] {
  return [
    ...form.everyDayBreaks.map((_, index) => ({ group: 'every' as const, index })),
    ...weekDays.flatMap((day) =>
      // A day off has no breaks to send, whatever was typed before it was turned off.
      form.hours[day].length === 0
        ? []
        : form.dayBreaks[day].map((_, index) => ({ group: day, index })),
    ),
  ];
}

/** The schedule parts of `marpe_rules` the form stands for (each replaces the caregiver's). */
export function scheduleBodyOf(form: ScheduleForm) {
  return {
    weekly_hours: byDay((day) => form.hours[day].map(range)),
    breaks: breakPlaces(form).map(({ group, index }) => {
      const list = group === 'every' ? form.everyDayBreaks : form.dayBreaks[group];
      const { start, end } = list[index] as TimeRangeValue;
      return { day: group === 'every' ? null : group, start, end };
    }),
    exceptions: form.exceptions.map((e) => ({
      date: e.date,
      note: e.note.trim() === '' ? null : e.note.trim(),
      hours: e.dayOff ? [] : e.hours.map(range),
    })),
  };
}

/**
 * A form error's key for an error the schema or the API named by the body's path:
 * `marpe_rules.weekly_hours.sunday.0.end` → `hours.sunday.0.end`,
 * `marpe_rules.breaks.3` → `breaks.monday.0` (the fourth break sent is Monday's first),
 * `marpe_rules.exceptions.1.hours.0` → `exceptions.1.hours.0`. Other keys stay as they are.
 */
export function scheduleErrorsOf(errors: FieldErrors, form: ScheduleForm): FieldErrors {
  const places = breakPlaces(form);
  const mapped: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    let target = key;
    const hours = /^marpe_rules\.weekly_hours\.(.+)$/.exec(key);
    const breaks = /^marpe_rules\.breaks\.(\d+)(\..+)?$/.exec(key);
    const exceptions = /^marpe_rules\.exceptions\.(.+)$/.exec(key);
    if (hours) target = `hours.${hours[1]}`;
    else if (breaks) {
      const place = places[Number(breaks[1])];
      if (place) target = `breaks.${place.group}.${place.index}${breaks[2] ?? ''}`;
    } else if (exceptions) target = `exceptions.${exceptions[1]}`;
    mapped[target] ??= message;
  }
  return mapped;
}

/** Whether a caregiver works at least one range a week. */
export const hasWeeklyHours = (weekly: CaregiverRules['weekly_hours']): boolean =>
  weekDays.some((day) => weekly[day].length > 0);

/** A new working day's hours: the nearest earlier working day's, else 09:00–17:00. */
export function hoursForNewDay(form: ScheduleForm, day: WeekDay): TimeRangeValue[] {
  const at = weekDays.indexOf(day);
  for (let back = 1; back < weekDays.length; back += 1) {
    const other = weekDays[(at - back + weekDays.length) % weekDays.length] as WeekDay;
    if (form.hours[other].length > 0) return form.hours[other].map(range);
  }
  return [{ start: '09:00', end: '17:00' }];
}

/** Turns a week day on (with `hoursForNewDay`) or off (no hours, no breaks of its own). */
export function setDayWorks(form: ScheduleForm, day: WeekDay, works: boolean): ScheduleForm {
  return {
    ...form,
    hours: { ...form.hours, [day]: works ? hoursForNewDay(form, day) : [] },
    dayBreaks: { ...form.dayBreaks, [day]: [] },
  };
}

/** Copies a day's hours and its own breaks to every other day that works. */
export function copyDayToWorkingDays(form: ScheduleForm, from: WeekDay): ScheduleForm {
  const hours = { ...form.hours };
  const dayBreaks = { ...form.dayBreaks };
  for (const day of weekDays) {
    if (day === from || form.hours[day].length === 0) continue;
    hours[day] = form.hours[from].map(range);
    dayBreaks[day] = form.dayBreaks[from].map(range);
  }
  return { ...form, hours, dayBreaks };
}

/** Today's date in the clinic's time zone (`YYYY-MM-DD`): exceptions start from it. */
export function clinicToday(timeZone: string, now: number = Date.now()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * What the API's schema cannot say in the reader's words about the exceptions: a date already
 * past (the API answers "before today"), or other hours chosen with no hours. Keys as the form's.
 */
export function exceptionProblems(
  form: ScheduleForm,
  today: string,
): Record<string, 'past' | 'noHours'> {
  const problems: Record<string, 'past' | 'noHours'> = {};
  form.exceptions.forEach((e, index) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(e.date) && e.date < today) {
      problems[`exceptions.${index}.date`] = 'past';
    }
    if (!e.dayOff && e.hours.length === 0) problems[`exceptions.${index}.hours`] = 'noHours';
  });
  return problems;
}

/**
 * A booking rule a caregiver may set or inherit: null inherits the clinic's. A number typed is
 * kept as typed until it is sent.
 */
export type RuleForm = string | null;

/** `''` and non-numbers stay as they are for the schema to refuse; digits become a number. */
export function ruleValueOf(value: RuleForm): number | null | string {
  if (value === null) return null;
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** Moves one caregiver up or down the clinic page's order: the new order of ids. */
export function moved(ids: readonly number[], id: number, by: -1 | 1): number[] {
  const from = ids.indexOf(id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  next[from] = ids[to] as number;
  next[to] = id;
  return next;
}

/**
 * The `sort_order` changes that give `order` (ids, first first): each caregiver's place in the
 * list, sent only for those whose stored value differs.
 */
export function sortOrderChanges(
  order: readonly number[],
  current: ReadonlyMap<number, number>,
): { id: number; sort_order: number }[] {
  return order.flatMap((id, place) =>
    current.get(id) === place ? [] : [{ id, sort_order: place }],
  );
}
