// The availability engine's cost: 60 days of slots per caregiver, with 2,000 appointments on file
// each, and with 2,000 events of a synced calendar on top (window + calendar). Alone: `npx tsx bench/availability-engine.ts`. Figures are printed, never asserted.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { MarpeRules } from '@marpe/shared';
import {
  availableDates,
  availableSlots,
  firstAvailableSlot,
  type AvailabilityInput,
  type Interval,
} from '../apps/api/src/modules/availability/availability-engine.js';
import {
  addDaysToLocalDate,
  weekDayOfLocalDate,
  zonedDate,
  zonedToEpoch,
} from '../apps/api/src/platform/zoned-time.js';

const TIMEZONE = 'Asia/Jerusalem';
const MINUTE = 60_000;
const DAY = 86_400_000;
const DAYS = 60;
const APPOINTMENTS_ON_FILE = 2_000;
const CALENDAR_EVENTS = 2_000;
const WARM_UP_RUNS = 10;
const RUNS = 40;

const weekday = [{ start: '08:00', end: '19:00' }];
const rules: MarpeRules = {
  slot_step_minutes: 15,
  min_notice_minutes: 120,
  booking_horizon_days: 90,
  weekly_hours: {
    sunday: weekday,
    monday: weekday,
    tuesday: weekday,
    wednesday: weekday,
    thursday: weekday,
    friday: [{ start: '08:00', end: '13:00' }],
    saturday: [],
  },
  breaks: [{ day: null, start: '13:00', end: '13:30' }],
  exceptions: [
    { date: '2026-10-26', hours: [] },
    { date: '2026-11-05', hours: [{ start: '12:00', end: '19:00' }] },
  ],
};

// 07:30 on a Sunday; the 60 days ahead include the fall-back night of 2026-10-25.
const NOW = zonedToEpoch('2026-10-04 07:30', TIMEZONE);
const RANGE = { from: NOW, to: NOW + DAYS * DAY };

/** A small seeded generator (mulberry32), so every run books the same appointments. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * 2,000 half-hour appointments on distinct working half hours between a year ago and half a year
 * ahead, sorted by start: what one caregiver's table holds.
 */
function appointmentsOnFile(seed: number): Interval[] {
  const next = random(seed);
  const today = zonedDate(NOW, TIMEZONE);
  const taken = new Set<string>();
  const booked: Interval[] = [];
  while (booked.length < APPOINTMENTS_ON_FILE) {
    const date = addDaysToLocalDate(today, Math.floor(next() * 545) - 365);
    const weekDay = weekDayOfLocalDate(date);
    if (weekDay === 6) continue;
    const halfHours = weekDay === 5 ? 10 : 22; // Friday 08:00–13:00, else 08:00–19:00
    const index = Math.floor(next() * halfHours);
    const minutes = 8 * 60 + index * 30;
    if (minutes >= 13 * 60 && minutes < 13 * 60 + 30) continue; // the break
    const key = `${date} ${index}`;
    if (taken.has(key)) continue;
    taken.add(key);
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    const start = zonedToEpoch(`${date} ${hh}:${mm}`, TIMEZONE);
    booked.push({ start, end: start + 30 * MINUTE });
  }
  return booked.sort((a, b) => a.start - b.start);
}

/**
 * 2,000 events of a synced calendar per caregiver (ADR 031), as the mirror holds them: mostly
 * 15 minutes to 2 hours on working days, some all-day (a day in the clinic's zone), between a
 * month ago and a year ahead, overlapping each other and the appointments as real diaries do.
 */
function calendarEvents(seed: number): Interval[] {
  const next = random(seed + 1000);
  const today = zonedDate(NOW, TIMEZONE);
  const events: Interval[] = [];
  while (events.length < CALENDAR_EVENTS) {
    const date = addDaysToLocalDate(today, Math.floor(next() * 395) - 30);
    if (next() < 0.05) {
      const start = zonedToEpoch(`${date} 00:00`, TIMEZONE);
      events.push({ start, end: zonedToEpoch(`${addDaysToLocalDate(date, 1)} 00:00`, TIMEZONE) });
      continue;
    }
    const minutes = 7 * 60 + Math.floor(next() * 48) * 15;
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    const start = zonedToEpoch(`${date} ${hh}:${mm}`, TIMEZONE);
    events.push({ start, end: start + (1 + Math.floor(next() * 8)) * 15 * MINUTE });
  }
  return events.sort((a, b) => a.start - b.start);
}

/** What the repository hands the engine: the appointments overlapping the asked window. */
function inWindow(booked: readonly Interval[]): Interval[] {
  // Up to a day past the range: a slot starting at its end may still run into the next booking.
  return booked.filter((b) => b.end > RANGE.from && b.start < RANGE.to + DAY);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function time(work: () => number): { medianMs: number; meanMs: number; result: number } {
  let result = 0;
  for (let i = 0; i < WARM_UP_RUNS; i++) result = work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    result = work();
    times.push(performance.now() - start);
  }
  const meanMs = times.reduce((sum, ms) => sum + ms, 0) / times.length;
  return { medianMs: median(times), meanMs, result };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function engineBench(): Promise<Array<Record<string, string | number>>> {
  const caregivers = Array.from({ length: 25 }, (_, i) => appointmentsOnFile(i + 1));
  const mirrors = new Map(caregivers.map((booked, i) => [booked, calendarEvents(i + 1)]));
  const inputs = (count: number, busyOf: (booked: Interval[]) => Interval[]) =>
    caregivers.slice(0, count).map((booked): AvailabilityInput => ({
      timezone: TIMEZONE,
      rules,
      busy: busyOf(booked),
      durationMinutes: 30,
      now: NOW,
    }));

  const rows: Array<Record<string, string | number>> = [];
  const measure = (
    call: string,
    count: number,
    passed: 'window' | 'all 2,000' | 'window + calendar',
    work: (input: AvailabilityInput) => number,
  ) => {
    const list = inputs(
      count,
      passed === 'window'
        ? inWindow
        : passed === 'window + calendar'
          ? // The repository merges the mirror's busy events into the bookings, by start.
            (booked) =>
              inWindow(
                [...booked, ...(mirrors.get(booked) ?? [])].sort((a, b) => a.start - b.start),
              )
          : (booked) => booked,
    );
    const { medianMs, meanMs, result } = time(() =>
      list.reduce((sum, input) => sum + work(input), 0),
    );
    rows.push({
      call,
      caregivers: count,
      'bookings passed':
        passed === 'all 2,000' ? passed : `${passed} (~${list[0]?.busy.length ?? 0})`,
      'results / caregiver': Math.round(result / count),
      'median ms': round(medianMs),
      'ms / caregiver': round(medianMs / count),
      // The mean counts the garbage collections a median of short runs can step over.
      'mean ms': round(meanMs),
    });
  };

  const slots = (input: AvailabilityInput) => availableSlots(input, RANGE).length;
  for (const count of [1, 5, 25]) measure(`availableSlots ${DAYS} days`, count, 'window', slots);
  measure(`availableSlots ${DAYS} days`, 1, 'window + calendar', slots);
  measure(`availableSlots ${DAYS} days`, 25, 'window + calendar', slots);
  measure(`availableSlots ${DAYS} days`, 1, 'all 2,000', slots);
  measure(`availableSlots ${DAYS} days`, 25, 'all 2,000', slots);

  const window = { fromDate: zonedDate(NOW, TIMEZONE), toDate: zonedDate(RANGE.to, TIMEZONE) };
  measure(
    `availableDates ${DAYS} days`,
    1,
    'window',
    (input) => availableDates(input, window).length,
  );
  measure(
    `availableDates ${DAYS} days`,
    25,
    'window',
    (input) => availableDates(input, window).length,
  );
  measure(
    `availableDates ${DAYS} days`,
    1,
    'window + calendar',
    (input) => availableDates(input, window).length,
  );
  measure('firstAvailableSlot', 25, 'window', (input) => (firstAvailableSlot(input) ? 1 : 0));
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    `Availability engine — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after ${WARM_UP_RUNS} warm-up runs`,
  );
  console.table(await engineBench());
}
