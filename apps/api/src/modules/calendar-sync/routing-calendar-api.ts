import type { CalendarConnections } from './calendar-connections.js';
import { CalendarProviderError, type CalendarProvider } from './calendar-provider.js';

/**
 * One provider over every way in: a calendar connected by consent with its own provider and
 * token, any other through the service account (for the clinics the operator named; the worker
 * syncs no other). Without either, the call is refused as "no access".
 */
export function routingCalendarApi(
  serviceAccount: CalendarProvider | null,
  connections: Pick<CalendarConnections, 'apiFor'>,
): CalendarProvider {
  const pick = async (calendarId: string) => {
    const api = (await connections.apiFor(calendarId)) ?? serviceAccount;
    if (!api) {
      throw new CalendarProviderError(
        403,
        'no_access',
        'Not connected: send the caregiver a connection link',
      );
    }
    return api;
  };
  return {
    serviceAccountEmail: serviceAccount?.serviceAccountEmail ?? null,
    listChanges: async (calendarId, cursor, options) =>
      (await pick(calendarId)).listChanges(calendarId, cursor, options),
    openChannel: async (calendarId, channel) =>
      (await pick(calendarId)).openChannel(calendarId, channel),
    renewChannel: async (channel, renewal) =>
      (await pick(channel.calendarId)).renewChannel(channel, renewal),
    stopChannel: async (channel) => (await pick(channel.calendarId)).stopChannel(channel),
    freeBusy: async (calendarId, window, options) =>
      (await pick(calendarId)).freeBusy(calendarId, window, options),
    writeEvent: async (calendarId, event, knownEventId) =>
      (await pick(calendarId)).writeEvent(calendarId, event, knownEventId),
    deleteEvent: async (calendarId, eventId) =>
      (await pick(calendarId)).deleteEvent(calendarId, eventId),
  };
}
