import type { AppointmentSource, CalendarEventDetail } from '@marpe/shared';

/** What a caregiver's calendar may show of an appointment; never the ID number. */
export interface CalendarEventSubject {
  typeName: string;
  patient: { firstName: string; lastName: string; phone: string };
  source: AppointmentSource;
}

export interface CalendarEventText {
  summary: string;
  description: string;
}

/** '0501234567' → '050-1234567', as people write Israeli mobiles. */
function displayPhone(phone: string): string {
  return /^05\d{8}$/.test(phone) ? `${phone.slice(0, 3)}-${phone.slice(3)}` : phone;
}

/** 'דנה', 'לוי' → 'ד.ל.' */
function initialsOf(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((name) => [...name.trim()][0])
    .filter((letter): letter is string => letter !== undefined)
    .map((letter) => `${letter}.`)
    .join('');
}

const sourceLine = (source: AppointmentSource) =>
  source === 'clinic' ? 'נקבע על ידי המרפאה דרך מרפא' : 'נקבע באינטרנט דרך מרפא';

/**
 * The title and notes of an appointment's event in the caregiver's own calendar, at the clinic's
 * `calendar_event_detail`: `full` names the patient and phone, `initials` only the patient's
 * initials, `minimal` not even the type (a type can say something about health). In Hebrew, as
 * the clinic's staff read it. Shared by the iCalendar feed and the Google write-back.
 */
export function calendarEventText(
  detail: CalendarEventDetail,
  appointment: CalendarEventSubject,
): CalendarEventText {
  const { typeName, patient, source } = appointment;
  if (detail === 'minimal') return { summary: 'תור (מרפא)', description: sourceLine(source) };
  if (detail === 'initials') {
    const initials = initialsOf(patient.firstName, patient.lastName);
    return {
      summary: initials === '' ? typeName : `${typeName} – ${initials}`,
      description: [`סוג התור: ${typeName}`, sourceLine(source)].join('\n'),
    };
  }
  const name = `${patient.firstName} ${patient.lastName}`.trim();
  return {
    summary: `${typeName} – ${name}`,
    description: [
      `מטופל/ת: ${name}`,
      `טלפון: ${displayPhone(patient.phone)}`,
      `סוג התור: ${typeName}`,
      sourceLine(source),
    ].join('\n'),
  };
}
