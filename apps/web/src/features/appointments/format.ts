import { formatClinicTime } from '../../lib/clinic-time';

/** The appointment's date as the list shows it (SPEC § 9), on the clinic's clock. */
export function formatAppointmentDate(start: string, clinicTimeZone: string): string {
  return formatClinicTime(start, clinicTimeZone, 'DD/MM/YYYY');
}

/** 'HH:mm – HH:mm' on the clinic's clock, not the browser's. */
export function formatAppointmentTimes(start: string, end: string, clinicTimeZone: string): string {
  const time = (instant: string) => formatClinicTime(instant, clinicTimeZone, 'HH:mm');
  return `${time(start)} – ${time(end)}`;
}
