import type { MessageLanguage } from '../../platform/http/message-language.js';
import { formatZonedForPatient } from '../../platform/zoned-time.js';
import type { AppointmentDetails } from './appointments-repository.js';

/**
 * The details SMS of a booked appointment, in the language the patient booked in: clinic,
 * caregiver, type, date DD/MM/YYYY and time HH:mm as the clinic's clocks read them, and the
 * address.
 */
export function appointmentSmsMessage(
  details: AppointmentDetails & { start: number },
  language: MessageLanguage,
): string {
  const { date, time } = formatZonedForPatient(details.start, details.timezone);
  const address = `${details.street} ${details.homeNumber}, ${details.city}`;
  if (language === 'en') {
    return [
      `Your appointment at ${details.clinicName}:`,
      `${details.typeName} with ${details.caregiverName}`,
      `On ${date} at ${time}`,
      `Address: ${address}`,
    ].join('\n');
  }
  return [
    `פרטי התור שלך ב${details.clinicName}:`,
    `${details.typeName} עם ${details.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `כתובת: ${address}`,
  ].join('\n');
}

/**
 * The message telling a patient the clinic cancelled their appointment, in the language they
 * booked in: clinic, caregiver, type, date and time, and the clinic's phone to book another.
 * Never the clinic's reason (kept for the clinic's eyes).
 */
export function appointmentCancelledMessage(
  details: Pick<AppointmentDetails, 'clinicName' | 'timezone' | 'caregiverName' | 'typeName'> & {
    clinicPhone: string;
    start: number;
  },
  language: MessageLanguage,
): string {
  const { date, time } = formatZonedForPatient(details.start, details.timezone);
  if (language === 'en') {
    return [
      `Your appointment at ${details.clinicName} was cancelled:`,
      `${details.typeName} with ${details.caregiverName}`,
      `On ${date} at ${time}`,
      `To book another time: ${details.clinicPhone}`,
    ].join('\n');
  }
  return [
    `התור שלך ב${details.clinicName} בוטל:`,
    `${details.typeName} עם ${details.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `לקביעת מועד אחר: ${details.clinicPhone}`,
  ].join('\n');
}
