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
  /**
   * When the time freed (a cancellation, a move) is not the one offered: its start. The offer
   * then says the time offered is the nearest free one in the patient's range.
   */
  freedStart?: number;
}

/** 'DD/MM/YYYY' and 'HH:mm' of an instant, clinic time. */
function dateAndTime(epochMs: number, timezone: string): [string, string] {
  const local = formatZonedLocal(epochMs, timezone);
  return [`${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}`, local.slice(11, 16)];
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
  const [date, time] = dateAndTime(details.start, details.timezone);
  const link = offerLink(details);
  const freed =
    details.freedStart === undefined ? null : dateAndTime(details.freedStart, details.timezone);
  if (language === 'en') {
    return [
      ...(freed
        ? [
            `A time freed up at ${details.clinicName} (${freed[0]} at ${freed[1]}).`,
            'The nearest free time in the dates you asked for:',
          ]
        : [`A time freed up at ${details.clinicName}:`]),
      `${details.typeName} with ${details.caregiverName}`,
      `On ${date} at ${time}`,
      `Book it here (first come, first served): ${link}`,
    ].join('\n');
  }
  return [
    ...(freed
      ? [
          `התפנה תור ב${details.clinicName} (${freed[0]} בשעה ${freed[1]}).`,
          'המועד הפנוי הקרוב אליו בתאריכים שביקשת:',
        ]
      : [`התפנה תור ב${details.clinicName}:`]),
    `${details.typeName} עם ${details.caregiverName}`,
    `בתאריך ${date} בשעה ${time}`,
    `לקביעה (התור של מי שקובע ראשון): ${link}`,
  ].join('\n');
}
