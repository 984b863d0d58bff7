import { isValidTimeZone, startOfZonedDay, zonedToEpoch } from '../../platform/zoned-time.js';
import type { GoogleEvent, GoogleEventTime } from './google-calendar-api.js';

/** The private extended property Marpe's own events carry: the appointment they show. */
export const MARPE_APPOINTMENT_PROPERTY = 'marpeAppointmentId';

/** What the mirror keeps of one event instance. */
export interface MirrorRow {
  eventId: string;
  startAt: Date;
  endAt: Date;
  /** Marpe's own event: the appointment it shows. */
  appointmentId: number | null;
  /** Blocks slots (for Marpe's own events: still in the calendar). */
  busy: boolean;
  /**
   * An all-day event marked "Free": busy, but it blocks only while the clinic's
   * `calendar_all_day_events_block` is on (decided when slots are read, so a change of the
   * setting holds for what is already mirrored).
   */
  allDayFree: boolean;
}

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

const appointmentIdOf = (event: GoogleEvent): number | null => {
  const text = event.extendedProperties?.private?.[MARPE_APPOINTMENT_PROPERTY] ?? '';
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
};

/** Entries that say where someone is or whose birthday it is, never that they are taken. */
const NEVER_BUSY_EVENT_TYPES = new Set(['workingLocation', 'birthday']);

/**
 * How one event (instance) from the calendar changes the mirror: the row to keep, or null to drop
 * it. Busy unless free (`transparent`), cancelled, declined by the calendar's owner (the attendee
 * marked `self`), a working location or a birthday. An all-day event is busy even when free, and
 * then marked `allDayFree`: Google Calendar makes every all-day event "Free" unless its maker
 * changes it, and a caregiver's day off or congress is all-day, so it blocks unless the clinic
 * turned `calendar_all_day_events_block` off (docs/calendar-sync.md, "What blocks a slot").
 * Marpe's own events are kept, busy or not, to notice the caregiver deleting one; they never block
 * (the appointment does).
 */
export function mirrorRowOf(event: GoogleEvent, clinicZone: string): MirrorRow | null {
  const appointmentId = appointmentIdOf(event);
  const cancelled = event.status === 'cancelled';
  const declined = (event.attendees ?? []).some(
    (a) => a.self === true && a.responseStatus === 'declined',
  );
  const allDay = event.start?.dateTime === undefined && event.start?.date !== undefined;
  const transparent = event.transparency === 'transparent';
  const busy =
    !cancelled &&
    !declined &&
    !(transparent && !allDay) &&
    !NEVER_BUSY_EVENT_TYPES.has(event.eventType ?? 'default');
  const start = instantOf(event.start, clinicZone);
  const end = instantOf(event.end, clinicZone);
  if (start === null || end === null || end <= start) {
    // A cancelled instance comes without times; Marpe's own is still worth keeping as deleted.
    return null;
  }
  if (!busy && appointmentId === null) return null;
  return {
    eventId: event.id,
    startAt: new Date(start),
    endAt: new Date(end),
    appointmentId,
    busy,
    allDayFree: busy && allDay && transparent,
  };
}
