import { formatZonedIso } from '../../platform/zoned-time.js';
import { calendarEventText } from './calendar-event-text.js';
import { CalendarProviderError } from './calendar-provider.js';
import { READ_ONLY_MESSAGE, reportReadOnly, type CalendarSyncDeps } from './calendar-sync-deps.js';

/**
 * The `calendar.write` outbox handler: makes the caregiver's calendar show the appointment as it
 * now stands. Booked: the event written (the provider finds one a lost answer left and updates
 * it, so a retry never makes two); cancelled, or moved to another caregiver's calendar: the event
 * deleted there. The provider unreachable or refusing: throws, and the outbox tries again with
 * backoff.
 */
export function createWriteBack(
  deps: Pick<CalendarSyncDeps, 'api' | 'repository' | 'clock' | 'webhooks'>,
) {
  const { api, repository, clock, webhooks } = deps;

  async function markReadOnly(caregiverId: number, calendarId: string): Promise<void> {
    const entered = await repository.db.transaction(async (tx) => {
      const row = await repository.findSync(caregiverId, tx);
      if (!row || row.calendarId !== calendarId || row.state === 'read_only') return false;
      await repository.setState(tx, caregiverId, calendarId, {
        state: 'read_only',
        lastError: READ_ONLY_MESSAGE,
      });
      await reportReadOnly(webhooks, tx, row);
      return true;
    });
    if (entered) webhooks.kick();
  }

  return async function write(appointmentId: number): Promise<void> {
    if (!api) return;
    const appointment = await repository.findForWrite(appointmentId);
    if (!appointment) return;
    const link = await repository.findLink(appointmentId);
    const wanted =
      appointment.status === 'booked' && appointment.calendarId !== null
        ? appointment.calendarId
        : null;
    if (link?.present && link.calendarId !== wanted) {
      await api.deleteEvent(link.calendarId, link.eventId);
      await repository.saveLink({ ...link, present: false, writtenAt: new Date(clock()) });
    }
    if (wanted === null) return;
    const text = calendarEventText(appointment.detail, {
      typeName: appointment.typeName,
      patient: appointment,
      source: appointment.source,
    });
    let eventId: string;
    try {
      eventId = await api.writeEvent(
        wanted,
        {
          appointmentId,
          summary: text.summary,
          description: text.description,
          start: formatZonedIso(appointment.startAt.getTime(), appointment.timezone),
          end: formatZonedIso(appointment.endAt.getTime(), appointment.timezone),
          timeZone: appointment.timezone,
        },
        link?.calendarId === wanted ? link.eventId : null,
      );
    } catch (error) {
      if (error instanceof CalendarProviderError && error.kind === 'read_only') {
        // Shared for reading since the last pass: said now, not after 48 h of retries. The
        // outbox keeps trying, so the booking is written once the share is fixed.
        await markReadOnly(appointment.caregiverId, wanted);
      }
      throw error;
    }
    await repository.saveLink({
      appointmentId,
      caregiverId: appointment.caregiverId,
      calendarId: wanted,
      eventId,
      present: true,
      writtenAt: new Date(clock()),
    });
  };
}
