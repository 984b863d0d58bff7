import { DateTime, IANAZone, Zone } from 'luxon';

/**
 * The diary shows every time in the clinic's zone (`timezone` of GET /api/integration/clinic),
 * whatever the browser's zone is. Dates are `YYYY-MM-DD` of the clinic's calendar; instants are
 * epoch milliseconds or ISO 8601 with an offset.
 */

const QUARTER_HOUR = 900_000;

/**
 * An IANA zone whose offsets are remembered by quarter hour. Luxon asks the browser's Intl for a
 * zone's offset at every date it makes (`formatToParts`); the diary's grid makes thousands (each
 * time slot of each caregiver column), a large part of a busy week's first render (figures in
 * ADR 037). Every offset change of a modern zone falls on a quarter hour, so an offset holds for
 * its whole quarter hour and the remembered one is exact.
 */
class RememberingZone extends Zone {
  readonly #zone: IANAZone;
  readonly #offsets = new Map<number, number>();

  constructor(name: string) {
    super();
    this.#zone = IANAZone.create(name);
  }

  override get type() {
    return this.#zone.type;
  }

  override get name() {
    return this.#zone.name;
  }

  override get isUniversal() {
    return false;
  }

  override get isValid() {
    return this.#zone.isValid;
  }

  override offsetName(ts: number, options: Parameters<Zone['offsetName']>[1]) {
    return this.#zone.offsetName(ts, options);
  }

  override formatOffset(ts: number, format: Parameters<Zone['formatOffset']>[1]) {
    return this.#zone.formatOffset(ts, format);
  }

  override offset(ts: number) {
    const quarter = Math.floor(ts / QUARTER_HOUR);
    let offset = this.#offsets.get(quarter);
    if (offset === undefined) {
      offset = this.#zone.offset(ts);
      this.#offsets.set(quarter, offset);
    }
    return offset;
  }

  override equals(other: Zone) {
    return this.#zone.equals(other);
  }
}

const zones = new Map<string, RememberingZone>();

/** The clinic's zone for luxon, one per name, its offsets remembered. */
export function clinicZone(name: string): Zone {
  let zone = zones.get(name);
  if (!zone) zones.set(name, (zone = new RememberingZone(name)));
  return zone;
}

export const diaryViews = ['day', 'week'] as const;
export type DiaryView = (typeof diaryViews)[number];

export const isDiaryView = (value: unknown): value is DiaryView =>
  typeof value === 'string' && (diaryViews as readonly string[]).includes(value);

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** `value` when it is a real date `YYYY-MM-DD`, else null. */
export function parseDate(value: string | null | undefined): string | null {
  if (!value || !datePattern.test(value)) return null;
  const parsed = DateTime.fromISO(value, { zone: 'UTC' });
  return parsed.isValid && parsed.toISODate() === value ? value : null;
}

/** Today's date in the zone. */
export function todayIn(zone: string, now: number = Date.now()): string {
  return DateTime.fromMillis(now, { zone: clinicZone(zone) }).toISODate() ?? '';
}

/** A date's day in the week: 0 Sunday … 6 Saturday. */
export function weekDayOf(date: string): number {
  return DateTime.fromISO(date, { zone: 'UTC' }).weekday % 7;
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() ?? date;
}

/** The Sunday that starts the date's week (the Israeli week). */
export function weekStart(date: string): string {
  return addDays(date, -weekDayOf(date));
}

/** The dates a view shows: the day, or its week from Sunday to Saturday. */
export function visibleDates(view: DiaryView, date: string): string[] {
  if (view === 'day') return [date];
  const first = weekStart(date);
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/** The date the previous/next button leads to: a day or a week away. */
export function stepDate(view: DiaryView, date: string, step: 1 | -1): string {
  return addDays(date, step * (view === 'day' ? 1 : 7));
}

/** The instant a wall-clock time of a date has in the zone (`24:00` is the next midnight). */
export function zonedInstant(date: string, time: string, zone: string): number {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const day = DateTime.fromISO(date, { zone: clinicZone(zone) });
  if (hour >= 24) return day.plus({ days: 1 }).startOf('day').toMillis();
  return day.set({ hour, minute, second: 0, millisecond: 0 }).toMillis();
}

/** An instant's date and wall-clock time (`HH:mm`) in the zone. */
export function localParts(instant: number | string, zone: string): { date: string; time: string } {
  const at =
    typeof instant === 'number'
      ? DateTime.fromMillis(instant, { zone: clinicZone(zone) })
      : DateTime.fromISO(instant, { zone: clinicZone(zone) });
  return { date: at.toISODate() ?? '', time: at.toFormat('HH:mm') };
}

/** ISO 8601 with the zone's offset at that instant (what the API's bodies take). */
export function toZonedIso(instant: number, zone: string): string {
  return (
    DateTime.fromMillis(instant, { zone: clinicZone(zone) }).toISO({
      suppressMilliseconds: true,
    }) ?? ''
  );
}

/** What a view asks the API for: its dates (both included) and its instants [from, to). */
export function windowOf(view: DiaryView, date: string, zone: string) {
  const dates = visibleDates(view, date);
  const fromDate = dates[0] ?? date;
  const toDate = dates[dates.length - 1] ?? date;
  return {
    dates,
    fromDate,
    toDate,
    from: toZonedIso(zonedInstant(fromDate, '00:00', zone), zone),
    to: toZonedIso(zonedInstant(toDate, '24:00', zone), zone),
  };
}

/**
 * A window of instants that holds every instant of `dates` in any time zone (a day before the
 * first to two days after the last, UTC): the diary asks for busy times with it before it knows the
 * clinic's zone, and shows only those its columns hold.
 */
export function widestWindow(dates: readonly string[]): { from: string; to: string } {
  const first = dates[0] ?? '';
  const last = dates[dates.length - 1] ?? first;
  return { from: `${addDays(first, -1)}T00:00:00Z`, to: `${addDays(last, 2)}T00:00:00Z` };
}

/** Today's date in the browser's zone: the diary's first guess at the clinic's today. */
export const browserToday = (): string =>
  todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/** Minutes from the zone's midnight to a wall-clock `HH:mm`. */
export const minutesOf = (time: string): number => {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return hour * 60 + minute;
};

const locales = { he: 'he', en: 'en-GB' } as const;
const localeOf = (language: string) => (language === 'en' ? locales.en : locales.he);

/** "יום חמישי, 25 במרץ 2027" / "Thursday 25 March 2027". */
export function formatDay(date: string, language: string): string {
  const day = DateTime.fromISO(date, { zone: 'UTC' }).setLocale(localeOf(language));
  return language === 'en' ? day.toFormat('cccc d LLLL yyyy') : day.toFormat('cccc, d בLLLL yyyy');
}

/** The week's dates, from Sunday to Saturday, as a heading. */
export function formatWeek(date: string, language: string): string {
  const dates = visibleDates('week', date);
  const first = DateTime.fromISO(dates[0] ?? date, { zone: 'UTC' }).setLocale(localeOf(language));
  const last = DateTime.fromISO(dates[6] ?? date, { zone: 'UTC' }).setLocale(localeOf(language));
  const lastText = language === 'en' ? last.toFormat('d LLLL yyyy') : last.toFormat('d בLLLL yyyy');
  const firstText =
    first.month === last.month
      ? first.toFormat('d')
      : language === 'en'
        ? first.toFormat('d LLLL')
        : first.toFormat('d בLLLL');
  return `${firstText}–${lastText}`;
}

/** An instant as the clinic's clock reads it: "יום ה׳ 25/03/2027, 09:00". */
export function formatWhen(instant: number | string, zone: string, language: string): string {
  const at = (
    typeof instant === 'number'
      ? DateTime.fromMillis(instant, { zone: clinicZone(zone) })
      : DateTime.fromISO(instant).setZone(clinicZone(zone))
  ).setLocale(localeOf(language));
  return at.toFormat('ccc dd/MM/yyyy, HH:mm');
}

/** A time range on one day: "09:00–09:30". */
export function formatTimeRange(start: number | string, end: number | string, zone: string) {
  return `${localParts(start, zone).time}–${localParts(end, zone).time}`;
}
