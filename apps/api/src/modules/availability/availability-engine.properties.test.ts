// Over 400 lines: the engine's cases over one schedule fixture; split by rule when a rule grows its
// own.
/**
 * Properties of the availability engine over random schedules, bookings, clocks and zones, and a
 * comparison with a naive oracle that walks real time minute by minute.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weekDays, type MarpeRules } from '@marpe/shared';
import {
  availableDates,
  availableSlots,
  bookingWindow,
  firstAvailableSlot,
  type AvailabilityInput,
  type Interval,
} from './availability-engine.js';
import {
  localDateToDayNumber,
  weekDayOfDayNumber,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ZONES = ['Asia/Jerusalem', 'America/New_York', 'Australia/Sydney', 'UTC', 'Asia/Kolkata'];
/** A zone and a date a day or two before it changes its clocks. */
const CLOCK_CHANGES: readonly (readonly [string, string])[] = [
  ['Asia/Jerusalem', '2027-03-24'], // springs forward on Friday 2027-03-26
  ['Asia/Jerusalem', '2026-10-23'], // falls back on Sunday 2026-10-25
  ['Asia/Jerusalem', '2027-10-29'], // … and on Sunday 2027-10-31
  ['America/New_York', '2027-03-12'], // springs forward on 2027-03-14
  ['America/New_York', '2026-10-30'], // falls back on 2026-11-01
  ['Australia/Sydney', '2026-10-02'], // springs forward on 2026-10-04
  ['Australia/Sydney', '2027-04-02'], // falls back on 2027-04-04
];

// --- Generators --------------------------------------------------------------------------------

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Minutes of the day, often on a 5-minute grid and often in the small hours clocks change in. */
const minuteArb = fc.oneof(
  fc.integer({ min: 0, max: 287 }).map((m) => m * 5),
  fc.integer({ min: 0, max: 1439 }),
  fc.integer({ min: 0, max: 300 }),
);
const rangeArb = fc
  .tuple(minuteArb, minuteArb)
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({ start: hhmm(Math.min(a, b)), end: hhmm(Math.max(a, b)) }));
const hoursArb = fc.array(rangeArb, { maxLength: 3 });

const scenarioArb = fc
  .record({
    /** A zone and a date near which `now` falls: often just before a clock change. */
    place: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...CLOCK_CHANGES) },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom(...ZONES),
          fc
            .integer({ min: 0, max: 900 })
            .map((n) => new Date(Date.UTC(2026, 0, 1) + n * DAY).toISOString().slice(0, 10)),
        ),
      },
    ),
    /** Milliseconds from the base date's UTC midnight to now. */
    nowShift: fc.integer({ min: -14 * HOUR, max: 38 * HOUR }),
    step: fc.oneof(fc.constantFrom(5, 10, 15, 20, 30, 45, 60), fc.integer({ min: 5, max: 240 })),
    duration: fc.oneof(fc.constantFrom(15, 30, 45, 60, 90), fc.integer({ min: 1, max: 240 })),
    notice: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 600 }),
      fc.integer({ min: 0, max: 4 * 24 * 60 }),
    ),
    horizon: fc.integer({ min: 1, max: 4 }),
    weekly: fc.tuple(hoursArb, hoursArb, hoursArb, hoursArb, hoursArb, hoursArb, hoursArb),
    breaks: fc.array(fc.record({ day: fc.constantFrom(null, ...weekDays), range: rangeArb }), {
      maxLength: 3,
    }),
    exceptions: fc.array(
      fc.record({ dayOffset: fc.integer({ min: -1, max: 5 }), hours: hoursArb }),
      { maxLength: 3 },
    ),
    busy: fc.array(
      fc.record({
        offset: fc.oneof(
          fc.integer({ min: -2 * 24 * 12, max: 6 * 24 * 12 }).map((n) => n * 5 * MINUTE),
          fc.integer({ min: -2 * DAY, max: 6 * DAY }),
        ),
        length: fc.oneof(
          fc.integer({ min: 1, max: 48 }).map((n) => n * 5 * MINUTE),
          fc.integer({ min: 0, max: 4 * HOUR }),
        ),
      }),
      { maxLength: 20 },
    ),
  })
  .map((s) => {
    const [timezone, baseDate] = s.place;
    const base = Date.parse(`${baseDate}T00:00:00Z`);
    const baseDay = Math.round(base / DAY);
    const now = base + s.nowShift;
    const rules: MarpeRules = {
      slot_step_minutes: s.step,
      min_notice_minutes: s.notice,
      booking_horizon_days: s.horizon,
      weekly_hours: {
        sunday: s.weekly[0],
        monday: s.weekly[1],
        tuesday: s.weekly[2],
        wednesday: s.weekly[3],
        thursday: s.weekly[4],
        friday: s.weekly[5],
        saturday: s.weekly[6],
      },
      breaks: s.breaks.map((b) => ({ day: b.day, ...b.range })),
      exceptions: s.exceptions.map((e) => ({
        date: new Date((baseDay + e.dayOffset) * DAY).toISOString().slice(0, 10),
        hours: e.hours,
      })),
    };
    // On whole 5 minutes (as local times are in these zones) so bookings often touch slots.
    const grid = Math.floor(now / (5 * MINUTE)) * 5 * MINUTE;
    const busy: Interval[] = s.busy
      .map((b) => ({ start: grid + b.offset, end: grid + b.offset + b.length }))
      .sort((a, b) => a.start - b.start);
    const input: AvailabilityInput = {
      timezone,
      rules,
      busy,
      durationMinutes: s.duration,
      now,
    };
    return input;
  });

// --- Shared reading of the rules (local minutes only, as a plain boolean array) -----------------

/** Working minutes of a date: its hours (exception or week day) as a set, breaks removed. */
function workingMinutes(rules: MarpeRules, dayNumber: number): boolean[] {
  const minutes = new Array<boolean>(1440).fill(false);
  const mark = (start: string, end: string, value: boolean) => {
    const [sh, sm] = start.split(':').map(Number) as [number, number];
    const [eh, em] = end.split(':').map(Number) as [number, number];
    for (let m = sh * 60 + sm; m < eh * 60 + em; m++) minutes[m] = value;
  };
  const exceptions = rules.exceptions.filter((e) => localDateToDayNumber(e.date) === dayNumber);
  const weekDay = weekDays[weekDayOfDayNumber(dayNumber)] as (typeof weekDays)[number];
  const hours =
    exceptions.length > 0 ? exceptions.flatMap((e) => e.hours) : rules.weekly_hours[weekDay];
  for (const h of hours) mark(h.start, h.end, true);
  for (const b of rules.breaks) {
    if (b.day === null || b.day === weekDay) mark(b.start, b.end, false);
  }
  return minutes;
}

/** Maximal runs of working minutes: [start, end) in minutes of the day. */
function workingRuns(rules: MarpeRules, dayNumber: number): [number, number][] {
  const minutes = workingMinutes(rules, dayNumber);
  const runs: [number, number][] = [];
  for (let m = 0; m < 1440; m++) {
    if (!minutes[m]) continue;
    const start = m;
    while (m < 1440 && minutes[m]) m++;
    runs.push([start, m]);
  }
  return runs;
}

// --- The oracle: real time, minute by minute ---------------------------------------------------

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** The clinic clock's reading at an instant as days × 1440 + minutes, through formatToParts. */
function readClock(instant: number, timezone: string): number {
  let formatter = partsFormatters.get(timezone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    partsFormatters.set(timezone, formatter);
  }
  const part = Object.fromEntries(
    formatter.formatToParts(instant).map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const dayNumber =
    Date.UTC(part.year as number, (part.month as number) - 1, part.day as number) / DAY;
  return dayNumber * 1440 + ((part.hour as number) % 24) * 60 + (part.minute as number);
}

const QUARTER = 15 * MINUTE;
const quarterReadings = new Map<string, number>();

/**
 * The clock's reading at a whole minute. The zones tested change their clocks only on quarter
 * hours of UTC, so one reading per quarter hour (cached) serves its 15 minutes.
 */
function wallKey(instant: number, timezone: string): number {
  const quarter = Math.floor(instant / QUARTER) * QUARTER;
  const cacheKey = `${timezone}|${quarter}`;
  let reading = quarterReadings.get(cacheKey);
  if (reading === undefined) {
    reading = readClock(quarter, timezone);
    quarterReadings.set(cacheKey, reading);
  }
  return reading + Math.floor((instant - quarter) / MINUTE);
}

/**
 * Every slot, found the slow way: walk real time a minute at a time; an interval [a, b) of date D
 * runs from the first minute the clocks read D a or later to the first they read D b or later.
 */
function oracle(input: AvailabilityInput): Interval[] {
  const { timezone, rules, now } = input;
  const step = rules.slot_step_minutes * MINUTE;
  const duration = input.durationMinutes * MINUTE;
  const scanStart = Math.floor(now / MINUTE) * MINUTE - 2 * DAY;
  const scanEnd = now + (rules.booking_horizon_days + 3) * DAY;
  const runningMax: number[] = [];
  let max = Number.NEGATIVE_INFINITY;
  for (let t = scanStart; t < scanEnd; t += MINUTE) {
    max = Math.max(max, wallKey(t, timezone));
    runningMax.push(max);
  }
  /** The first instant the clocks read `key` or later. */
  const reach = (key: number) => {
    let lo = 0;
    let hi = runningMax.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((runningMax[mid] as number) >= key) hi = mid;
      else lo = mid + 1;
    }
    if (lo === runningMax.length) throw new Error('scan too short');
    return scanStart + lo * MINUTE;
  };
  const today = Math.floor(wallKey(Math.floor(now / MINUTE) * MINUTE, timezone) / 1440);
  const lastDay = today + rules.booking_horizon_days - 1;
  const endsAt = reach((lastDay + 1) * 1440);
  const slots: Interval[] = [];
  for (let day = today; day <= lastDay; day++) {
    for (const [a, b] of workingRuns(rules, day)) {
      const intervalStart = reach(day * 1440 + a);
      const intervalEnd = reach(day * 1440 + b);
      for (let start = intervalStart; start + duration <= intervalEnd; start += step) {
        const end = start + duration;
        if (start < now + rules.min_notice_minutes * MINUTE || start >= endsAt) continue;
        if (input.busy.some((x) => x.start < end && x.end > start && x.start < x.end)) continue;
        slots.push({ start, end });
      }
    }
  }
  return slots;
}

// --- Properties --------------------------------------------------------------------------------

const everything = (input: AvailabilityInput) =>
  availableSlots(input, { from: input.now - 10 * DAY, to: input.now + 10 * DAY });

/** The working interval, as instants, that contains a slot; undefined when none does. */
function containingInterval(input: AvailabilityInput, slot: Interval): Interval | undefined {
  const dayNumber = localDateToDayNumber(zonedDate(slot.start, input.timezone));
  for (const [a, b] of workingRuns(input.rules, dayNumber)) {
    const start = zonedDateMinutesToEpoch(dayNumber, a, input.timezone, 'clamp');
    const end = zonedDateMinutesToEpoch(dayNumber, b, input.timezone, 'clamp');
    if (start <= slot.start && slot.end <= end) return { start, end };
  }
  return undefined;
}

describe('availability engine properties', () => {
  it('slots never overlap a booked interval', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        for (const slot of everything(input)) {
          for (const b of input.busy) {
            expect(b.start < slot.end && slot.start < b.end && b.start < b.end).toBe(false);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('every slot lies in one working interval of its date, out of breaks, on its step grid', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const step = input.rules.slot_step_minutes * MINUTE;
        for (const slot of everything(input)) {
          expect(slot.end - slot.start).toBe(input.durationMinutes * MINUTE);
          const interval = containingInterval(input, slot);
          expect(interval).toBeDefined();
          expect((slot.start - (interval as Interval).start) % step).toBe(0);
          // Out of breaks: the clinic's clock reads a working minute at the slot's start (unless
          // that is the second pass of a repeated hour, which belongs to the stretch it is in).
          const dayNumber = localDateToDayNumber(zonedDate(slot.start, input.timezone));
          const reading = wallKey(slot.start, input.timezone) % 1440;
          if (zonedDateMinutesToEpoch(dayNumber, reading, input.timezone) === slot.start) {
            expect(workingMinutes(input.rules, dayNumber)[reading]).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('slots are sorted, unique, after now + notice and before the horizon ends', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const slots = everything(input);
        const { endsAt, firstDate, lastDate } = bookingWindow(input);
        const earliest = input.now + input.rules.min_notice_minutes * MINUTE;
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i] as Interval;
          if (i > 0) expect(slot.start).toBeGreaterThan((slots[i - 1] as Interval).start);
          expect(slot.start).toBeGreaterThanOrEqual(earliest);
          expect(slot.start).toBeLessThan(endsAt);
          const date = zonedDate(slot.start, input.timezone);
          expect(date >= firstDate && date <= lastDate).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a sub-range gives exactly the slots starting in it (both ends included)', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: -DAY, max: 5 * DAY }),
        fc.integer({ min: 0, max: 3 * DAY }),
        (input, fromShift, length) => {
          const all = everything(input);
          // Often land exactly on a slot's start or end.
          const pick = all[Math.abs(fromShift) % Math.max(all.length, 1)];
          const from = pick !== undefined && length % 3 === 0 ? pick.start : input.now + fromShift;
          const to = pick !== undefined && length % 3 === 1 ? pick.start : from + length;
          expect(availableSlots(input, { from, to })).toEqual(
            all.filter((s) => s.start >= from && s.start <= to),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches the minute-by-minute oracle, for slots, dates and the first slot', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const expected = oracle(input);
        expect(everything(input)).toEqual(expected);
        const { firstDate, lastDate } = bookingWindow(input);
        const fromDate = zonedDate(input.now - DAY, input.timezone);
        const toDate = zonedDate(input.now + 10 * DAY, input.timezone);
        expect(availableDates(input, { fromDate, toDate })).toEqual([
          ...new Set(expected.map((s) => zonedDate(s.start, input.timezone))),
        ]);
        expect(firstAvailableSlot(input)).toEqual(expected[0] ?? null);
        expect(firstDate).toBe(zonedDate(input.now, input.timezone));
        expect(lastDate >= firstDate).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('matches the oracle when bookings are made of the free slots (touching and overlapping)', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.array(
          fc.record({
            pick: fc.nat(),
            shift: fc.integer({ min: -6, max: 6 }).map((n) => n * 5 * MINUTE),
            stretch: fc.integer({ min: -3, max: 3 }).map((n) => n * 5 * MINUTE),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (scenario, picks) => {
          const free = everything({ ...scenario, busy: [] });
          if (free.length === 0) return;
          const busy = picks
            .map(({ pick, shift, stretch }) => {
              const slot = free[pick % free.length] as Interval;
              return { start: slot.start + shift, end: slot.end + shift + stretch };
            })
            .sort((a, b) => a.start - b.start);
          const input = { ...scenario, busy };
          expect(everything(input)).toEqual(oracle(input));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same answer whether given only the window’s bookings or many more', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const far: Interval[] = [];
        for (let i = 0; i < 50; i++) {
          far.push({
            start: input.now - 400 * DAY + i * HOUR,
            end: input.now - 400 * DAY + (i + 1) * HOUR,
          });
        }
        const later = far.map((b) => ({ start: b.start + 800 * DAY, end: b.end + 800 * DAY }));
        expect(everything({ ...input, busy: [...far, ...input.busy, ...later] })).toEqual(
          everything(input),
        );
      }),
      { numRuns: 200 },
    );
  });
});
