import { formatClinicTime } from '../../lib/clinic-time';

/** The appointment's date as the list shows it, on the clinic's clock (docs/formats.md). */
export function formatAppointmentDate(start: string, clinicTimeZone: string): string {
  return formatClinicTime(start, clinicTimeZone, 'DD.MM.YYYY');
}

/** The appointment's calendar day (`YYYY-MM-DD`) on the clinic's clock, for its weekday. */
export function appointmentDay(start: string, clinicTimeZone: string): string {
  return formatClinicTime(start, clinicTimeZone, 'YYYY-MM-DD');
}

/** 'HH:mm – HH:mm' on the clinic's clock, not the browser's. */
export function formatAppointmentTimes(start: string, end: string, clinicTimeZone: string): string {
  const time = (instant: string) => formatClinicTime(instant, clinicTimeZone, 'HH:mm');
  return `${time(start)} – ${time(end)}`;
}
