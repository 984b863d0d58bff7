import { formatClinicTime, shortDate } from '../../lib/clinic-time';

/** DD.MM.YYYY on the clinic's clock: the one date format of the patient pages (docs/formats.md). */
export function formatDate(instant: string, timeZone: string): string {
  return formatClinicTime(instant, timeZone, 'DD.MM.YYYY');
}

/** HH:mm on the clinic's clock. */
export function formatTime(instant: string, timeZone: string): string {
  return formatClinicTime(instant, timeZone, 'HH:mm');
}

/** A clinic-time `YYYY-MM-DD` as DD.MM.YYYY (no zone: it already is a calendar date). */
export function formatLocalDate(date: string): string {
  return shortDate(date);
}

/** The week day index (0 = Sunday) of a calendar date. */
export function weekDayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}
