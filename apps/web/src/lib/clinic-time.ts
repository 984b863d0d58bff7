import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * An instant (ISO 8601) in a dayjs `format`, on the clinic's clock: a patient abroad or a phone
 * set to another zone still sees the times the clinic keeps.
 */
export function formatClinicTime(instant: string, clinicTimeZone: string, format: string): string {
  return dayjs(instant).tz(clinicTimeZone).format(format);
}

/** Compact UTC, `YYYYMMDDTHHmmssZ`, as calendar links and iCalendar want it. */
export function compactUtc(instant: string): string {
  return dayjs(instant).utc().format('YYYYMMDD[T]HHmmss[Z]');
}
