import type { CalendarConnections } from './calendar-connections.js';
import { GoogleApiError, type GoogleCalendarApi } from './google-calendar-api.js';

/**
 * One Calendar API over both ways in: a calendar connected by consent with its own token, any
 * other through the service account (for the clinics the operator named; the worker syncs no
 * other). Without either, the call is refused as "no access".
 */
export function routingCalendarApi(
  serviceAccount: GoogleCalendarApi | null,
  connections: Pick<CalendarConnections, 'apiFor'>,
): GoogleCalendarApi {
  const pick = async (calendarId: string | undefined) => {
    const api = (calendarId ? await connections.apiFor(calendarId) : null) ?? serviceAccount;
    if (!api) throw new GoogleApiError(403, 'Not connected: send the caregiver a connection link');
    return api;
  };
  return {
    serviceAccountEmail: serviceAccount?.serviceAccountEmail ?? null,
    listEvents: async (calendarId, page) => (await pick(calendarId)).listEvents(calendarId, page),
    watch: async (calendarId, channel) => (await pick(calendarId)).watch(calendarId, channel),
    stopChannel: async (channel) => (await pick(channel.calendarId)).stopChannel(channel),
    freeBusy: async (calendarId, window, signal) =>
      (await pick(calendarId)).freeBusy(calendarId, window, signal),
    insertEvent: async (calendarId, event) =>
      (await pick(calendarId)).insertEvent(calendarId, event),
    patchEvent: async (calendarId, eventId, event) =>
      (await pick(calendarId)).patchEvent(calendarId, eventId, event),
    deleteEvent: async (calendarId, eventId) =>
      (await pick(calendarId)).deleteEvent(calendarId, eventId),
  };
}
