import type { ReminderSettings } from '@marpe/shared';
import { epochToWallTime, wallTimeToEpoch } from '../../platform/zoned-time.js';
import { quietTimeAt, type QuietTime } from '../messaging/quiet-time.js';

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

export interface ReminderPolicy extends QuietTime {
  leadMinutes: readonly number[];
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

/**
 * When a reminder planned for `nominal` goes: moved earlier, to the minute before the quiet hours
 * or the Shabbat/Yom Tov it falls in begin, until it falls in neither. Never dropped for it.
 */
export function allowedDueAt(nominal: number, policy: ReminderPolicy): number {
  let due = nominal;
  // Each move goes earlier to a span's start; a handful of moves reach any free minute (a
  // two-day Yom Tov next to Shabbat is one span).
  for (let moves = 0; moves < 16; moves++) {
    const blocked = quietTimeAt(due, policy);
    if (!blocked) return due;
    due = blocked.start - MINUTE;
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
