import { formatClinicTime } from '../../lib/clinic-time';

/** A slot's start as the clinic page shows it, on the clinic's clock (docs/formats.md). */
export function formatSlotStart(start: string, clinicTimeZone: string): string {
  return formatClinicTime(start, clinicTimeZone, 'DD.MM.YYYY HH:mm');
}
