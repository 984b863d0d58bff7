// Over 400 lines: a stand-in for every Google call the sync makes, kept as one fake so its state is
// one.
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import {
  localDateToDayNumber,
  dayNumberToLocalDate,
  zonedToEpoch,
} from '../../../../platform/zoned-time.js';
import { GOOGLE_TOKEN_URL } from '../../../../platform/config.js';
import { GOOGLE_CALENDAR_SCOPES, type GoogleEvent } from './google-calendar-api.js';
import type { StandInAccount, StandInOAuth } from './google-standin-oauth.js';

// An in-memory stand-in for the part of Google's token endpoint and Calendar API v3 that Marpe
// calls: events.list (singleEvents, showDeleted, syncToken, pageToken), events.watch,
// channels.stop, freeBusy.query and events.insert/patch/delete. The demo answers Marpe's calls
// with it in-process (demo-calendar-routes), and the API tests put it behind a loopback server,
// where they also check every request Marpe sends. It behaves as Google documents: sync tokens
// that expire (410), recurring events expanded into instances, deleted events kept as cancelled.

const DAY = 86_400_000;
/** Instances a recurring event expands to at most. */
const MAX_INSTANCES = 730;

export interface StandInRequest {
  method: string;
  /** The path after the stand-in's base, e.g. `/token` or `/calendar/v3/freeBusy`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface StandInAnswer {
  status: number;
  body: object;
}

/** An event as stored: a single one, or a recurring master (`recurrence`). */
export interface StandInEvent extends GoogleEvent {
  recurrence?: string[];
  /** Change sequence: what sync tokens count. */
  seq?: number;
}

export interface StandInChannel {
  id: string;
  resourceId: string;
  token: string;
  address: string;
  calendarId: string;
  expiration: number;
}

interface Calendar {
  /**
   * false: exists but not shared with the service account (403). 'reader': shared with "See all
   * event details" only: lists answer `accessRole: 'reader'`, writes 403 `requiredAccessLevel`.
   */
  shared: boolean | 'reader';
  timeZone: string;
  events: Map<string, StandInEvent>;
}

export interface GoogleStandInOptions {
  /** The service account the stand-in trusts: its email and public key. */
  clientEmail: string;
  publicKey: KeyObject | string;
  /** Events per page (Google's own is up to maxResults; small pages exercise paging). */
  pageSize?: number;
  /**
   * The demo's: any calendar asked for exists, empty and shared with the service account, so a
   * calendar id set through the integration API syncs at once.
   */
  autoCreate?: boolean;
  /** Users' consent (google-standin-oauth.ts): their tokens reach the calendars of their list. */
  oauth?: StandInOAuth;
}

const error = (status: number, message: string, reason = 'error'): StandInAnswer => ({
  status,
  body: { error: { code: status, message, errors: [{ reason, message }] } },
});

const header = (headers: StandInRequest['headers'], name: string): string => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

function decodeSegment(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Why a JWT-bearer assertion is refused (null when good): Google's checks. */
export function assertionProblem(
  assertion: string,
  clientEmail: string,
  publicKey: KeyObject,
  nowSeconds: number,
): string | null {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'not a JWT';
  const [head = '', payload = '', signature = ''] = parts;
  const headJson = decodeSegment(head);
  const claims = decodeSegment(payload);
  if (headJson?.alg !== 'RS256') return 'alg must be RS256';
  if (!claims) return 'unreadable claims';
  const good = verify(
    'RSA-SHA256',
    Buffer.from(`${head}.${payload}`),
    publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!good) return 'bad signature';
  if (claims.iss !== clientEmail) return 'iss is not the service account';
  if (claims.aud !== GOOGLE_TOKEN_URL) return 'aud is not the token endpoint';
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!GOOGLE_CALENDAR_SCOPES.every((s) => scopes.includes(s))) return 'scope missing';
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(iat <= nowSeconds + 300 && exp > nowSeconds && exp - iat <= 3600)) return 'bad iat/exp';
  return null;
}

/** [start, end) of an event time: `dateTime` with its offset, or an all-day `date` in `zone`. */
function instant(time: GoogleEvent['start'], zone: string): number | null {
  if (time?.dateTime) {
    const at = Date.parse(time.dateTime);
    return Number.isFinite(at) ? at : null;
  }
  if (time?.date) return zonedToEpoch(`${time.date} 00:00`, zone);
  return null;
}

const busyOf = (e: GoogleEvent) =>
  e.status !== 'cancelled' &&
  e.transparency !== 'transparent' &&
  !(e.attendees ?? []).some((a) => a.self && a.responseStatus === 'declined');

/** `RRULE:FREQ=DAILY|WEEKLY;INTERVAL=n;COUNT=n|UNTIL=…`, the forms the demo and tests write. */
function parseRule(recurrence: readonly string[] | undefined) {
  const rule = recurrence?.find((r) => r.startsWith('RRULE:'));
  if (!rule) return null;
  const parts = Object.fromEntries(
    rule
      .slice(6)
      .split(';')
      .map((p) => p.split('=') as [string, string]),
  );
  const step = parts.FREQ === 'DAILY' ? 1 : parts.FREQ === 'WEEKLY' ? 7 : null;
  if (step === null) return null;
  const interval = Number(parts.INTERVAL ?? '1');
  const count = parts.COUNT ? Math.min(Number(parts.COUNT), MAX_INSTANCES) : MAX_INSTANCES;
  const u = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(parts.UNTIL ?? '');
  const until = u
    ? Date.UTC(
        Number(u[1]),
        Number(u[2]) - 1,
        Number(u[3]),
        Number(u[4] ?? 23),
        Number(u[5] ?? 59),
        Number(u[6] ?? 59),
      )
    : null;
  return { days: step * (Number.isInteger(interval) && interval > 0 ? interval : 1), count, until };
}

/** Shifts a wall-clock date-time ('YYYY-MM-DDTHH:mm:ss' with an offset) by whole days in `zone`. */
function shiftDateTime(dateTime: string, days: number, zone: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(dateTime);
  if (!match) return dateTime;
  const date = dayNumberToLocalDate(localDateToDayNumber(match[1] ?? '') + days);
  // Recurrences keep their wall-clock time across a DST change, as Google's do.
  return new Date(zonedToEpoch(`${date} ${match[2]}`, zone)).toISOString();
}

/** The instances of a recurring master (ids `<master>_<start>`), or the event itself. */
function instancesOf(event: StandInEvent, zone: string): StandInEvent[] {
  const rule = parseRule(event.recurrence);
  if (!rule) return [event];
  const instances: StandInEvent[] = [];
  const eventZone = event.start?.timeZone ?? zone;
  for (let i = 0; i < rule.count; i++) {
    const days = i * rule.days;
    const start = event.start?.dateTime
      ? { dateTime: shiftDateTime(event.start.dateTime, days, eventZone), timeZone: eventZone }
      : { date: dayNumberToLocalDate(localDateToDayNumber(event.start?.date ?? '') + days) };
    const end = event.end?.dateTime
      ? { dateTime: shiftDateTime(event.end.dateTime, days, eventZone), timeZone: eventZone }
      : { date: dayNumberToLocalDate(localDateToDayNumber(event.end?.date ?? '') + days) };
    const startAt = instant(start, zone) ?? 0;
    if (rule.until !== null && startAt > rule.until) break;
    const rest: StandInEvent = { ...event };
    delete rest.recurrence;
    instances.push({
      ...rest,
      id: `${event.id}_${new Date(startAt).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}`,
      recurringEventId: event.id,
      start,
      end,
    });
  }
  return instances;
}

export function createGoogleStandIn(options: GoogleStandInOptions) {
  const publicKey =
    typeof options.publicKey === 'string' ? createPublicKey(options.publicKey) : options.publicKey;
  const pageSize = options.pageSize ?? 250;
  const calendars = new Map<string, Calendar>();
  const channels = new Map<string, StandInChannel>();
  const tokens = new Set<string>();
  let seq = 0;
  /** Sync tokens older than this are gone (410), as Google's expire. */
  let oldestValidSeq = 0;
  const listeners = new Set<(calendarId: string) => void>();

  const changed = (calendarId: string) => {
    for (const listener of listeners) listener(calendarId);
  };

  function store(calendarId: string, event: StandInEvent) {
    const calendar = calendars.get(calendarId);
    if (!calendar) throw new Error(`no calendar ${calendarId}`);
    calendar.events.set(event.id, { ...event, seq: ++seq });
    changed(calendarId);
  }

  /** What a list or a freeBusy sees: single events as they are, recurring ones as instances. */
  const expanded = (calendar: Calendar, events: Iterable<StandInEvent>) =>
    [...events].flatMap((e) => instancesOf(e, calendar.timeZone));

  const strip = (stored: StandInEvent): GoogleEvent => {
    const event: StandInEvent = { ...stored };
    delete event.seq;
    return event;
  };

  function list(
    calendar: Calendar,
    query: Record<string, string>,
    access: Calendar['shared'],
  ): StandInAnswer {
    const accessRole = access === 'reader' ? 'reader' : 'writer';
    let since = -1;
    if (query.syncToken !== undefined) {
      const match = /^sync_(\d+)$/.exec(query.syncToken);
      if (!match || Number(match[1]) < oldestValidSeq) {
        return error(
          410,
          'Sync token is no longer valid, a full sync is required.',
          'fullSyncRequired',
        );
      }
      since = Number(match[1]);
    }
    const showDeleted = query.showDeleted === 'true' || since >= 0;
    const chosen = [...calendar.events.values()].filter(
      (e) => (e.seq ?? 0) > since && (showDeleted || e.status !== 'cancelled'),
    );
    const items = query.singleEvents === 'true' ? expanded(calendar, chosen) : chosen;
    const offset = query.pageToken ? Number(/^page_(\d+)$/.exec(query.pageToken)?.[1] ?? 'NaN') : 0;
    if (!Number.isInteger(offset)) return error(400, 'Invalid pageToken', 'invalid');
    const size = Math.min(pageSize, Number(query.maxResults ?? '250') || 250);
    const page = items.slice(offset, offset + size).map(strip);
    const more = offset + size < items.length;
    return {
      status: 200,
      body: {
        kind: 'calendar#events',
        accessRole,
        items: page,
        ...(more ? { nextPageToken: `page_${offset + size}` } : { nextSyncToken: `sync_${seq}` }),
      },
    };
  }

  /** How a caller reaches a calendar: the service account by its share, a user by their list. */
  function accessOf(user: StandInAccount | null, id: string): Calendar['shared'] {
    if (!user) return calendars.get(id)?.shared ?? false;
    const role = options.oauth?.roleOf(user, id) ?? null;
    if (role !== null && !calendars.has(id)) {
      calendars.set(id, { shared: false, timeZone: 'Asia/Jerusalem', events: new Map() });
    }
    return role === null ? false : role === 'reader' ? 'reader' : true;
  }

  function freeBusy(body: Record<string, unknown>, user: StandInAccount | null): StandInAnswer {
    const from = Date.parse(String(body.timeMin));
    const to = Date.parse(String(body.timeMax));
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) {
      return error(400, 'Bad timeMin/timeMax', 'invalid');
    }
    const items = Array.isArray(body.items) ? (body.items as { id?: unknown }[]) : [];
    const result: Record<string, object> = {};
    for (const item of items) {
      const id = String(item.id);
      if (options.autoCreate && !calendars.has(id)) {
        calendars.set(id, { shared: true, timeZone: 'Asia/Jerusalem', events: new Map() });
      }
      const calendar = calendars.get(id);
      if (!calendar || !accessOf(user, id)) {
        result[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
        continue;
      }
      const busy = expanded(calendar, calendar.events.values())
        .filter(busyOf)
        .map((e) => ({
          start: instant(e.start, calendar.timeZone),
          end: instant(e.end, calendar.timeZone),
        }))
        .filter(
          (b): b is { start: number; end: number } =>
            b.start !== null && b.end !== null && b.start < to && from < b.end,
        )
        .sort((a, b) => a.start - b.start)
        .map((b) => ({
          start: new Date(b.start).toISOString(),
          end: new Date(b.end).toISOString(),
        }));
      result[id] = { busy };
    }
    return { status: 200, body: { kind: 'calendar#freeBusy', calendars: result } };
  }

  function parseBody(request: StandInRequest): Record<string, unknown> | null {
    try {
      const value: unknown = JSON.parse(request.body || '{}');
      return typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }

  function handle(request: StandInRequest): StandInAnswer {
    const oauth = options.oauth;
    if (request.path === '/revoke' && oauth && request.method === 'POST') {
      return oauth.revoke(new URLSearchParams(request.body));
    }
    if (request.path === '/token') {
      const form = new URLSearchParams(request.body);
      const grant = form.get('grant_type');
      if (
        oauth &&
        request.method === 'POST' &&
        (grant === 'authorization_code' || grant === 'refresh_token')
      ) {
        return oauth.token(form);
      }
      if (
        request.method !== 'POST' ||
        form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
      ) {
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      }
      const problem = assertionProblem(
        form.get('assertion') ?? '',
        options.clientEmail,
        publicKey,
        Math.floor(Date.now() / 1000),
      );
      if (problem)
        return { status: 400, body: { error: 'invalid_grant', error_description: problem } };
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
    }
    const bearer = /^Bearer (.+)$/.exec(header(request.headers, 'authorization'))?.[1] ?? '';
    const user = tokens.has(bearer) ? null : (oauth?.accountOf(bearer) ?? null);
    if (!tokens.has(bearer) && !user)
      return error(401, 'Request had invalid authentication credentials.', 'authError');
    const path = request.path.replace(/^\/calendar\/v3/, '');
    const body = request.method === 'GET' || request.method === 'DELETE' ? {} : parseBody(request);
    if (!body) return error(400, 'Parse Error', 'parseError');

    if (request.method === 'GET' && path === '/users/me/calendarList') {
      if (!user) return error(403, 'The service account has no calendar list here', 'forbidden');
      return {
        status: 200,
        body: {
          kind: 'calendar#calendarList',
          items: user.calendars.map((c) => ({
            id: c.id,
            summary: c.summary,
            accessRole: c.accessRole,
            ...(c.id === user.email ? { primary: true } : {}),
          })),
        },
      };
    }
    if (request.method === 'POST' && path === '/freeBusy') return freeBusy(body, user);
    if (request.method === 'POST' && path === '/channels/stop') {
      const channel = channels.get(String(body.id));
      if (!channel || channel.resourceId !== body.resourceId)
        return error(404, 'Channel not found', 'notFound');
      channels.delete(channel.id);
      return { status: 204, body: {} };
    }
    const match = /^\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    if (!match) return error(404, 'Not Found', 'notFound');
    const calendarId = decodeURIComponent(match[1] ?? '');
    const eventId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    if (options.autoCreate && !user && !calendars.has(calendarId)) {
      calendars.set(calendarId, { shared: true, timeZone: 'Asia/Jerusalem', events: new Map() });
    }
    const access = accessOf(user, calendarId);
    const calendar = calendars.get(calendarId);
    // A user is told "not found" of a calendar outside their list, as Google does.
    if (!calendar || (user && !access)) return error(404, 'Not Found', 'notFound');
    if (!access) return error(403, 'Forbidden', 'forbidden');
    const writes = request.method !== 'GET' && eventId !== 'watch';
    if (writes && access === 'reader') {
      return error(403, 'You need to have writer access to this calendar.', 'requiredAccessLevel');
    }

    if (eventId === 'watch' && request.method === 'POST') {
      if (
        body.type !== 'web_hook' ||
        typeof body.id !== 'string' ||
        typeof body.address !== 'string'
      ) {
        return error(400, 'Bad channel', 'invalid');
      }
      const channel: StandInChannel = {
        id: body.id,
        resourceId: randomBytes(12).toString('base64url'),
        token: typeof body.token === 'string' ? body.token : '',
        address: body.address,
        calendarId,
        expiration: Number(body.expiration) || Date.now() + 7 * DAY,
      };
      channels.set(channel.id, channel);
      return {
        status: 200,
        body: {
          kind: 'api#channel',
          id: channel.id,
          resourceId: channel.resourceId,
          resourceUri: `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`,
          expiration: String(channel.expiration),
        },
      };
    }
    if (eventId === undefined) {
      if (request.method === 'GET') return list(calendar, request.query, access);
      if (request.method === 'POST') {
        const id = String(body.id ?? randomBytes(10).toString('hex'));
        if (!/^[a-v0-9]{5,1024}$/.test(id))
          return error(400, 'Invalid resource id value.', 'invalid');
        if (calendar.events.has(id))
          return error(409, 'The requested identifier already exists.', 'duplicate');
        store(calendarId, { ...(body as unknown as StandInEvent), id });
        return { status: 200, body: strip(calendar.events.get(id) as StandInEvent) };
      }
      return error(405, 'Method not allowed', 'invalid');
    }
    const existing = calendar.events.get(eventId);
    if (request.method === 'PATCH') {
      if (!existing) return error(404, 'Not Found', 'notFound');
      store(calendarId, { ...existing, ...(body as Partial<StandInEvent>), id: eventId });
      return { status: 200, body: strip(calendar.events.get(eventId) as StandInEvent) };
    }
    if (request.method === 'DELETE') {
      if (!existing) return error(404, 'Not Found', 'notFound');
      if (existing.status === 'cancelled')
        return error(410, 'Resource has been deleted', 'deleted');
      store(calendarId, { ...existing, status: 'cancelled' });
      return { status: 204, body: {} };
    }
    return error(405, 'Method not allowed', 'invalid');
  }

  return {
    handle,

    /** A calendar the service account may or may not see (`shared: false` answers 403). */
    addCalendar(
      calendarId: string,
      {
        shared = true,
        timeZone = 'Asia/Jerusalem',
      }: { shared?: boolean | 'reader'; timeZone?: string } = {},
    ) {
      calendars.set(calendarId, {
        shared,
        timeZone,
        events: calendars.get(calendarId)?.events ?? new Map(),
      });
    },
    share(calendarId: string, shared: boolean | 'reader') {
      const calendar = calendars.get(calendarId);
      if (calendar) calendar.shared = shared;
    },
    /** The caregiver adds or edits an event in their calendar. */
    putEvent(calendarId: string, event: StandInEvent) {
      store(calendarId, event);
    },
    /** The caregiver deletes an event (it stays, cancelled, as Google keeps it). */
    deleteEvent(calendarId: string, eventId: string) {
      const existing = calendars.get(calendarId)?.events.get(eventId);
      if (existing) store(calendarId, { ...existing, status: 'cancelled' });
    },
    /**
     * An event gone without a cancelled copy for incremental reads to report: what a series split
     * with "this and following events" can leave of the old instances. Only a full read sees it go.
     */
    forgetEvent(calendarId: string, eventId: string) {
      calendars.get(calendarId)?.events.delete(eventId);
    },
    /** Every event of a calendar as stored (Marpe's own included), cancelled ones too. */
    events(calendarId: string): GoogleEvent[] {
      return [...(calendars.get(calendarId)?.events.values() ?? [])].map(strip);
    },
    /** Open push channels, of one calendar or all. */
    channels(calendarId?: string): StandInChannel[] {
      return [...channels.values()].filter(
        (c) => calendarId === undefined || c.calendarId === calendarId,
      );
    },
    /** Every sync token handed out so far stops working (the next incremental list is a 410). */
    expireSyncTokens() {
      oldestValidSeq = seq + 1;
    },
    /** Called after every change to a calendar (the demo sends push notifications from it). */
    onChange(listener: (calendarId: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type GoogleStandIn = ReturnType<typeof createGoogleStandIn>;
