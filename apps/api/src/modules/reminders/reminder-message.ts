import type { MessageLanguage } from '../../platform/http/message-language.js';
import { formatZonedForPatient } from '../../platform/zoned-time.js';

export interface ReminderSubject {
  clinicName: string;
  caregiverName: string;
  typeName: string;
  timezone: string;
  /** Epoch milliseconds. */
  start: number;
  /** The patient's appointments page of this clinic, where it can be cancelled or moved. */
  link: string;
}

/**
 * A reminder, in the language the patient booked in: clinic, type, caregiver, the date
 * (DD/MM/YYYY) and time (HH:mm) as the clinic's clocks read them, and where to cancel or move it.
 */
export function reminderMessage(subject: ReminderSubject, language: MessageLanguage): string {
  const { date, time } = formatZonedForPatient(subject.start, subject.timezone);
  if (language === 'en') {
    return [
      `Reminder: your appointment at ${subject.clinicName}`,
      `${subject.typeName} with ${subject.caregiverName}`,
      `On ${date} at ${time}`,
      `To cancel or change the time: ${subject.link}`,
    ].join('\n');
  }
  return [
    `תזכורת: התור שלך ב${subject.clinicName}`,
    `${subject.typeName} עם ${subject.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `לביטול או לשינוי המועד: ${subject.link}`,
  ].join('\n');
}
