import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A slot's start as the clinic page shows it (SPEC § 9), on the clinic's clock, not the browser's. */
export function formatSlotStart(start: string, clinicTimeZone: string): string {
  return dayjs(start).tz(clinicTimeZone).format('DD.MM.YY HH:mm');
}
