import { isValidTimeZone, startOfZonedDay, zonedToEpoch } from '../../../../platform/zoned-time.js';
import type { ProviderEvent } from '../../calendar-provider.js';
import { MARPE_APPOINTMENT_PROPERTY } from '../../calendar-events.js';
import type { GoogleEvent, GoogleEventTime } from './google-calendar-api.js';

/**
 * An event's start or end as an instant: a `dateTime` carries its offset; one without (Google
 * always sends one, but an import may not) is read in the event's zone, else the clinic's; an
 * all-day `date` is the start of that day in the clinic's zone (the caregiver works there).
 */
function instantOf(time: GoogleEventTime | undefined, clinicZone: string): number | null {
  if (!time) return null;
  if (time.dateTime) {
    const text = time.dateTime;
    if (/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
      const at = Date.parse(text);
      return Number.isFinite(at) ? at : null;
    }
    const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(text);
    if (!match) return null;
    const zone = time.timeZone && isValidTimeZone(time.timeZone) ? time.timeZone : clinicZone;
    return zonedToEpoch(`${match[1]} ${match[2]}`, zone);
  }
  if (time.date && /^\d{4}-\d{2}-\d{2}$/.test(time.date)) {
    return startOfZonedDay(time.date, clinicZone);
  }
  return null;
}

/** Marpe's appointment id from its own property, when it is one. */
export const appointmentIdOf = (text: string | undefined): number | null =>
  text !== undefined && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647
    ? Number(text)
    : null;

/** Entries that say where someone is or whose birthday it is, never that they are taken. */
const NEVER_BUSY_EVENT_TYPES = new Set(['workingLocation', 'birthday']);

/**
 * A Google event instance in the provider-neutral shape. Cancelled (deleted), declined by the
 * calendar's owner (the attendee marked `self`), a working location or a birthday: `cancelled`,
 * never blocks. "Free" (`transparency: transparent`): 'free'. Tentative: 'tentative'.
 */
export function providerEventOf(event: GoogleEvent, clinicZone: string): ProviderEvent {
  const declined = (event.attendees ?? []).some(
    (a) => a.self === true && a.responseStatus === 'declined',
  );
  return {
    id: event.id,
    start: instantOf(event.start, clinicZone),
    end: instantOf(event.end, clinicZone),
    allDay: event.start?.dateTime === undefined && event.start?.date !== undefined,
    busy:
      event.transparency === 'transparent'
        ? 'free'
        : event.status === 'tentative'
          ? 'tentative'
          : 'busy',
    cancelled:
      event.status === 'cancelled' ||
      declined ||
      NEVER_BUSY_EVENT_TYPES.has(event.eventType ?? 'default'),
    appointmentId: appointmentIdOf(event.extendedProperties?.private?.[MARPE_APPOINTMENT_PROPERTY]),
    seriesId: event.recurringEventId ?? null,
  };
}
