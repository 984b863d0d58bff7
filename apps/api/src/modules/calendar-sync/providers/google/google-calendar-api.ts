import { Gaxios } from 'gaxios';
import { JWT } from 'google-auth-library';
import { GOOGLE_TOKEN_URL, type ServiceAccountKey } from '../../../../platform/config.js';
import {
  CalendarProviderError,
  retryAfterOf,
  type CalendarErrorKind,
  type CalendarProvider,
  type ProviderEventWrite,
} from '../../calendar-provider.js';
import { MARPE_APPOINTMENT_PROPERTY } from '../../calendar-events.js';
import { providerEventOf } from './google-events.js';

// Google Calendar API v3 as a CalendarProvider (ADR 031, ADR 043): the calls the sync needs, as
// typed requests over `fetch`. The token comes from google-auth-library's service-account JWT
// flow, or a connection's own; both the API and the token endpoint are reached through one
// transport, so tests point them at a loopback fake and the demo at its in-process stand-in
// (google-standin.ts). Over 400 lines: the raw calls and the provider over them share one
// request frame and one error reading, and are read together.

/** Events read and written, push channels, and the free/busy question; nothing else. */
export const GOOGLE_CALENDAR_SCOPES = [
  'https://www.googleapis.com/auth/calendar.events',
  'https://www.googleapis.com/auth/calendar.freebusy',
] as const;

/** An event's start or end: `date` for all-day events (end exclusive), else `dateTime`. */
export interface GoogleEventTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

export interface GoogleEvent {
  id: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  transparency?: 'opaque' | 'transparent';
  /** 'default', 'outOfOffice', 'focusTime', 'workingLocation', 'birthday', 'fromGmail'… */
  eventType?: string;
  start?: GoogleEventTime;
  end?: GoogleEventTime;
  attendees?: { self?: boolean; responseStatus?: string }[];
  extendedProperties?: { private?: Record<string, string>; shared?: Record<string, string> };
  recurringEventId?: string;
  summary?: string;
  description?: string;
}

export interface EventsPage {
  items: GoogleEvent[];
  nextPageToken?: string;
  nextSyncToken?: string;
  /** What the caller may do: 'owner' or 'writer' write; 'reader' and 'freeBusyReader' only read. */
  accessRole?: string;
}

/** What Marpe writes: its own id, times, text and the appointment it shows. */
export interface EventWrite {
  id?: string;
  summary: string;
  description: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  status: 'confirmed';
  transparency: 'opaque';
  extendedProperties: { private: Record<string, string> };
}

// https://developers.google.com/workspace/calendar/api/guides/errors
const RATE_LIMIT_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
  'usageLimits',
]);

/** The event id Marpe writes an appointment under: derived, so a retried insert never makes two. */
export const marpeEventId = (appointmentId: number): string => `marpe${appointmentId}`;

/**
 * A refusal of Google's API in the sync's words. `reason` is Google's
 * (`error.errors[0].reason`): a 403 is a missing share, a spent quota or a read-only calendar,
 * told apart only by it. 410 on a list with a sync token means "start again with a full sync".
 */
export function googleError(
  status: number,
  message: string,
  reason: string | null,
  retryAfter: number | null = null,
): CalendarProviderError {
  let kind: CalendarErrorKind = 'unavailable';
  if (status === 429 || (reason !== null && RATE_LIMIT_REASONS.has(reason))) kind = 'rate_limited';
  else if (reason === 'requiredAccessLevel') kind = 'read_only';
  else if (status === 401 || status === 403) kind = 'no_access';
  else if (status === 404) kind = 'not_found';
  else if (status === 410) kind = 'stale_cursor';
  return new CalendarProviderError(status, kind, message, retryAfter);
}

export type GoogleTransport = (url: string, init: RequestInit) => Promise<Response>;

export interface GoogleCalendarApiOptions {
  /** The service account's key; or, for a calendar connected by consent, `accessToken`. */
  key?: ServiceAccountKey;
  /**
   * The connection's access token (`fresh`: the last one was refused with 401, get a new one).
   * Its failures are thrown as they come (a CalendarProviderError).
   */
  accessToken?: (fresh: boolean) => Promise<string>;
  /** No trailing slash. */
  apiBaseUrl: string;
  /** Where the signed assertion is exchanged for a token (Google's, a fake's, the demo's). */
  tokenUrl: string;
  /** Default `fetch`. */
  transport?: GoogleTransport;
  /** Per request, unless the call gives its own signal (default 10 s). */
  timeoutMs?: number;
}

/** The raw calls, under the provider. */
interface GoogleCalls {
  listEvents(
    calendarId: string,
    page: { syncToken?: string | null; pageToken?: string },
  ): Promise<EventsPage>;
  watch(
    calendarId: string,
    channel: { id: string; token: string; address: string; expiration: number },
  ): Promise<{ resourceId: string; expiration: number }>;
  /** `calendarId`: the calendar it watches (whose credentials opened it). */
  stopChannel(channel: { id: string; resourceId: string; calendarId?: string }): Promise<void>;
  /** Busy intervals of one calendar in [from, to) (epoch ms). */
  freeBusy(
    calendarId: string,
    window: { from: number; to: number },
    signal?: AbortSignal,
  ): Promise<{ start: number; end: number }[]>;
  insertEvent(calendarId: string, event: EventWrite): Promise<void>;
  patchEvent(calendarId: string, eventId: string, event: EventWrite): Promise<void>;
  deleteEvent(calendarId: string, eventId: string): Promise<void>;
}

/** Google's error body: `{ error: { code, message, errors: [{ domain, reason, message }] } }`. */
const errorOf = async (response: Response): Promise<CalendarProviderError> => {
  let message = `HTTP ${response.status}`;
  let reason: string | null = null;
  try {
    const body = (await response.json()) as {
      error?: { message?: unknown; errors?: { reason?: unknown }[] };
    };
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 200);
    const first = body.error?.errors?.[0]?.reason;
    if (typeof first === 'string') reason = first.slice(0, 60);
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return googleError(
    response.status,
    reason ? `${message} (${reason})` : message,
    reason,
    retryAfterOf(response.headers.get('retry-after')),
  );
};

export function createGoogleCalendarApi(options: GoogleCalendarApiOptions): CalendarProvider {
  const { key, apiBaseUrl, tokenUrl } = options;
  // Either the service account's JWT flow, or a connection's own token.
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // google-auth-library signs the assertion for Google's own token endpoint (its `aud`); the
  // exchange is sent wherever the configuration says, through the same transport.
  const auth = key
    ? new JWT({
        email: key.client_email,
        key: key.private_key,
        ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
        scopes: [...GOOGLE_CALENDAR_SCOPES],
        transporter: new Gaxios({
          fetchImplementation: ((input: string | URL | Request, init?: RequestInit) => {
            const url = String(input instanceof Request ? input.url : input);
            return transport(url === GOOGLE_TOKEN_URL ? tokenUrl : url, init ?? {});
          }) as typeof fetch,
        }),
      })
    : null;
  const userToken = options.accessToken;
  if (!auth && !userToken) throw new Error('a Google Calendar API needs a key or an access token');

  async function serviceAccountToken(jwt: JWT): Promise<string | null | undefined> {
    try {
      return (await jwt.getAccessToken()).token;
    } catch (error) {
      const status = (error as { status?: unknown; response?: { status?: unknown } }).response
        ?.status;
      throw new CalendarProviderError(
        typeof status === 'number' ? status : 0,
        'server_wide',
        `Google token refused or unreachable (${(error as Error).message.slice(0, 120)})`,
      );
    }
  }

  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: object,
    signal?: AbortSignal,
  ): Promise<Response> {
    const first = await send(method, path, body, signal, false);
    // A connection's access token expired or was revoked early: one more try with a fresh one.
    if (first.status !== 401 || !userToken) return checked(first);
    await first.body?.cancel();
    return checked(await send(method, path, body, signal, true));
  }

  async function checked(response: Response): Promise<Response> {
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async function send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: object | undefined,
    signal: AbortSignal | undefined,
    fresh: boolean,
  ): Promise<Response> {
    let token: string | null | undefined;
    if (userToken) token = await userToken(fresh);
    else token = await serviceAccountToken(auth as JWT);
    if (!token) throw new CalendarProviderError(0, 'server_wide', 'Google gave no access token');
    let response: Response;
    try {
      response = await transport(`${apiBaseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: signal ?? AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new CalendarProviderError(
        0,
        'unavailable',
        `Google Calendar unreachable (${(error as Error).name})`,
      );
    }
    return response;
  }

  const calendarPath = (calendarId: string) => `/calendars/${encodeURIComponent(calendarId)}`;
  const eventPath = (calendarId: string, eventId: string) =>
    `${calendarPath(calendarId)}/events/${encodeURIComponent(eventId)}`;

  const calls: GoogleCalls = {
    async listEvents(calendarId, page) {
      const query = new URLSearchParams({
        singleEvents: 'true',
        showDeleted: 'true',
        maxResults: '2500',
      });
      if (page.syncToken) query.set('syncToken', page.syncToken);
      if (page.pageToken) query.set('pageToken', page.pageToken);
      const response = await call('GET', `${calendarPath(calendarId)}/events?${query}`);
      const json = (await response.json()) as Partial<EventsPage>;
      return {
        items: Array.isArray(json.items) ? json.items.filter((e) => typeof e?.id === 'string') : [],
        ...(typeof json.nextPageToken === 'string' ? { nextPageToken: json.nextPageToken } : {}),
        ...(typeof json.nextSyncToken === 'string' ? { nextSyncToken: json.nextSyncToken } : {}),
        ...(typeof json.accessRole === 'string' ? { accessRole: json.accessRole } : {}),
      };
    },

    async watch(calendarId, channel) {
      const response = await call('POST', `${calendarPath(calendarId)}/events/watch`, {
        id: channel.id,
        type: 'web_hook',
        address: channel.address,
        token: channel.token,
        expiration: channel.expiration,
      });
      const json = (await response.json()) as { resourceId?: unknown; expiration?: unknown };
      if (typeof json.resourceId !== 'string') {
        throw new CalendarProviderError(
          502,
          'unavailable',
          'Google answered a watch without a resourceId',
        );
      }
      const expiration = Number(json.expiration);
      return {
        resourceId: json.resourceId,
        expiration: Number.isFinite(expiration) ? expiration : channel.expiration,
      };
    },

    async stopChannel(channel) {
      await call('POST', '/channels/stop', { id: channel.id, resourceId: channel.resourceId });
    },

    async freeBusy(calendarId, window, signal) {
      const response = await call(
        'POST',
        '/freeBusy',
        {
          timeMin: new Date(window.from).toISOString(),
          timeMax: new Date(window.to).toISOString(),
          items: [{ id: calendarId }],
        },
        signal,
      );
      const json = (await response.json()) as {
        calendars?: Record<
          string,
          { busy?: { start?: string; end?: string }[]; errors?: { reason?: string }[] }
        >;
      };
      const calendar = json.calendars?.[calendarId];
      const reason = calendar?.errors?.[0]?.reason;
      if (!calendar || reason) {
        // The answer is 200 whatever befell the calendar; its `errors` entry says what.
        throw googleError(
          reason === 'notFound' ? 404 : 403,
          `freeBusy: ${reason ?? 'no calendar'}`,
          reason ?? null,
        );
      }
      return (calendar.busy ?? [])
        .map((b) => ({ start: Date.parse(b.start ?? ''), end: Date.parse(b.end ?? '') }))
        .filter((b) => Number.isFinite(b.start) && Number.isFinite(b.end) && b.end > b.start);
    },

    async insertEvent(calendarId, event) {
      await call('POST', `${calendarPath(calendarId)}/events`, event);
    },

    async patchEvent(calendarId, eventId, event) {
      // The id is the path's; a patch body does not carry it.
      const patch: Omit<EventWrite, 'id'> & { id?: string } = { ...event };
      delete patch.id;
      await call('PATCH', eventPath(calendarId, eventId), patch);
    },

    async deleteEvent(calendarId, eventId) {
      await call('DELETE', eventPath(calendarId, eventId));
    },
  };
  return googleProvider(calls, key?.client_email ?? null);
}

/** The raw calls as the one provider interface the sync speaks. */
function googleProvider(calls: GoogleCalls, serviceAccountEmail: string | null): CalendarProvider {
  return {
    serviceAccountEmail,

    /** Every changed event since the sync token (all of them without one), page by page. */
    async listChanges(calendarId, cursor, { zone }) {
      const events = [];
      let pageToken: string | undefined;
      for (;;) {
        const page = await calls.listEvents(calendarId, {
          syncToken: cursor,
          ...(pageToken ? { pageToken } : {}),
        });
        events.push(...page.items.map((item) => providerEventOf(item, zone)));
        if (page.nextPageToken) {
          pageToken = page.nextPageToken;
          continue;
        }
        return {
          full: cursor === null,
          events,
          cursor: page.nextSyncToken ?? null,
          // Google says on every list what the caller may do with the calendar.
          readOnly: page.accessRole === 'reader' || page.accessRole === 'freeBusyReader',
        };
      }
    },

    openChannel: async (calendarId, channel) => ({
      id: channel.id,
      ...(await calls.watch(calendarId, channel)),
    }),

    // A Google channel cannot be extended: the sync opens a new one and stops this.
    renewChannel: () => Promise.resolve(null),

    stopChannel: (channel) => calls.stopChannel(channel),

    freeBusy: (calendarId, window, { signal }) => calls.freeBusy(calendarId, window, signal),

    /**
     * Under its derived id, patched or inserted: a retry finds it and patches, and an insert
     * that meets one made meanwhile (another worker, a try whose answer was lost) patches it.
     */
    async writeEvent(calendarId, write) {
      const eventId = marpeEventId(write.appointmentId);
      const event = googleEventOf(eventId, write);
      try {
        await calls.patchEvent(calendarId, eventId, event);
      } catch (error) {
        if (!(error instanceof CalendarProviderError && error.status === 404)) throw error;
        try {
          await calls.insertEvent(calendarId, event);
        } catch (insertError) {
          if (!(insertError instanceof CalendarProviderError && insertError.status === 409))
            throw insertError;
          await calls.patchEvent(calendarId, eventId, event);
        }
      }
      return eventId;
    },

    async deleteEvent(calendarId, eventId) {
      try {
        await calls.deleteEvent(calendarId, eventId);
      } catch (error) {
        // Gone already (deleted by the caregiver): nothing left to delete.
        const status = error instanceof CalendarProviderError ? error.status : 0;
        if (status !== 404 && status !== 410) throw error;
      }
    },
  };
}

const googleEventOf = (id: string, write: ProviderEventWrite): EventWrite => ({
  id,
  summary: write.summary,
  description: write.description,
  start: { dateTime: write.start, timeZone: write.timeZone },
  end: { dateTime: write.end, timeZone: write.timeZone },
  status: 'confirmed',
  transparency: 'opaque',
  extendedProperties: { private: { [MARPE_APPOINTMENT_PROPERTY]: String(write.appointmentId) } },
});
