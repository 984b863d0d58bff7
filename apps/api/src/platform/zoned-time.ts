/**
 * Wall-clock time in an IANA time zone, with nothing but `Intl` (no dependency).
 *
 * Two representations are used:
 * - an *instant*: epoch milliseconds, what the database and the engine compare;
 * - a *wall time*: the clock reading in a zone, as "wall milliseconds" — the epoch milliseconds the
 *   same reading would have in UTC (`Date.UTC(y, m - 1, d, h, min)`). Wall times are only ever
 *   added to or compared, never handed out.
 *
 * Calendar arithmetic (next day, week day) is done on calendar dates as day numbers in UTC, never by
 * adding 24 hours to an instant: a day in a zone with daylight saving lasts 23, 24 or 25 hours.
 *
 * Conversions assume what the tz database guarantees for every zone in use today and what
 * Temporal's reference implementation assumes too: a zone changes its offset at most once in any
 * two days.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

/** What to do with a wall time the clocks skip (a spring-forward gap). */
export type GapPolicy =
  /** Read it with the offset before the change: 02:30 in a 02:00→03:00 gap is 03:30 (default). */
  | 'shift'
  /** The instant the clocks jump: 02:30 in a 02:00→03:00 gap is 03:00 (used for interval ends). */
  | 'clamp';

// Constructing a DateTimeFormat costs tens of microseconds; formatting with one costs about one.
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (formatter === undefined) {
    // Throws a RangeError for a zone Intl does not know.
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The zone's offset from UTC at an instant, in milliseconds (+03:00 → 10_800_000).
 * Reads the localized GMT offset ("GMT+03:00", "GMT-04:00", "GMT" for zero, "GMT+02:20:54" for a
 * historical local mean time), which CLDR fixes for English.
 */
export function zoneOffsetMs(epochMs: number, timezone: string): number {
  const text = offsetFormatter(timezone).format(epochMs);
  const at = text.lastIndexOf('GMT');
  if (at < 0) throw new RangeError(`Unexpected offset text "${text}" for ${timezone}`);
  const offset = text.slice(at + 3);
  if (offset === '') return 0;
  const match = /^([-+\u2212])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(offset);
  if (match === null) throw new RangeError(`Unexpected offset text "${text}" for ${timezone}`);
  const [, sign, hours, minutes, seconds] = match;
  const size =
    Number(hours) * 3_600_000 + Number(minutes ?? 0) * MINUTE + Number(seconds ?? 0) * 1000;
  return sign === '+' ? size : -size;
}

/** Is this a time zone name Intl knows (IANA names and their aliases, any letter case)? */
export function isValidTimeZone(timezone: string): boolean {
  // Offset strings such as "+03:00" are not zone names (newer engines accept them in Intl).
  if (typeof timezone !== 'string' || timezone === '' || /^[-+\u2212]/.test(timezone)) return false;
  try {
    offsetFormatter(timezone);
    return true;
  } catch {
    return false;
  }
}

// --- Calendar dates (no zone) ----------------------------------------------------------------

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function pad4(value: number): string {
  return String(value).padStart(4, '0');
}

/** Days since 1970-01-01 of a 'YYYY-MM-DD' date; NaN when it is malformed or does not exist. */
export function localDateToDayNumber(date: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return Number.NaN;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  if (utc.getUTCMonth() !== month - 1) return Number.NaN; // 2027-02-30 rolled over.
  return Math.round(utc.getTime() / DAY);
}

/** 'YYYY-MM-DD' of a day number (days since 1970-01-01). */
export function dayNumberToLocalDate(dayNumber: number): string {
  const utc = new Date(dayNumber * DAY);
  return `${pad4(utc.getUTCFullYear())}-${pad2(utc.getUTCMonth() + 1)}-${pad2(utc.getUTCDate())}`;
}

/** A 'YYYY-MM-DD' date plus (or minus) whole calendar days: '2027-03-31' + 1 → '2027-04-01'. */
export function addDaysToLocalDate(date: string, days: number): string {
  return dayNumberToLocalDate(localDateToDayNumber(date) + days);
}

/** Week day of a day number: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekDayOfDayNumber(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** Week day of a 'YYYY-MM-DD' date: 0 = Sunday … 6 = Saturday. */
export function weekDayOfLocalDate(date: string): number {
  return weekDayOfDayNumber(localDateToDayNumber(date));
}

// --- Wall time ↔ instant -----------------------------------------------------------------------

/**
 * The instant at which a zone's clocks read `wallMs` (see the file comment for wall milliseconds).
 * - An ordinary reading has exactly one instant.
 * - A reading repeated when clocks fall back (01:30 on a 02:00→01:00 night) maps to the EARLIER
 *   instant, the first time the clocks show it.
 * - A reading skipped when clocks spring forward (02:30 on a 02:00→03:00 night) maps past the gap:
 *   with 'shift' it is read with the offset before the change (→ 03:30 after the jump, as
 *   java.time, Temporal's "compatible" and most libraries do); with 'clamp' it is the instant of the
 *   jump itself (→ 03:00), the first instant whose reading is at or after it. 'clamp' keeps the
 *   mapping monotonic, which interval ends and start-of-day need.
 */
export function wallTimeToEpoch(
  wallMs: number,
  timezone: string,
  gap: GapPolicy = 'shift',
): number {
  const before = zoneOffsetMs(wallMs - DAY, timezone);
  const after = zoneOffsetMs(wallMs + DAY, timezone);
  // No offset change within a day either side: the reading happens exactly once.
  if (before === after) return wallMs - before;
  // One change nearby. Read with the earlier offset first: that is the earlier instant when the
  // reading repeats.
  const early = wallMs - before;
  if (zoneOffsetMs(early, timezone) === before) return early;
  const late = wallMs - after;
  if (zoneOffsetMs(late, timezone) === after) return late;
  // Neither reading exists: the wall time is in a gap.
  if (gap === 'shift') return early;
  return transitionInstant(late, early, timezone);
}

/** The first instant in (low, high] whose offset differs from low's; changes fall on whole seconds. */
function transitionInstant(low: number, high: number, timezone: string): number {
  const lowOffset = zoneOffsetMs(low, timezone);
  let lo = Math.floor(low / 1000);
  let hi = Math.ceil(high / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zoneOffsetMs(mid * 1000, timezone) === lowOffset) lo = mid;
    else hi = mid;
  }
  return hi * 1000;
}

/** A date (day number or 'YYYY-MM-DD') and minutes since its midnight, in the zone → epoch ms. */
export function zonedDateMinutesToEpoch(
  date: string | number,
  minuteOfDay: number,
  timezone: string,
  gap: GapPolicy = 'shift',
): number {
  const dayNumber = typeof date === 'number' ? date : localDateToDayNumber(date);
  if (Number.isNaN(dayNumber)) throw new RangeError(`Expected a date as YYYY-MM-DD: ${date}`);
  return wallTimeToEpoch(dayNumber * DAY + minuteOfDay * MINUTE, timezone, gap);
}

/**
 * Wall-clock 'YYYY-MM-DD HH:mm' (seconds optional, 'T' accepted for the space) in `timezone` →
 * epoch ms. Ambiguous fall-back readings map to the EARLIER instant ('2026-10-25 01:30' in
 * Asia/Jerusalem → 01:30+03:00); readings inside a spring-forward gap map forward past it by the
 * gap's length ('2027-03-26 02:30' → 03:30+03:00). Throws a RangeError on a malformed string or an
 * unknown zone.
 */
export function zonedToEpoch(localDateTime: string, timezone: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(
    localDateTime,
  );
  const dayNumber = match === null ? Number.NaN : localDateToDayNumber(match[1] ?? '');
  if (match === null || Number.isNaN(dayNumber)) {
    throw new RangeError(`Expected a local date-time as YYYY-MM-DD HH:mm: ${localDateTime}`);
  }
  const wall =
    dayNumber * DAY +
    Number(match[2]) * 3_600_000 +
    Number(match[3]) * MINUTE +
    Number(match[4] ?? 0) * 1000;
  return wallTimeToEpoch(wall, timezone, 'shift');
}

/** The first instant of a date in the zone: local midnight, or the end of a gap that swallows it. */
export function startOfZonedDay(date: string | number, timezone: string): number {
  return zonedDateMinutesToEpoch(date, 0, timezone, 'clamp');
}

/** The zone's wall time at an instant, as wall milliseconds. */
export function epochToWallTime(epochMs: number, timezone: string): number {
  return epochMs + zoneOffsetMs(epochMs, timezone);
}

/** epoch ms → 'YYYY-MM-DD' in the zone. */
export function zonedDate(epochMs: number, timezone: string): string {
  return dayNumberToLocalDate(Math.floor(epochToWallTime(epochMs, timezone) / DAY));
}

/**
 * epoch ms → wall-clock 'YYYY-MM-DD HH:mm' in the zone (the format of slot requests,
 * docs/product/booking.md#availability).
 */
export function formatZonedLocal(epochMs: number, timezone: string): string {
  const wall = new Date(epochToWallTime(epochMs, timezone));
  return `${dayNumberToLocalDate(Math.floor(wall.getTime() / DAY))} ${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}`;
}

/** epoch ms → the date and time patients read in messages: DD/MM/YYYY and HH:mm in the zone. */
export function formatZonedForPatient(
  epochMs: number,
  timezone: string,
): { date: string; time: string } {
  const local = formatZonedLocal(epochMs, timezone);
  return {
    date: `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}`,
    time: local.slice(11, 16),
  };
}

/**
 * epoch ms → ISO 8601 with the zone's offset at that instant, seconds included:
 * '2027-03-26T09:00:00+03:00'; UTC shows '+00:00'. Milliseconds appear only when not zero
 * ('…T09:00:00.250+03:00'); a historical offset with seconds shows them ('+02:20:54').
 */
export function formatZonedIso(epochMs: number, timezone: string): string {
  const offset = zoneOffsetMs(epochMs, timezone);
  const wall = new Date(epochMs + offset);
  const date = dayNumberToLocalDate(Math.floor(wall.getTime() / DAY));
  const time = `${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}:${pad2(wall.getUTCSeconds())}`;
  const millis = wall.getUTCMilliseconds();
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  const size = Math.abs(offset) / 1000;
  const offsetSeconds = size % 60;
  const offsetText =
    (offset < 0 ? '-' : '+') +
    `${pad2(Math.floor(size / 3600))}:${pad2(Math.floor(size / 60) % 60)}` +
    (offsetSeconds === 0 ? '' : `:${pad2(offsetSeconds)}`);
  return `${date}T${time}${fraction}${offsetText}`;
}
