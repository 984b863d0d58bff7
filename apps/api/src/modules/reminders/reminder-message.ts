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
  /**
   * Whether the appointment can still be cancelled or moved online (the clinic's cancellation
   * notice has not begun); when not, the message gives the clinic's phone for changes.
   */
  changeableOnline: boolean;
  clinicPhone: string;
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
      subject.changeableOnline
        ? `To cancel or change the time: ${subject.link}`
        : `Details: ${subject.link}\nTo change it, call the clinic: ${subject.clinicPhone}`,
    ].join('\n');
  }
  return [
    `תזכורת: התור שלך ב${subject.clinicName}`,
    `${subject.typeName} עם ${subject.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    subject.changeableOnline
      ? `לביטול או לשינוי המועד: ${subject.link}`
      : `לפרטים: ${subject.link}\nלשינוי יש לפנות למרפאה: ${subject.clinicPhone}`,
  ].join('\n');
}
