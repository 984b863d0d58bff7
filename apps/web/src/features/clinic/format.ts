import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A slot's start as the clinic page shows it (SPEC § 9), on the clinic's clock, not the browser's. */
export function formatSlotStart(start: string, clinicTimeZone: string): string {
  return dayjs(start).tz(clinicTimeZone).format('DD.MM.YY HH:mm');
}

/** The tel: address of a phone number as clinics write it ('03-5551234', '+972 3 555 1234'). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
