import type { ReminderSettings } from '@marpe/shared';
import {
  addDaysToLocalDate,
  epochToWallTime,
  wallTimeToEpoch,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';
import { restSpans, type Span } from './rest-days.js';

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

/** A reminder planned this close to the booking would only repeat what the patient just did. */
export const REMINDER_MIN_GAP_MS = 60 * MINUTE;
/** Two reminders this close together after moving one out of quiet time: only the later goes. */
export const REMINDER_MIN_SPACING_MS = 60 * MINUTE;
/**
 * A reminder due less than this after online cancellation closes goes before it closes instead
 * (REMINDER_BEFORE_DEADLINE_MS earlier): the patient it reminds can still cancel or move online.
 */
export const REMINDER_DEADLINE_GRACE_MS = 30 * MINUTE;
export const REMINDER_BEFORE_DEADLINE_MS = 15 * MINUTE;

export interface ReminderPolicy {
  leadMinutes: readonly number[];
  /** 'HH:mm' clinic time; quiet hours run across midnight when end is earlier; equal: none. */
  quietStart: string;
  quietEnd: string;
  /** Keep out of Shabbat and Yom Tov (candle lighting to havdalah). */
  observeRestDays: boolean;
  timezone: string;
  /** The clinic's online cancellation notice: cancelling and moving close this long before. */
  cancelNoticeMinutes: number;
}

export interface PlannedReminder {
  leadMinutes: number;
  /** Epoch milliseconds. */
  dueAt: number;
}

/** What planning reads of a clinic's settings, in its zone. */
export const reminderPolicy = (
  settings: ReminderSettings,
  clinic: { timezone: string; cancelNoticeMinutes: number },
): ReminderPolicy => ({
  leadMinutes: settings.lead_minutes,
  quietStart: settings.quiet_hours.start,
  quietEnd: settings.quiet_hours.end,
  observeRestDays: settings.observe_shabbat_and_holidays,
  timezone: clinic.timezone,
  cancelNoticeMinutes: clinic.cancelNoticeMinutes,
});

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * start − lead as the patient reads it: a whole number of days is the same clock time that many
 * calendar days before (a 24-hour reminder of 10:00 goes at 10:00 the day before, across a clock
 * change too, when that day is 23 or 25 hours long); anything else is that many minutes before.
 */
export function nominalDueAt(startMs: number, leadMinutes: number, timezone: string): number {
  if (leadMinutes % DAY_MINUTES !== 0) return startMs - leadMinutes * MINUTE;
  const wall = epochToWallTime(startMs, timezone);
  return wallTimeToEpoch(wall - leadMinutes * MINUTE, timezone);
}

/** The quiet hours around an instant, or null when it is outside them. */
export function quietSpanAt(at: number, policy: ReminderPolicy): Span | null {
  const start = minutesOf(policy.quietStart);
  const end = minutesOf(policy.quietEnd);
  if (start === end) return null;
  const date = zonedDate(at, policy.timezone);
  const minute = Math.floor((epochToWallTime(at, policy.timezone) / MINUTE) % DAY_MINUTES);
  const span = (startDate: string): Span => ({
    start: zonedDateMinutesToEpoch(startDate, start, policy.timezone),
    end: zonedDateMinutesToEpoch(
      end > start ? startDate : addDaysToLocalDate(startDate, 1),
      end,
      policy.timezone,
    ),
  });
  if (start < end) return minute >= start && minute < end ? span(date) : null;
  if (minute >= start) return span(date);
  if (minute < end) return span(addDaysToLocalDate(date, -1));
  return null;
}

function restSpanAt(at: number, timezone: string): Span | null {
  const date = zonedDate(at, timezone);
  return restSpans(date, date).find((span) => at >= span.start && at < span.end) ?? null;
}

/**
 * When a reminder planned for `nominal` goes: moved earlier, to the minute before the quiet hours
 * or the Shabbat/Yom Tov it falls in begin, until it falls in neither. Never dropped for it.
 */
export function allowedDueAt(nominal: number, policy: ReminderPolicy): number {
  let due = nominal;
  // Each move goes earlier to a span's start; a handful of moves reach any free minute (a
  // two-day Yom Tov next to Shabbat is one span).
  for (let moves = 0; moves < 16; moves++) {
    const blocked =
      quietSpanAt(due, policy) ??
      (policy.observeRestDays ? restSpanAt(due, policy.timezone) : null);
    if (!blocked) return due;
    due = blocked.start - MINUTE;
  }
  return due;
}

/**
 * The first instant at or after `at` outside quiet hours and (when observed) Shabbat/Yom Tov: when
 * an overdue reminder may still go. Each move goes later to a span's end.
 */
export function nextAllowedAt(at: number, policy: ReminderPolicy): number {
  let due = at;
  for (let moves = 0; moves < 16; moves++) {
    const blocked =
      quietSpanAt(due, policy) ??
      (policy.observeRestDays ? restSpanAt(due, policy.timezone) : null);
    if (!blocked) return due;
    due = blocked.end;
  }
  return due;
}

/**
 * The reminders of an appointment starting at `startMs`, planned at `now` (its booking or move):
 * one per lead time, just before online cancellation closes when it would go just after (the
 * default day-before reminder and 24-hour notice meet), each moved out of quiet time; none due within REMINDER_MIN_GAP_MS of now (a
 * lead time already passed gets no late reminder); of two that moving brought within
 * REMINDER_MIN_SPACING_MS of each other, only the later (closer to the start). By due time.
 */
export function planReminders(
  startMs: number,
  policy: ReminderPolicy,
  now: number,
): PlannedReminder[] {
  const deadline = startMs - policy.cancelNoticeMinutes * MINUTE;
  const beforeDeadline = (due: number) =>
    due >= deadline && due - deadline < REMINDER_DEADLINE_GRACE_MS
      ? deadline - REMINDER_BEFORE_DEADLINE_MS
      : due;
  const planned = [...new Set(policy.leadMinutes)]
    .map((leadMinutes) => ({
      leadMinutes,
      dueAt: allowedDueAt(
        beforeDeadline(nominalDueAt(startMs, leadMinutes, policy.timezone)),
        policy,
      ),
    }))
    .filter((reminder) => reminder.dueAt - now >= REMINDER_MIN_GAP_MS && reminder.dueAt < startMs)
    .sort((a, b) => b.dueAt - a.dueAt || a.leadMinutes - b.leadMinutes);
  const kept: PlannedReminder[] = [];
  for (const reminder of planned) {
    const later = kept.at(-1);
    if (later && later.dueAt - reminder.dueAt < REMINDER_MIN_SPACING_MS) continue;
    kept.push(reminder);
  }
  return kept.reverse();
}
