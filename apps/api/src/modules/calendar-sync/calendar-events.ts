import type { ProviderEvent } from './calendar-provider.js';

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
 * How one event (instance) from the calendar changes the mirror: the row to keep, or null to drop
 * it. Busy unless free or cancelled (which the provider says, its "show as" mapped). An all-day
 * event is busy even when free, and then marked `allDayFree`: Google Calendar makes every all-day
 * event "Free" unless its maker changes it, and a caregiver's day off or congress is all-day, so
 * it blocks unless the clinic turned `calendar_all_day_events_block` off (docs/calendar-sync.md,
 * "What blocks a slot"). Marpe's own events are kept, busy or not, to notice the caregiver
 * deleting one; they never block (the appointment does).
 */
export function mirrorRowOf(event: ProviderEvent): MirrorRow | null {
  const busy = !event.cancelled && (event.busy !== 'free' || event.allDay);
  const { start, end } = event;
  if (start === null || end === null || end <= start) {
    // A cancelled instance comes without times; Marpe's own is still worth keeping as deleted.
    return null;
  }
  if (!busy && event.appointmentId === null) return null;
  return {
    eventId: event.id,
    startAt: new Date(start),
    endAt: new Date(end),
    appointmentId: event.appointmentId,
    busy,
    allDayFree: busy && event.allDay && event.busy === 'free',
  };
}
