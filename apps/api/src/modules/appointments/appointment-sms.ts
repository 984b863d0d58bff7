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

/** What a change notice names: the clinic, the caregiver, the time, and "my appointments". */
export interface NoticeSubject {
  clinicName: string;
  caregiverName: string;
  timezone: string;
  /** Epoch milliseconds: the appointment's start (the new one when moved). */
  start: number;
  /** The patient's appointments page of this clinic. */
  link: string;
}

/** The change a notice tells of. */
export type NoticeChange =
  | { kind: 'booked' }
  | { kind: 'cancelled' }
  /** The time before the move, and its caregiver's name when the move changed the caregiver. */
  | { kind: 'moved'; previousStart: number; previousCaregiverName: string | null };

/**
 * The message telling a patient an appointment of theirs was booked, moved or cancelled, whoever
 * did it, in the language they booked in. Kept short (two lines, no address or type): the link
 * leads to the rest, and a short text keeps a Latin one in one SMS segment.
 */
export function changeNoticeMessage(
  subject: NoticeSubject,
  change: NoticeChange,
  language: MessageLanguage,
): string {
  const at = (start: number) => formatZonedForPatient(start, subject.timezone);
  const { date, time } = at(subject.start);
  const { clinicName: clinic, caregiverName: caregiver, link } = subject;
  if (change.kind === 'moved') {
    const before = at(change.previousStart);
    const other = change.previousCaregiverName;
    if (language === 'en') {
      const from = other === null ? '' : ` with ${other}`;
      return `Your appointment at ${clinic} was moved from ${before.date} ${before.time}${from} to ${date} ${time} with ${caregiver}.\nMy appointments: ${link}`;
    }
    const from = other === null ? '' : ` אצל ${other}`;
    return `התור שלך ב${clinic} הועבר מ-${before.date} ${before.time}${from} ל-${date} בשעה ${time} אצל ${caregiver}.\nהתורים שלי: ${link}`;
  }
  if (change.kind === 'booked') {
    if (language === 'en') {
      return `Your appointment at ${clinic} with ${caregiver} is booked for ${date} at ${time}.\nMy appointments: ${link}`;
    }
    return `נקבע לך תור ב${clinic} אצל ${caregiver} ל-${date} בשעה ${time}.\nהתורים שלי: ${link}`;
  }
  if (language === 'en') {
    return `Your appointment at ${clinic} with ${caregiver} on ${date} at ${time} was cancelled.\nTo book another: ${link}`;
  }
  return `התור שלך ב${clinic} אצל ${caregiver} ב-${date} בשעה ${time} בוטל.\nלקביעת תור אחר: ${link}`;
}
