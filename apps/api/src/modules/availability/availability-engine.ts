/**
 * The availability engine: which slots one caregiver can still be booked for. Pure — no I/O, the
 * clock is an argument — so the routes, the caregiver list's first free slot and the tests all ask
 * the same function.
 *
 * A date's working time is its exception's hours when it has an exception, else its week day's
 * hours, as the union of those intervals (overlapping or touching intervals join), minus every
 * break of that week day and every every-day break (exception dates too). Each remaining interval
 * [a, b) of local date D becomes the real-time interval from the first instant the clinic's clocks
 * read D a to the first instant they read D b: on a spring-forward night 00:00–04:00 lasts three
 * hours, on a fall-back night five; an end inside a skipped hour is the instant of the jump.
 * Candidate starts are the interval's start instant plus whole multiples of the slot step, counted
 * in real minutes, so slots never repeat or skip time around a clock change. A candidate is a slot
 * when it ends by its interval's end, starts no earlier than now + minimum notice and before the
 * horizon ends, and overlaps no booked interval (half-open: a visit ending at 10:00 leaves 10:00
 * free).
 *
 * Cost: a few Intl look-ups per working interval and date, O(1) per candidate, and one pass over the
 * busy list given — O(days × slots + busy), whatever else is on file.
 */
import { weekDays, type MarpeRules } from '@marpe/shared';
import {
  dayNumberToLocalDate,
  localDateToDayNumber,
  startOfZonedDay,
  wallTimeToEpoch,
  weekDayOfDayNumber,
  zonedDate,
} from '../../platform/zoned-time.js';

/** [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

export interface AvailabilityInput {
  /** IANA zone of the clinic. */
  timezone: string;
  rules: MarpeRules;
  /** The caregiver's booked appointments that may overlap the asked window, sorted by start (the caller queries only that window). */
  busy: readonly Interval[];
  /** Positive whole number. */
  durationMinutes: number;
  /** Epoch ms — the clock is passed in. */
  now: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** [start, end) in minutes since local midnight. */
type MinuteRange = readonly [number, number];

interface HoursLike {
  start: string;
  end: string;
}

function minutesOf(time: string): number {
  // 'HH:mm', validated by the schema.
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Sorted, disjoint, non-empty: the union of the ranges (touching ranges join). */
function unionOf(hours: readonly HoursLike[]): MinuteRange[] {
  const ranges: [number, number][] = [];
  for (const h of hours) {
    const start = minutesOf(h.start);
    const end = minutesOf(h.end);
    if (start < end) ranges.push([start, end]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** `ranges` minus `cuts`, both sorted and disjoint. */
function subtract(ranges: readonly MinuteRange[], cuts: readonly MinuteRange[]): MinuteRange[] {
  if (cuts.length === 0) return [...ranges];
  const out: MinuteRange[] = [];
  let c = 0;
  for (const [rangeStart, rangeEnd] of ranges) {
    let start = rangeStart;
    while (c < cuts.length && (cuts[c] as MinuteRange)[1] <= start) c++;
    for (let k = c; k < cuts.length && start < rangeEnd; k++) {
      const [cutStart, cutEnd] = cuts[k] as MinuteRange;
      if (cutStart >= rangeEnd) break;
      if (cutStart > start) out.push([start, cutStart]);
      start = Math.max(start, cutEnd);
    }
    if (start < rangeEnd) out.push([start, rangeEnd]);
  }
  return out;
}

/**
 * Sorted by start, disjoint, non-empty; touching or overlapping bookings join. A list that already
 * is (the usual case) is used as it is, without copying.
 */
function normaliseBusy(busy: readonly Interval[]): readonly Interval[] {
  let clean = true;
  let sorted = true;
  for (let i = 0; i < busy.length; i++) {
    const current = busy[i] as Interval;
    if (!(current.start < current.end)) clean = false;
    if (i === 0) continue;
    const previous = busy[i - 1] as Interval;
    if (current.start < previous.start) {
      clean = false;
      sorted = false;
      break;
    }
    if (current.start < previous.end) clean = false;
  }
  if (clean) return busy;
  const list = sorted ? busy : [...busy].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const b of list) {
    if (!(b.start < b.end)) continue;
    const last = merged[merged.length - 1];
    if (last !== undefined && b.start <= last.end) {
      if (b.end > last.end) last.end = b.end;
    } else merged.push({ start: b.start, end: b.end });
  }
  return merged;
}

interface Window {
  today: number;
  lastDay: number;
  endsAt: number;
}

function windowOf(input: Pick<AvailabilityInput, 'timezone' | 'rules' | 'now'>): Window {
  const today = localDateToDayNumber(zonedDate(input.now, input.timezone));
  const lastDay = today + Math.floor(input.rules.booking_horizon_days) - 1;
  return { today, lastDay, endsAt: startOfZonedDay(lastDay + 1, input.timezone) };
}

/**
 * The bookable window for these rules at `now`: from today's date to the last bookable date (clinic
 * zone), and the instant the horizon ends (exclusive; the start of the day after the last bookable
 * date). A horizon of 1 day is today only.
 */
export function bookingWindow(input: Pick<AvailabilityInput, 'timezone' | 'rules' | 'now'>): {
  firstDate: string;
  lastDate: string;
  endsAt: number;
} {
  const { today, lastDay, endsAt } = windowOf(input);
  return {
    firstDate: dayNumberToLocalDate(today),
    lastDate: dayNumberToLocalDate(lastDay),
    endsAt,
  };
}

/** What one query needs, worked out once. */
class Scan {
  readonly window: Window;
  /** No slot starts before this instant (now + minimum notice). */
  readonly earliest: number;
  private readonly timezone: string;
  private readonly stepMs: number;
  private readonly durationMs: number;
  private readonly rules: MarpeRules;
  private readonly weekly = new Map<number, MinuteRange[]>();
  private readonly breaks = new Map<number, MinuteRange[]>();
  private exceptions: Map<number, HoursLike[]> | null = null;
  private readonly busy: readonly Interval[];
  private busyIndex = -1;

  constructor(input: AvailabilityInput) {
    this.timezone = input.timezone;
    this.rules = input.rules;
    this.stepMs = input.rules.slot_step_minutes * MINUTE;
    this.durationMs = input.durationMinutes * MINUTE;
    this.window = windowOf(input);
    this.earliest = input.now + input.rules.min_notice_minutes * MINUTE;
    this.busy = normaliseBusy(input.busy);
  }

  /** Nonsense steps or durations would loop forever or match nothing: no slots, no exception. */
  get usable(): boolean {
    return this.stepMs > 0 && this.durationMs > 0 && Number.isFinite(this.stepMs + this.durationMs);
  }

  private breaksOf(weekDay: number): MinuteRange[] {
    let cuts = this.breaks.get(weekDay);
    if (cuts === undefined) {
      const name = weekDays[weekDay];
      cuts = unionOf(this.rules.breaks.filter((b) => b.day === null || b.day === name));
      this.breaks.set(weekDay, cuts);
    }
    return cuts;
  }

  /** The working time of a date, in local minutes: sorted, disjoint, breaks removed. */
  private workingRanges(dayNumber: number): MinuteRange[] {
    const weekDay = weekDayOfDayNumber(dayNumber);
    if (this.exceptions === null) {
      // Several exceptions for one date combine their hours.
      this.exceptions = new Map();
      for (const exception of this.rules.exceptions) {
        const day = localDateToDayNumber(exception.date);
        this.exceptions.set(day, [...(this.exceptions.get(day) ?? []), ...exception.hours]);
      }
    }
    const exceptionHours = this.exceptions.get(dayNumber);
    if (exceptionHours !== undefined) {
      return subtract(unionOf(exceptionHours), this.breaksOf(weekDay));
    }
    let ranges = this.weekly.get(weekDay);
    if (ranges === undefined) {
      const name = weekDays[weekDay] as (typeof weekDays)[number];
      ranges = subtract(unionOf(this.rules.weekly_hours[name] ?? []), this.breaksOf(weekDay));
      this.weekly.set(weekDay, ranges);
    }
    return ranges;
  }

  /**
   * Appends to `out` the slots of one date starting in [lowest, highest], in order, stopping once
   * `out` holds `limit`. Dates must be asked in increasing order (the busy cursor only moves on).
   */
  collectDay(
    dayNumber: number,
    lowest: number,
    highest: number,
    out: Interval[],
    limit: number,
  ): void {
    const ranges = this.workingRanges(dayNumber);
    if (ranges.length === 0) return;
    const from = Math.max(lowest, this.earliest);
    const step = this.stepMs;
    const duration = this.durationMs;
    const busy = this.busy;
    const dayWall = dayNumber * DAY;
    for (const [startMinute, endMinute] of ranges) {
      const intervalEnd = wallTimeToEpoch(dayWall + endMinute * MINUTE, this.timezone, 'clamp');
      if (intervalEnd - duration < from) continue;
      const intervalStart = wallTimeToEpoch(dayWall + startMinute * MINUTE, this.timezone, 'clamp');
      if (intervalStart > highest) return;
      // Last start: the slot ends by the interval's end, starts by `highest` and before the horizon.
      const lastStart = Math.min(intervalEnd - duration, highest, this.window.endsAt - 1);
      let start =
        intervalStart >= from
          ? intervalStart
          : intervalStart + Math.ceil((from - intervalStart) / step) * step;
      if (start > lastStart) continue;
      if (this.busyIndex < 0) this.busyIndex = firstEndingAfter(busy, start);
      let b = this.busyIndex;
      while (start <= lastStart) {
        while (b < busy.length && (busy[b] as Interval).end <= start) b++;
        const next = busy[b];
        if (next !== undefined && next.start < start + duration) {
          // Overlaps a booking: move to the first step at or after it ends.
          start += Math.ceil((next.end - start) / step) * step;
          continue;
        }
        out.push({ start, end: start + duration });
        if (out.length >= limit) {
          this.busyIndex = b;
          return;
        }
        start += step;
      }
      this.busyIndex = b;
    }
  }
}

/** Index of the first interval (sorted, disjoint) that ends after `at`. */
function firstEndingAfter(busy: readonly Interval[], at: number): number {
  let lo = 0;
  let hi = busy.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((busy[mid] as Interval).end <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Slots whose start lies in [from, to] (inclusive both ends), sorted, unique, each [start, start+duration). */
export function availableSlots(
  input: AvailabilityInput,
  range: { from: number; to: number },
): Interval[] {
  const scan = new Scan(input);
  const out: Interval[] = [];
  if (!scan.usable) return out;
  const { today, lastDay, endsAt } = scan.window;
  const lowest = Math.max(range.from, scan.earliest);
  const highest = Math.min(range.to, endsAt - 1);
  // Also false for NaN.
  if (!(lowest <= highest)) return out;
  const firstDay = Math.max(today, localDateToDayNumber(zonedDate(lowest, input.timezone)));
  const finalDay = Math.min(lastDay, localDateToDayNumber(zonedDate(highest, input.timezone)));
  for (let day = firstDay; day <= finalDay; day++) {
    scan.collectDay(day, lowest, highest, out, Number.POSITIVE_INFINITY);
  }
  return out;
}

/** Local dates 'YYYY-MM-DD' (clinic zone) in [fromDate, toDate] that have at least one slot. */
export function availableDates(
  input: AvailabilityInput,
  window: { fromDate: string; toDate: string },
): string[] {
  const scan = new Scan(input);
  const dates: string[] = [];
  if (!scan.usable) return dates;
  const { today, lastDay } = scan.window;
  const firstDay = Math.max(today, localDateToDayNumber(window.fromDate));
  const finalDay = Math.min(lastDay, localDateToDayNumber(window.toDate));
  const found: Interval[] = [];
  for (let day = firstDay; day <= finalDay; day++) {
    found.length = 0;
    scan.collectDay(day, scan.earliest, Number.POSITIVE_INFINITY, found, 1);
    if (found.length > 0) dates.push(dayNumberToLocalDate(day));
  }
  return dates;
}

/** The earliest slot from now (plus minimum notice) within the horizon, or null. */
export function firstAvailableSlot(input: AvailabilityInput): Interval | null {
  const scan = new Scan(input);
  if (!scan.usable) return null;
  const { today, lastDay } = scan.window;
  const found: Interval[] = [];
  for (let day = today; day <= lastDay && found.length === 0; day++) {
    scan.collectDay(day, scan.earliest, Number.POSITIVE_INFINITY, found, 1);
  }
  return found[0] ?? null;
}
