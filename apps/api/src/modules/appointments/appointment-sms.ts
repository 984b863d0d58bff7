import { formatZonedLocal } from '../availability/zoned-time.js';
import type { AppointmentDetails } from './appointments-repository.js';

/**
 * The details SMS of a booked appointment, in Hebrew: clinic, caregiver, type, date DD/MM/YYYY and
 * time HH:mm as the clinic's clocks read them, and the address.
 */
export function appointmentSmsMessage(details: AppointmentDetails & { start: number }): string {
  // 'YYYY-MM-DD HH:mm' in the clinic's zone.
  const local = formatZonedLocal(details.start, details.timezone);
  const date = `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}`;
  const time = local.slice(11, 16);
  return [
    `פרטי התור שלך ב${details.clinicName}:`,
    `${details.typeName} עם ${details.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `כתובת: ${details.street} ${details.homeNumber}, ${details.city}`,
  ].join('\n');
}
