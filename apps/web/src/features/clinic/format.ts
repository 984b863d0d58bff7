import { formatClinicTime } from '../../lib/clinic-time';

/** A slot's start as the clinic page shows it (SPEC § 9), on the clinic's clock, not the browser's. */
export function formatSlotStart(start: string, clinicTimeZone: string): string {
  return formatClinicTime(start, clinicTimeZone, 'DD.MM.YY HH:mm');
}
