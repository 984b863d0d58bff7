import { weekDays, type IntegrationCaregiver } from '@marpe/shared';
import { minutesOf, weekDayOf, zonedInstant } from './clinic-time';

/** [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

type Range = [number, number];

/** Sorted, merged minute ranges. */
function union(ranges: Range[]): Range[] {
  const sorted = [...ranges].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** `ranges` with `cuts` taken out. */
function subtract(ranges: Range[], cuts: Range[]): Range[] {
  let out = ranges;
  for (const [cs, ce] of cuts) {
    out = out.flatMap(([s, e]): Range[] => {
      if (ce <= s || cs >= e) return [[s, e]];
      return [...(cs > s ? [[s, cs] as Range] : []), ...(ce < e ? [[ce, e] as Range] : [])];
    });
  }
  return out;
}

type Rules = IntegrationCaregiver['marpe_rules'];

/**
 * A caregiver's working time on a date, in minutes from midnight, as the availability engine
 * reads `marpe_rules`: the date's exception hours when it has any (several combine; none is a
 * day off), else the week day's hours, less the breaks of that day and of every day.
 */
export function workingMinutes(rules: Rules, date: string): Range[] {
  const weekDay = weekDays[weekDayOf(date)] ?? 'sunday';
  const exceptions = rules.exceptions.filter((e) => e.date === date);
  const hours =
    exceptions.length > 0 ? exceptions.flatMap((e) => e.hours) : rules.weekly_hours[weekDay];
  const breaks = rules.breaks.filter((b) => b.day === null || b.day === weekDay);
  return subtract(
    union(hours.map((h): Range => [minutesOf(h.start), minutesOf(h.end)])),
    union(breaks.map((b): Range => [minutesOf(b.start), minutesOf(b.end)])),
  );
}

/**
 * The instants a caregiver works on each of `dates` in the clinic's zone: nothing on a date the
 * whole clinic is closed. Everything else the diary shades as closed.
 */
export function openIntervals(
  rules: Rules,
  dates: readonly string[],
  zone: string,
  closedDates: ReadonlySet<string> = new Set(),
): Interval[] {
  return dates.flatMap((date) =>
    closedDates.has(date)
      ? []
      : workingMinutes(rules, date).map(([s, e]) => ({
          start: zonedInstant(date, clock(s), zone),
          end: zonedInstant(date, clock(e), zone),
        })),
  );
}

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Whether the instant falls in one of the (sorted or not) intervals. */
export const isWithin = (intervals: readonly Interval[], at: number): boolean =>
  intervals.some((i) => at >= i.start && at < i.end);

/** The earliest and latest wall-clock hour the diary needs to show, given what it holds. */
export function hoursToShow(
  minutes: readonly number[],
  fallback: { from: number; to: number } = { from: 8, to: 18 },
): { from: number; to: number } {
  if (minutes.length === 0) return fallback;
  const from = Math.min(fallback.from, Math.floor(Math.min(...minutes) / 60));
  const to = Math.max(fallback.to, Math.ceil(Math.max(...minutes) / 60));
  return { from: Math.max(0, from), to: Math.min(24, to) };
}
