import { randomBytes, randomUUID } from 'node:crypto';
import { pkceChallenge } from '../../consent-oauth.js';
import { MICROSOFT_SCOPES } from './microsoft-oauth.js';
import type { GraphEvent } from './graph-calendar-api.js';

// An in-memory stand-in for the part of the Microsoft identity platform and Microsoft Graph
// v1.0 that Marpe calls, strict where the documentation is: the authorize step (client,
// redirect URI, scopes, PKCE S256), the token endpoint (single-use codes, the verifier, rotating
// refresh tokens, invalid_grant once the user removed the app), /me, /me/calendars (paged,
// `canEdit`), calendarView/delta (both bounds required, `Prefer: odata.maxpagesize`, next and
// delta links, `@removed`, 410 syncStateNotFound for a dropped delta link, series occurrences),
// calendarView over a window (the last check), subscriptions (at most 4230 minutes, the
// validation handshake for the notification and lifecycle URLs before 201, clientState, renewed
// by PATCH, lapsing at their expiry, removed with a lifecycle notification), event writes (403 on a
// calendar without `canEdit`, `transactionId` answered with the event it made), and throttling
// (429 with Retry-After) on demand. Tests put it behind a loopback server; the demo calls it
// in-process. This file is over 400 lines: it is one fake of one service, read as a whole.
// https://learn.microsoft.com/graph/api/event-delta, /graph/api/subscription-post-subscriptions,
// /graph/api/calendar-list-calendarview, /graph/throttling

export interface GraphStandInRequest {
  method: string;
  /** The path after the stand-in's origin, e.g. `/common/oauth2/v2.0/token` or `/v1.0/me`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface GraphStandInAnswer {
  status: number;
  body?: object;
  headers?: Record<string, string>;
}

/** An event as stored: times as UTC `YYYY-MM-DDTHH:mm:ss`, or dates for all-day. */
export interface StandInGraphEvent {
  id: string;
  start: string;
  end: string;
  isAllDay?: boolean;
  showAs?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown';
  isCancelled?: boolean;
  responseStatus?: { response: string };
  type?: 'singleInstance' | 'occurrence' | 'exception';
  seriesMasterId?: string;
  subject?: string;
  transactionId?: string;
  singleValueExtendedProperties?: { id: string; value: string }[];
}

export interface StandInSubscription {
  id: string;
  resource: string;
  calendarId: string;
  clientState: string;
  notificationUrl: string;
  /** Where removed, missed and reauthorization-required events go, when given. */
  lifecycleNotificationUrl?: string;
  expirationDateTime: string;
}

interface StoredEvent extends StandInGraphEvent {
  seq: number;
  removed: boolean;
}

interface Calendar {
  id: string;
  name: string;
  canEdit: boolean;
  isDefaultCalendar: boolean;
  account: string;
  events: Map<string, StoredEvent>;
  /** Delta links older than this generation answer 410 (Graph dropped the sync state). */
  generation: number;
}

interface DeltaState {
  calendarId: string;
  from: number;
  to: number;
  /** Changes after this sequence number (0: everything, the round's first call). */
  since: number;
  /** The sequence the round read up to. */
  upTo: number;
  offset: number;
  generation: number;
}

export interface GraphStandInOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  clock?: () => number;
  /**
   * Graph's validation handshake: POST `notificationUrl?validationToken=…`; the answer's body
   * (text/plain, 200, within 10 s) must be the token. Without it, no subscription is made.
   */
  validate?: (notificationUrl: string, validationToken: string) => Promise<string | null>;
  /** Graph refuses a notification URL that is not https; the demo on http://localhost may not. */
  allowHttp?: boolean;
}

const json = (status: number, body: object, headers?: Record<string, string>) => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});
const graphError = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });
const header = (request: GraphStandInRequest, name: string): string => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};
const utc = (at: number) => `${new Date(at).toISOString().slice(0, 19)}.0000000`;
const instant = (text: string) => Date.parse(/Z$/.test(text) ? text : `${text}Z`);

export function createGraphStandIn(options: GraphStandInOptions) {
  const clock = options.clock ?? Date.now;
  let seq = 0;
  const calendars = new Map<string, Calendar>();
  const accounts = new Map<string, { email: string; revoked: boolean }>();
  const codes = new Map<
    string,
    { account: string; challenge: string; redirectUri: string; used: boolean }
  >();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, string>();
  const deltas = new Map<string, DeltaState>();
  const subscriptions = new Map<string, StandInSubscription>();
  const failingViews = new Set<string>();
  const throttles: { status: number; retryAfter: number; code: string }[] = [];
  const listeners: ((subscription: StandInSubscription) => void)[] = [];
  let baseUrl = '';

  /** Graph deletes a subscription at its expiry: it notifies no more, and cannot be renewed. */
  const dropLapsed = () => {
    for (const [id, s] of subscriptions) {
      if (Date.parse(s.expirationDateTime) <= clock()) subscriptions.delete(id);
    }
  };

  const changed = (calendar: Calendar) => {
    dropLapsed();
    for (const s of subscriptions.values()) {
      if (s.calendarId === calendar.id) for (const listen of listeners) listen(s);
    }
  };

  const eventJson = (event: StoredEvent) =>
    event.removed
      ? { '@removed': { reason: 'deleted' }, id: event.id }
      : {
          id: event.id,
          subject: event.subject ?? '',
          showAs: event.showAs ?? 'busy',
          isAllDay: event.isAllDay === true,
          isCancelled: event.isCancelled === true,
          type: event.type ?? 'singleInstance',
          seriesMasterId: event.seriesMasterId ?? null,
          responseStatus: event.responseStatus ?? { response: 'organizer' },
          transactionId: event.transactionId ?? null,
          // All-day events are whole days, told as midnight to midnight.
          start: {
            dateTime: event.isAllDay
              ? `${event.start}T00:00:00.0000000`
              : utc(instant(event.start)),
            timeZone: 'UTC',
          },
          end: {
            dateTime: event.isAllDay ? `${event.end}T00:00:00.0000000` : utc(instant(event.end)),
            timeZone: 'UTC',
          },
        };

  const span = (event: StoredEvent) =>
    event.isAllDay
      ? { start: Date.parse(`${event.start}T00:00:00Z`), end: Date.parse(`${event.end}T00:00:00Z`) }
      : { start: instant(event.start), end: instant(event.end) };

  function accountOf(request: GraphStandInRequest): string | null {
    const match = /^Bearer (.+)$/.exec(header(request, 'authorization'));
    const account = match ? accessTokens.get(match[1] ?? '') : undefined;
    return account && !accounts.get(account)?.revoked ? account : null;
  }

  function issue(account: string) {
    const access = `EwA${randomBytes(24).toString('base64url')}`;
    const refresh = `M.C5${randomBytes(24).toString('base64url')}`;
    accessTokens.set(access, account);
    refreshTokens.set(refresh, account);
    return json(200, {
      token_type: 'Bearer',
      scope:
        'https://graph.microsoft.com/Calendars.ReadWrite https://graph.microsoft.com/User.Read',
      expires_in: 3600,
      access_token: access,
      refresh_token: refresh,
    });
  }

  function token(request: GraphStandInRequest): GraphStandInAnswer {
    const form = Object.fromEntries(new URLSearchParams(request.body));
    if (form.client_id !== options.clientId || form.client_secret !== options.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215' });
    }
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.redirectUri !== form.redirect_uri) {
        return json(400, { error: 'invalid_grant', error_description: 'AADSTS70008' });
      }
      code.used = true;
      if (pkceChallenge(form.code_verifier ?? '') !== code.challenge) {
        return json(400, { error: 'invalid_grant', error_description: 'AADSTS501481' });
      }
      return issue(code.account);
    }
    if (form.grant_type === 'refresh_token') {
      const account = refreshTokens.get(form.refresh_token ?? '');
      if (!account || accounts.get(account)?.revoked) {
        return json(400, { error: 'invalid_grant', error_description: 'AADSTS70000' });
      }
      return issue(account);
    }
    return json(400, { error: 'unsupported_grant_type' });
  }

  function calendarOf(account: string, id: string): Calendar | null {
    const calendar = calendars.get(decodeURIComponent(id));
    return calendar && calendar.account === account ? calendar : null;
  }

  function findEvent(account: string, id: string) {
    for (const calendar of calendars.values()) {
      if (calendar.account !== account) continue;
      const event = calendar.events.get(decodeURIComponent(id));
      if (event && !event.removed) return { calendar, event };
    }
    return null;
  }

  function delta(request: GraphStandInRequest, calendar: Calendar): GraphStandInAnswer {
    const tokenText = request.query.$deltatoken ?? request.query.$skiptoken;
    let state: DeltaState;
    if (tokenText !== undefined) {
      const found = deltas.get(tokenText);
      if (!found || found.calendarId !== calendar.id) {
        return graphError(400, 'ErrorInvalidParameter', 'Unknown token');
      }
      if (found.generation !== calendar.generation) {
        return graphError(410, 'syncStateNotFound', 'The sync state was not found');
      }
      state =
        request.query.$deltatoken !== undefined
          ? { ...found, since: found.upTo, upTo: seq, offset: 0 }
          : found;
    } else {
      const from = Date.parse(request.query.startDateTime ?? '');
      const to = Date.parse(request.query.endDateTime ?? '');
      if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) {
        return graphError(
          400,
          'ErrorInvalidParameter',
          'startDateTime and endDateTime are required',
        );
      }
      state = {
        calendarId: calendar.id,
        from,
        to,
        since: 0,
        upTo: seq,
        offset: 0,
        generation: calendar.generation,
      };
    }
    const pageSize = Number(/odata\.maxpagesize=(\d+)/.exec(header(request, 'prefer'))?.[1] ?? 10);
    const changes = [...calendar.events.values()]
      .filter((e) => e.seq > state.since && e.seq <= state.upTo)
      .filter((e) => (state.since === 0 ? !e.removed : true))
      .filter((e) => {
        if (e.removed) return true;
        const { start, end } = span(e);
        return start < state.to && end > state.from;
      })
      .sort((a, b) => a.seq - b.seq);
    const page = changes.slice(state.offset, state.offset + pageSize);
    const next = randomUUID();
    const base = `${baseUrl}/v1.0/me/calendars/${encodeURIComponent(calendar.id)}/calendarView/delta`;
    if (state.offset + pageSize < changes.length) {
      deltas.set(next, { ...state, offset: state.offset + pageSize });
      return json(200, {
        value: page.map(eventJson),
        '@odata.nextLink': `${base}?$skiptoken=${next}`,
      });
    }
    deltas.set(next, { ...state, offset: 0 });
    return json(200, {
      value: page.map(eventJson),
      '@odata.deltaLink': `${base}?$deltatoken=${next}`,
    });
  }

  async function subscribe(
    request: GraphStandInRequest,
    account: string,
  ): Promise<GraphStandInAnswer> {
    const body = JSON.parse(request.body || '{}') as Partial<StandInSubscription> & {
      changeType?: string;
    };
    const match = /^\/me\/calendars\/([^/]+)\/events$/.exec(body.resource ?? '');
    const calendar = match ? calendarOf(account, match[1] ?? '') : null;
    if (!calendar) return graphError(404, 'ExtensionError', 'Resource not found');
    const expiration = Date.parse(body.expirationDateTime ?? '');
    if (
      !Number.isFinite(expiration) ||
      expiration - clock() > 4230 * 60_000 ||
      expiration <= clock()
    ) {
      return graphError(
        400,
        'InvalidRequest',
        'Subscription expiration can only be 4230 minutes in the future',
      );
    }
    const scheme = options.allowHttp ? 'http' : 'https://';
    if (
      !body.notificationUrl?.startsWith(scheme) ||
      (body.lifecycleNotificationUrl !== undefined &&
        !body.lifecycleNotificationUrl.startsWith(scheme))
    ) {
      return graphError(400, 'InvalidRequest', 'NotificationUrl must use https');
    }
    if (!body.clientState || body.clientState.length > 128) {
      return graphError(400, 'InvalidRequest', 'clientState is limited to 128 characters');
    }
    // Graph validates the notification URL and the lifecycle one, each with its own token.
    for (const url of [body.notificationUrl, body.lifecycleNotificationUrl]) {
      if (url === undefined) continue;
      const validationToken = `Validation: Testing client application reachability ${randomUUID()}`;
      const echoed = options.validate
        ? await options.validate(url, validationToken)
        : validationToken;
      if (echoed !== validationToken) {
        return graphError(400, 'ValidationError', 'Subscription validation request failed');
      }
    }
    const subscription: StandInSubscription = {
      id: randomUUID(),
      resource: body.resource ?? '',
      calendarId: calendar.id,
      clientState: body.clientState,
      notificationUrl: body.notificationUrl,
      ...(body.lifecycleNotificationUrl
        ? { lifecycleNotificationUrl: body.lifecycleNotificationUrl }
        : {}),
      expirationDateTime: new Date(expiration).toISOString(),
    };
    subscriptions.set(subscription.id, subscription);
    return json(201, { ...subscription, changeType: body.changeType });
  }

  /** A subscription's new expiry, within the same 4230 minutes; the subscription lapsed: 404. */
  function renew(request: GraphStandInRequest, id: string): GraphStandInAnswer {
    const subscription = subscriptions.get(id);
    if (!subscription) return graphError(404, 'ResourceNotFound', 'No such subscription');
    const body = JSON.parse(request.body || '{}') as { expirationDateTime?: string };
    const expiration = Date.parse(body.expirationDateTime ?? '');
    if (
      !Number.isFinite(expiration) ||
      expiration - clock() > 4230 * 60_000 ||
      expiration <= clock()
    ) {
      return graphError(
        400,
        'InvalidRequest',
        'Subscription expiration can only be 4230 minutes in the future',
      );
    }
    subscription.expirationDateTime = new Date(expiration).toISOString();
    return json(200, { ...subscription });
  }

  /**
   * calendarView: the calendar's events and occurrences over both bounds (both required), live
   * ones only, cancelled meetings included with `isCancelled` as Graph keeps them; paged by
   * `Prefer: odata.maxpagesize` with `$skip` in the next link.
   */
  function calendarView(request: GraphStandInRequest, calendar: Calendar): GraphStandInAnswer {
    if (failingViews.has(calendar.id)) {
      return graphError(504, 'ErrorTimeoutExpired', 'The request timed out');
    }
    const from = Date.parse(request.query.startDateTime ?? '');
    const to = Date.parse(request.query.endDateTime ?? '');
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) {
      return graphError(400, 'ErrorInvalidParameter', 'startDateTime and endDateTime are required');
    }
    const pageSize = Number(/odata\.maxpagesize=(\d+)/.exec(header(request, 'prefer'))?.[1] ?? 10);
    const skip = Number(request.query.$skip ?? 0);
    const events = [...calendar.events.values()]
      .filter((e) => !e.removed)
      .filter((e) => {
        const { start, end } = span(e);
        return start < to && end > from;
      })
      .sort((a, b) => span(a).start - span(b).start);
    const next = new URLSearchParams({ ...request.query, $skip: String(skip + pageSize) });
    return json(200, {
      value: events.slice(skip, skip + pageSize).map(eventJson),
      ...(skip + pageSize < events.length
        ? {
            '@odata.nextLink': `${baseUrl}/v1.0/me/calendars/${encodeURIComponent(calendar.id)}/calendarView?${next}`,
          }
        : {}),
    });
  }

  function write(
    request: GraphStandInRequest,
    account: string,
    calendar: Calendar,
    existing: StoredEvent | null,
  ): GraphStandInAnswer {
    if (!calendar.canEdit) return graphError(403, 'ErrorAccessDenied', 'Access is denied');
    const body = JSON.parse(request.body || '{}') as Partial<GraphEvent> & { subject?: string };
    if (!existing && body.transactionId) {
      const same = [...calendar.events.values()].find(
        (e) => !e.removed && e.transactionId === body.transactionId,
      );
      if (same) return json(201, eventJson(same));
    }
    const start = body.start?.dateTime ?? existing?.start;
    const end = body.end?.dateTime ?? existing?.end;
    if (!start || !end || (body.start && body.start.timeZone !== 'UTC')) {
      return graphError(400, 'ErrorInvalidRequest', 'start and end are required (UTC here)');
    }
    const event: StoredEvent = {
      ...(existing ?? { id: `AAMk${randomBytes(12).toString('base64url')}` }),
      start,
      end,
      showAs: (body.showAs as StandInGraphEvent['showAs']) ?? existing?.showAs ?? 'busy',
      subject: body.subject ?? existing?.subject ?? '',
      ...(body.transactionId ? { transactionId: body.transactionId } : {}),
      ...(body.singleValueExtendedProperties
        ? {
            singleValueExtendedProperties: body.singleValueExtendedProperties as {
              id: string;
              value: string;
            }[],
          }
        : {}),
      seq: ++seq,
      removed: false,
    };
    calendar.events.set(event.id, event);
    changed(calendar);
    return json(existing ? 200 : 201, eventJson(event));
  }

  async function graph(request: GraphStandInRequest): Promise<GraphStandInAnswer> {
    const account = accountOf(request);
    if (!account)
      return graphError(401, 'InvalidAuthenticationToken', 'Access token is empty or invalid');
    dropLapsed();
    const throttle = throttles.shift();
    if (throttle) {
      return json(
        throttle.status,
        { error: { code: throttle.code, message: 'Too many requests' } },
        {
          'retry-after': String(throttle.retryAfter),
        },
      );
    }
    const path = request.path.replace(/^\/v1\.0/, '');
    const { method } = request;
    if (method === 'GET' && path === '/me') {
      return json(200, { mail: account, userPrincipalName: account, displayName: account });
    }
    if (method === 'GET' && path === '/me/calendars') {
      const mine = [...calendars.values()].filter((c) => c.account === account);
      const top = Number(request.query.$top ?? 10);
      const skip = Number(request.query.$skip ?? 0);
      const page = mine.slice(skip, skip + top).map((c) => ({
        id: c.id,
        name: c.name,
        canEdit: c.canEdit,
        isDefaultCalendar: c.isDefaultCalendar,
      }));
      return json(200, {
        value: page,
        ...(skip + top < mine.length
          ? { '@odata.nextLink': `${baseUrl}/v1.0/me/calendars?$top=${top}&$skip=${skip + top}` }
          : {}),
      });
    }
    if (method === 'POST' && path === '/subscriptions') return subscribe(request, account);
    let match = /^\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && match) return renew(request, decodeURIComponent(match[1] ?? ''));
    if (method === 'DELETE' && match) {
      return subscriptions.delete(decodeURIComponent(match[1] ?? ''))
        ? { status: 204 }
        : graphError(404, 'ResourceNotFound', 'No such subscription');
    }
    match = /^\/me\/calendars\/([^/]+)(\/calendarView\/delta|\/calendarView|\/events)?$/.exec(path);
    if (match) {
      const calendar = calendarOf(account, match[1] ?? '');
      if (!calendar)
        return graphError(
          404,
          'ErrorItemNotFound',
          'The specified object was not found in the store.',
        );
      if (method === 'GET' && !match[2]) {
        return json(200, { id: calendar.id, name: calendar.name, canEdit: calendar.canEdit });
      }
      if (method === 'GET' && match[2] === '/calendarView/delta') return delta(request, calendar);
      if (method === 'GET' && match[2] === '/calendarView') return calendarView(request, calendar);
      if (method === 'POST' && match[2] === '/events')
        return write(request, account, calendar, null);
    }
    match = /^\/me\/events\/([^/]+)$/.exec(path);
    if (match) {
      const found = findEvent(account, match[1] ?? '');
      if (!found)
        return graphError(
          404,
          'ErrorItemNotFound',
          'The specified object was not found in the store.',
        );
      if (method === 'PATCH') return write(request, account, found.calendar, found.event);
      if (method === 'DELETE') {
        if (!found.calendar.canEdit)
          return graphError(403, 'ErrorAccessDenied', 'Access is denied');
        found.calendar.events.set(found.event.id, { ...found.event, removed: true, seq: ++seq });
        changed(found.calendar);
        return { status: 204 };
      }
    }
    return graphError(400, 'BadRequest', `Unsupported: ${method} ${path}`);
  }

  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,

    /** Where links point (the loopback's origin in tests, the in-process one in the demo). */
    setBaseUrl(url: string) {
      baseUrl = url;
    },

    addAccount(account: {
      email: string;
      calendars: { id: string; name: string; canEdit: boolean; isDefaultCalendar?: boolean }[];
    }) {
      const email = account.email.toLowerCase();
      accounts.set(email, { email, revoked: false });
      for (const c of account.calendars) {
        calendars.set(c.id, {
          ...c,
          isDefaultCalendar: c.isDefaultCalendar === true,
          account: email,
          events: new Map(),
          generation: 0,
        });
      }
    },

    /**
     * The consent screen: the request is checked as the identity platform does, and the
     * account's answer comes back as the redirect (with `code` or `error`).
     */
    consent(
      query: Record<string, string>,
      decision: { account: string } | 'cancel',
    ): { redirect: string } | { error: string } {
      if (query.client_id !== options.clientId) return { error: 'unauthorized_client' };
      if (query.redirect_uri !== options.redirectUri) return { error: 'redirect_uri_mismatch' };
      if (query.response_type !== 'code') return { error: 'unsupported_response_type' };
      const scopes = (query.scope ?? '').split(' ');
      if (!MICROSOFT_SCOPES.every((s) => scopes.includes(s))) return { error: 'invalid_scope' };
      if (query.code_challenge_method !== 'S256' || !query.code_challenge) {
        return { error: 'invalid_request' };
      }
      const back = new URL(options.redirectUri);
      if (decision === 'cancel') {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = `M.R3_${randomBytes(24).toString('base64url')}`;
        codes.set(code, {
          account: decision.account.toLowerCase(),
          challenge: query.code_challenge,
          redirectUri: query.redirect_uri,
          used: false,
        });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', query.state ?? '');
      return { redirect: back.toString() };
    },

    putEvent(calendarId: string, event: StandInGraphEvent) {
      const calendar = calendars.get(calendarId);
      if (!calendar) throw new Error(`no calendar ${calendarId}`);
      calendar.events.set(event.id, { ...event, seq: ++seq, removed: false });
      changed(calendar);
    },

    removeEvent(calendarId: string, id: string) {
      const calendar = calendars.get(calendarId);
      const event = calendar?.events.get(id);
      if (!calendar || !event) return;
      calendar.events.set(id, { ...event, removed: true, seq: ++seq });
      changed(calendar);
    },

    /** The calendar's live events, Marpe's own included. */
    events: (calendarId: string) =>
      [...(calendars.get(calendarId)?.events.values() ?? [])].filter((e) => !e.removed),

    /** The owner changes what the account may do with the calendar. */
    setCanEdit(calendarId: string, canEdit: boolean) {
      const calendar = calendars.get(calendarId);
      if (calendar) calendar.canEdit = canEdit;
    },

    /** Graph drops the calendar's sync state: its delta links answer 410 syncStateNotFound. */
    dropSyncState(calendarId: string) {
      const calendar = calendars.get(calendarId);
      if (calendar) calendar.generation += 1;
    },

    /** The next Graph request answers this (429 or 503 with Retry-After seconds). */
    throttleNext(status: 429 | 503, retryAfter: number) {
      throttles.push({
        status,
        retryAfter,
        code: status === 429 ? 'TooManyRequests' : 'ServiceNotAvailable',
      });
    },

    /**
     * Graph removes the subscription (as it may at any time, for Outlook events): it is gone, and
     * the lifecycle notification it sends is returned for the test to deliver, or null when the
     * subscription named no lifecycle URL.
     */
    removeSubscription(id: string) {
      const subscription = subscriptions.get(id);
      subscriptions.delete(id);
      return subscription?.lifecycleNotificationUrl
        ? {
            url: subscription.lifecycleNotificationUrl,
            body: {
              value: [
                {
                  subscriptionId: subscription.id,
                  clientState: subscription.clientState,
                  lifecycleEvent: 'subscriptionRemoved',
                  subscriptionExpirationDateTime: subscription.expirationDateTime,
                },
              ],
            },
          }
        : null;
    },

    /** The calendar's calendarView times out (504 ErrorTimeoutExpired) until told otherwise. */
    failCalendarView(calendarId: string, failing: boolean) {
      if (failing) failingViews.add(calendarId);
      else failingViews.delete(calendarId);
    },

    /** The user removed the app: refreshes answer invalid_grant, tokens 401. */
    revokeAccount(account: string) {
      const found = accounts.get(account.toLowerCase());
      if (found) found.revoked = true;
    },

    subscriptions: (calendarId?: string) => {
      dropLapsed();
      return [...subscriptions.values()].filter((s) => !calendarId || s.calendarId === calendarId);
    },

    /** Called on every change of a calendar with a subscription (to send its notification). */
    onChange(listener: (subscription: StandInSubscription) => void) {
      listeners.push(listener);
    },

    async handle(request: GraphStandInRequest): Promise<GraphStandInAnswer> {
      if (request.method === 'POST' && /\/oauth2\/v2\.0\/token$/.test(request.path)) {
        return token(request);
      }
      if (request.path.startsWith('/v1.0/')) return graph(request);
      return graphError(404, 'NotFound', 'No such endpoint');
    },
  };
}

export type GraphStandIn = ReturnType<typeof createGraphStandIn>;
