import type { MessageLanguage } from '../../platform/http/message-language.js';
import { formatZonedLocal } from '../../platform/zoned-time.js';

export interface OfferDetails {
  publicOrigin: string;
  clinicId: number;
  clinicName: string;
  caregiverId: number;
  caregiverName: string;
  appointmentTypeId: number;
  typeName: string;
  timezone: string;
  /** The slot's start, epoch ms. */
  start: number;
}

/**
 * The booking page preselected on the slot: the page's own query parameters (caregiverId,
 * appointmentTypeId, date) plus `time`, the start as the clinic's clocks read it.
 */
export function offerLink(details: OfferDetails): string {
  const local = formatZonedLocal(details.start, details.timezone);
  // Digits, dashes and a colon: nothing to escape, and the link reads plainly in a message.
  const query = [
    `caregiverId=${details.caregiverId}`,
    `appointmentTypeId=${details.appointmentTypeId}`,
    `date=${local.slice(0, 10)}`,
    `time=${local.slice(11, 16)}`,
  ].join('&');
  return `${details.publicOrigin}/booking/${details.clinicId}?${query}`;
}

/**
 * The offer of a freed slot, in the language the patient joined in: clinic, type, caregiver,
 * date DD/MM/YYYY and time HH:mm in clinic time, the link, and that the first to book gets it.
 */
export function offerMessage(details: OfferDetails, language: MessageLanguage): string {
  const local = formatZonedLocal(details.start, details.timezone);
  const date = `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}`;
  const time = local.slice(11, 16);
  const link = offerLink(details);
  if (language === 'en') {
    return [
      `A time freed up at ${details.clinicName}:`,
      `${details.typeName} with ${details.caregiverName}`,
      `On ${date} at ${time}`,
      `Book it here (first come, first served): ${link}`,
    ].join('\n');
  }
  return [
    `התפנה תור ב${details.clinicName}:`,
    `${details.typeName} עם ${details.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `לקביעה (התור של מי שקובע ראשון): ${link}`,
  ].join('\n');
}
