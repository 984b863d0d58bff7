import { defaultReminderSettings } from '@marpe/shared';
import {
  addDaysToLocalDate,
  epochToWallTime,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';
import { restSpans, type Span } from './rest-days.js';

// A clinic's quiet time: when the messages it sends by itself (reminders, waitlist offers, news of
// a change) do not go. Here, in messaging, which keeps it at send time (quiet-hours-at-send.ts),
// below the reminders, the waitlist and the appointments, which plan around it.

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

export interface QuietTime {
  /** 'HH:mm' clinic time; quiet hours run across midnight when end is earlier; equal: none. */
  quietStart: string;
  quietEnd: string;
  /** Keep out of Shabbat and Yom Tov (candle lighting to havdalah). */
  observeRestDays: boolean;
  timezone: string;
}

/**
 * A clinic's quiet time from its reminder settings' columns (`HH:mm:ss` or `HH:mm`), their defaults
 * for a clinic that never saved them: reminders, offers and notices keep the same.
 */
export function clinicQuietTime(clinic: {
  timezone: string;
  quietStart: string | null;
  quietEnd: string | null;
  observeRestDays: boolean | null;
}): QuietTime {
  return {
    quietStart: clinic.quietStart?.slice(0, 5) ?? defaultReminderSettings.quiet_hours.start,
    quietEnd: clinic.quietEnd?.slice(0, 5) ?? defaultReminderSettings.quiet_hours.end,
    observeRestDays: clinic.observeRestDays ?? defaultReminderSettings.observe_shabbat_and_holidays,
    timezone: clinic.timezone,
  };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The quiet hours around an instant, or null when it is outside them. */
export function quietSpanAt(at: number, quiet: QuietTime): Span | null {
  const start = minutesOf(quiet.quietStart);
  const end = minutesOf(quiet.quietEnd);
  if (start === end) return null;
  const date = zonedDate(at, quiet.timezone);
  const minute = Math.floor((epochToWallTime(at, quiet.timezone) / MINUTE) % DAY_MINUTES);
  const span = (startDate: string): Span => ({
    start: zonedDateMinutesToEpoch(startDate, start, quiet.timezone),
    end: zonedDateMinutesToEpoch(
      end > start ? startDate : addDaysToLocalDate(startDate, 1),
      end,
      quiet.timezone,
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

/** The quiet hours or (when observed) the Shabbat/Yom Tov an instant falls in, or null. */
export function quietTimeAt(at: number, quiet: QuietTime): Span | null {
  return quietSpanAt(at, quiet) ?? (quiet.observeRestDays ? restSpanAt(at, quiet.timezone) : null);
}

/**
 * The first instant at or after `at` outside quiet hours and (when observed) Shabbat/Yom Tov: when
 * a reminder, an offer or a change notice may go. Each move goes later to a span's end.
 */
export function nextAllowedAt(at: number, quiet: QuietTime): number {
  let due = at;
  for (let moves = 0; moves < 16; moves++) {
    const blocked = quietTimeAt(due, quiet);
    if (!blocked) return due;
    due = blocked.end;
  }
  return due;
}
