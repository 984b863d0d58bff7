import { isValidTimeZone, startOfZonedDay, zonedToEpoch } from '../../../../platform/zoned-time.js';
import {
  CalendarProviderError,
  retryAfterOf,
  type CalendarErrorKind,
  type CalendarProvider,
  type ProviderEvent,
} from '../../calendar-provider.js';

// Microsoft Graph v1.0 as a CalendarProvider (ADR 043): the events of one calendar by
// calendarView/delta, change notifications by subscription, calendarView for the last check, and
// Marpe's bookings written as events. Typed requests over `fetch` with the connection's own
// token; tests point the base URL at a loopback fake, the demo at its in-process stand-in.

export type GraphTransport = (url: string, init: RequestInit) => Promise<Response>;

/** Marpe's appointment id on its own events (a single-value extended property, string). */
export const MARPE_PROPERTY_ID =
  'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name marpeAppointmentId';
/** Graph keeps an event subscription at most 4230 minutes; asked a little less. */
export const MAX_SUBSCRIPTION_MS = 4200 * 60_000;

export interface GraphEvent {
  id: string;
  '@removed'?: { reason?: string };
  showAs?: string;
  isAllDay?: boolean;
  isCancelled?: boolean;
  type?: string;
  seriesMasterId?: string | null;
  responseStatus?: { response?: string };
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
  singleValueExtendedProperties?: { id?: string; value?: string }[];
  transactionId?: string | null;
}

/**
 * A refusal of Graph's in the sync's words. Throttling is 429 (or 503) with `Retry-After`; a
 * delta link Graph no longer knows is 410 `syncStateNotFound` / `resyncRequired`.
 */
function graphError(
  status: number,
  code: string | null,
  message: string,
  retryAfter: number | null,
): CalendarProviderError {
  let kind: CalendarErrorKind = 'unavailable';
  if (status === 429 || status === 503) kind = 'rate_limited';
  else if (status === 410 || code === 'syncStateNotFound' || code === 'resyncRequired')
    kind = 'stale_cursor';
  else if (status === 401 || status === 403) kind = 'no_access';
  else if (status === 404) kind = 'not_found';
  return new CalendarProviderError(
    status,
    kind,
    code ? `${message} (${code})` : message,
    retryAfter,
  );
}

/** `{ error: { code, message } }`, Graph's error body. */
async function errorOf(response: Response): Promise<CalendarProviderError> {
  let code: string | null = null;
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') code = body.error.code.slice(0, 60);
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 200);
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return graphError(
    response.status,
    code,
    message,
    retryAfterOf(response.headers.get('retry-after')),
  );
}

/** Graph's `dateTimeTimeZone` as an instant: asked in UTC, read in the zone it names otherwise. */
function instantOf(time: { dateTime?: string; timeZone?: string } | undefined): number | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)/.exec(time?.dateTime ?? '');
  if (!match) return null;
  const zone = time?.timeZone ?? 'UTC';
  if (zone !== 'UTC' && isValidTimeZone(zone))
    return zonedToEpoch(`${match[1]} ${match[2]?.slice(0, 5)}`, zone);
  const at = Date.parse(`${match[1]}T${match[2]}Z`);
  return Number.isFinite(at) ? at : null;
}

/** `showAs` as a clinic reads it: busy, out of office and tentative block; the rest do not. */
const BUSY_OF: Record<string, ProviderEvent['busy']> = {
  busy: 'busy',
  oof: 'busy',
  tentative: 'tentative',
};

/**
 * A Graph event in the provider-neutral shape. Removed, cancelled (`isCancelled`) or declined by
 * the calendar's owner: `cancelled`. An all-day event's dates are days of the clinic's zone.
 */
export function providerEventOf(event: GraphEvent, clinicZone: string): ProviderEvent {
  const removed = event['@removed'] !== undefined;
  const allDay = event.isAllDay === true;
  const dayOf = (time: GraphEvent['start']) => {
    const date = /^\d{4}-\d{2}-\d{2}/.exec(time?.dateTime ?? '')?.[0];
    return date ? startOfZonedDay(date, clinicZone) : null;
  };
  const property = event.singleValueExtendedProperties?.find(
    (p) => p.id?.toLowerCase() === MARPE_PROPERTY_ID.toLowerCase(),
  )?.value;
  return {
    id: event.id,
    start: removed ? null : allDay ? dayOf(event.start) : instantOf(event.start),
    end: removed ? null : allDay ? dayOf(event.end) : instantOf(event.end),
    allDay,
    busy: BUSY_OF[event.showAs ?? ''] ?? 'free',
    cancelled:
      removed || event.isCancelled === true || event.responseStatus?.response === 'declined',
    appointmentId:
      property && /^[1-9]\d{0,9}$/.test(property) && Number(property) <= 2_147_483_647
        ? Number(property)
        : null,
    seriesId: event.seriesMasterId ?? null,
  };
}

/** `2027-03-25T09:00:00` in UTC, as Graph's `dateTimeTimeZone` wants it. */
const utcOf = (at: number) => new Date(at).toISOString().slice(0, 19);

export interface GraphCalendarApiOptions {
  /** Microsoft Graph v1.0, no trailing slash. */
  baseUrl: string;
  /** The connection's token (`fresh`: the last one was refused with 401). */
  accessToken: (fresh: boolean) => Promise<string>;
  transport?: GraphTransport;
  timeoutMs?: number;
}

export function createGraphCalendarApi(options: GraphCalendarApiOptions): CalendarProvider {
  const { baseUrl } = options;
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function send(
    method: string,
    url: string,
    body: object | undefined,
    signal: AbortSignal | undefined,
    fresh: boolean,
    prefer?: string,
  ): Promise<Response> {
    // The token goes to Graph only: a next or delta link elsewhere is refused, not followed.
    if (!url.startsWith(`${baseUrl}/`)) {
      throw new CalendarProviderError(502, 'unavailable', 'Graph gave a link outside Graph');
    }
    const token = await options.accessToken(fresh);
    try {
      return await transport(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(prefer ? { prefer } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: signal ?? AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new CalendarProviderError(
        0,
        'unavailable',
        `Graph unreachable (${(error as Error).name})`,
      );
    }
  }

  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
    extra: { signal?: AbortSignal; prefer?: string } = {},
  ): Promise<Response> {
    let response = await send(method, url, body, extra.signal, false, extra.prefer);
    if (response.status === 401) {
      // The access token ended early or was revoked: one more try with a fresh one.
      await response.body?.cancel();
      response = await send(method, url, body, extra.signal, true, extra.prefer);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  const calendarUrl = (calendarId: string) =>
    `${baseUrl}/me/calendars/${encodeURIComponent(calendarId)}`;

  return {
    serviceAccountEmail: null,

    async listChanges(calendarId, cursor, { zone, window }) {
      // Graph says whether the account may write the calendar on the calendar, not on its events.
      const calendar = (await (await call('GET', calendarUrl(calendarId))).json()) as {
        canEdit?: unknown;
      };
      let url =
        cursor ??
        `${calendarUrl(calendarId)}/calendarView/delta?${new URLSearchParams({
          startDateTime: new Date(window.from).toISOString(),
          endDateTime: new Date(window.to).toISOString(),
        })}`;
      const events: ProviderEvent[] = [];
      for (let page = 0; page < 1000; page++) {
        const response = await call('GET', url, undefined, {
          prefer: 'odata.maxpagesize=200, outlook.timezone="UTC"',
        });
        const json = (await response.json()) as {
          value?: GraphEvent[];
          '@odata.nextLink'?: unknown;
          '@odata.deltaLink'?: unknown;
        };
        for (const item of json.value ?? []) {
          // A series' master is not an instance; calendarView brings each occurrence.
          if (typeof item?.id !== 'string' || item.type === 'seriesMaster') continue;
          events.push(providerEventOf(item, zone));
        }
        if (typeof json['@odata.nextLink'] === 'string') {
          url = json['@odata.nextLink'];
          continue;
        }
        return {
          full: cursor === null,
          events,
          cursor: typeof json['@odata.deltaLink'] === 'string' ? json['@odata.deltaLink'] : null,
          readOnly: calendar.canEdit === false,
        };
      }
      throw new CalendarProviderError(502, 'unavailable', 'Graph gave no end to its pages');
    },

    async openChannel(calendarId, channel) {
      const expiration = Math.min(channel.expiration, channel.now + MAX_SUBSCRIPTION_MS);
      const response = await call('POST', `${baseUrl}/subscriptions`, {
        changeType: 'created,updated,deleted',
        notificationUrl: channel.address,
        // Removed, missed and reauthorization-required events come to the same route.
        lifecycleNotificationUrl: channel.address,
        resource: `/me/calendars/${calendarId}/events`,
        expirationDateTime: new Date(expiration).toISOString(),
        clientState: channel.token,
      });
      const json = (await response.json()) as {
        id?: unknown;
        resource?: unknown;
        expirationDateTime?: unknown;
      };
      if (typeof json.id !== 'string') {
        throw new CalendarProviderError(
          502,
          'unavailable',
          'Graph answered without a subscription id',
        );
      }
      const granted = Date.parse(String(json.expirationDateTime));
      return {
        id: json.id,
        resourceId: typeof json.resource === 'string' ? json.resource : calendarId,
        expiration: Number.isFinite(granted) ? granted : expiration,
      };
    },

    /** PATCH of the subscription's expiry: no new handshake, no gap; a 404 means it lapsed. */
    async renewChannel(channel, { expiration, now }) {
      const asked = Math.min(expiration, now + MAX_SUBSCRIPTION_MS);
      try {
        const response = await call(
          'PATCH',
          `${baseUrl}/subscriptions/${encodeURIComponent(channel.id)}`,
          { expirationDateTime: new Date(asked).toISOString() },
        );
        const granted = Date.parse(
          String(((await response.json()) as { expirationDateTime?: unknown }).expirationDateTime),
        );
        return { expiration: Number.isFinite(granted) ? granted : asked };
      } catch (error) {
        if (error instanceof CalendarProviderError && error.status === 404) return null;
        throw error;
      }
    },

    async stopChannel(channel) {
      try {
        await call('DELETE', `${baseUrl}/subscriptions/${encodeURIComponent(channel.id)}`);
      } catch (error) {
        // Expired or deleted already: nothing left to stop.
        if (!(error instanceof CalendarProviderError && error.status === 404)) throw error;
      }
    },

    /**
     * The calendar's own events over the window (calendarView), not getSchedule: getSchedule
     * answers for a mailbox's default calendar only, and a caregiver may connect another (ADR 043).
     * Busy as the mirror reads it: busy, out of office and tentative, not cancelled or declined.
     */
    async freeBusy(calendarId, window, { zone, signal }) {
      let url: string | null = `${calendarUrl(calendarId)}/calendarView?${new URLSearchParams({
        startDateTime: new Date(window.from).toISOString(),
        endDateTime: new Date(window.to).toISOString(),
        $select: 'showAs,isAllDay,isCancelled,responseStatus,start,end',
      })}`;
      const busy: { start: number; end: number }[] = [];
      for (let page = 0; url && page < 100; page++) {
        const response = await call('GET', url, undefined, {
          signal,
          prefer: 'odata.maxpagesize=100, outlook.timezone="UTC"',
        });
        const json = (await response.json()) as {
          value?: GraphEvent[];
          '@odata.nextLink'?: unknown;
        };
        for (const item of json.value ?? []) {
          if (typeof item?.id !== 'string') continue;
          const event = providerEventOf(item, zone);
          if (event.cancelled || event.busy === 'free') continue;
          if (event.start !== null && event.end !== null && event.end > event.start) {
            busy.push({ start: event.start, end: event.end });
          }
        }
        url = typeof json['@odata.nextLink'] === 'string' ? json['@odata.nextLink'] : null;
      }
      if (url)
        throw new CalendarProviderError(502, 'unavailable', 'Graph gave no end to its pages');
      return busy;
    },

    /**
     * The known event patched; else created with a `transactionId` of the appointment and its
     * time, so a create retried after a lost answer gives back the same event, never a second.
     */
    async writeEvent(calendarId, write, knownEventId) {
      const start = Date.parse(write.start);
      const end = Date.parse(write.end);
      const event = {
        subject: write.summary,
        body: { contentType: 'text', content: write.description },
        start: { dateTime: utcOf(start), timeZone: 'UTC' },
        end: { dateTime: utcOf(end), timeZone: 'UTC' },
        showAs: 'busy',
        isReminderOn: false,
        singleValueExtendedProperties: [
          { id: MARPE_PROPERTY_ID, value: String(write.appointmentId) },
        ],
      };
      const refusedWrite = (error: unknown) =>
        error instanceof CalendarProviderError && error.status === 403
          ? new CalendarProviderError(403, 'read_only', error.message)
          : error;
      if (knownEventId) {
        try {
          await call('PATCH', `${baseUrl}/me/events/${encodeURIComponent(knownEventId)}`, event);
          return knownEventId;
        } catch (error) {
          if (!(error instanceof CalendarProviderError && error.status === 404)) {
            throw refusedWrite(error);
          }
        }
      }
      try {
        const response = await call('POST', `${calendarUrl(calendarId)}/events`, {
          ...event,
          transactionId: `marpe-${write.appointmentId}-${start}`,
        });
        const json = (await response.json()) as { id?: unknown };
        if (typeof json.id !== 'string') {
          throw new CalendarProviderError(
            502,
            'unavailable',
            'Graph created an event without an id',
          );
        }
        return json.id;
      } catch (error) {
        throw refusedWrite(error);
      }
    },

    async deleteEvent(_calendarId, eventId) {
      try {
        await call('DELETE', `${baseUrl}/me/events/${encodeURIComponent(eventId)}`);
      } catch (error) {
        // Gone already (deleted by the caregiver): nothing left to delete.
        if (!(error instanceof CalendarProviderError && error.status === 404)) throw error;
      }
    },
  };
}
