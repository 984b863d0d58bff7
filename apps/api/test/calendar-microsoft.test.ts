// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Slot } from '@marpe/shared';
import type { App } from '../src/app.js';
import { MARPE_PROPERTY_ID } from '../src/modules/calendar-sync/providers/microsoft/graph-calendar-api.js';
import {
  createGraphStandIn,
  type GraphStandIn,
} from '../src/modules/calendar-sync/providers/microsoft/graph-standin.js';
import { MICROSOFT_SCOPES } from '../src/modules/calendar-sync/providers/microsoft/microsoft-oauth.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  calendarConnections,
  calendarSyncs,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
} from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startStandInLoopback, type Loopback } from './loopback.js';
import { bearer, insertLoggedInPatients } from './sessions.js';

// Microsoft 365 calendars through Microsoft Graph (docs/calendar-sync.md, ADR 043), against a
// strict fake of the identity platform and Graph on loopback: consent with PKCE, delta pages and
// links, subscriptions with the validation handshake and clientState, calendarView, writes,
// throttling, and two clinics that cannot reach each other's calendars.

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const CLIENT_ID = '0f3b6f1e-8d2a-4c1b-9a57-5d1c2e3f4a5b';
const CLIENT_SECRET = 'test~secret';
const COOKIE = 'marpe_calendar_link';
const NOTIFY = '/api/calendar-sync/microsoft/notify';
const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);
/** A local time of the clinic as Graph's UTC `dateTime`. */
const utc = (local: string) => new Date(at(local)).toISOString().slice(0, 19);

describe.each(engines)('Microsoft 365 calendars through Graph (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let graph: GraphStandIn;
  let fake: Loopback;
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicId = 0;
  let dana = 0;
  let checkup = 0;
  let key = '';
  let runs = 0;
  /** This test's Microsoft account of Dana: a calendar she may edit, one she only reads. */
  let account = '';
  let main = '';
  let shared = '';
  /** Another calendar of Dana's she may edit, not her default one. */
  let clinicCalendar = '';

  beforeAll(async () => {
    graph = createGraphStandIn({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${ORIGIN}/calendar/oauth/callback`,
      clock: () => now,
      // Graph's handshake, to Marpe's notify route (the public origin is this app).
      validate: async (url, token) => {
        const target = new URL(url);
        target.searchParams.set('validationToken', token);
        const answer = await app.inject({
          method: 'POST',
          url: `${target.pathname}${target.search}`,
          headers: { 'content-type': 'text/plain' },
        });
        return answer.statusCode === 200 &&
          String(answer.headers['content-type']).includes('text/plain')
          ? answer.body
          : null;
      },
    });
    fake = await startStandInLoopback(graph);
    graph.setBaseUrl(fake.origin);
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        PUBLIC_ORIGIN: ORIGIN,
        MICROSOFT_CLIENT_ID: CLIENT_ID,
        MICROSOFT_CLIENT_SECRET: CLIENT_SECRET,
        MICROSOFT_LOGIN_URL: fake.origin,
        MICROSOFT_GRAPH_BASE_URL: `${fake.origin}/v1.0`,
      }),
      clock: () => now,
      outboxPollIntervalMs: HOUR,
      calendarSyncTickMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
  });

  afterEach(async () => {
    await app.outbox.runOnce();
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  /** A clinic with one caregiver who works 08:00-16:00 and does 30-minute check-ups. */
  async function clinicWithCaregiver(name: string) {
    const [clinic] = await db.insert(clinics).values(clinicRow(name)).returning();
    const id = clinic?.id ?? 0;
    const [type] = await db
      .insert(appointmentTypes)
      .values({ clinicId: id, name: 'בדיקה', durationMinutes: 30 })
      .returning();
    const [doctor] = await db
      .insert(caregivers)
      .values({
        clinicId: id,
        name: 'ד"ר דנה',
        licenseNumber: `1-${id}`,
        slotStepMinutes: 30,
        minNoticeMinutes: 60,
        bookingHorizonDays: 30,
      })
      .returning();
    const caregiverId = doctor?.id ?? 0;
    await db
      .insert(caregiverAppointmentTypes)
      .values({ caregiverId, appointmentTypeId: type?.id ?? 0 });
    await db.insert(caregiverWorkingHours).values(
      [0, 1, 2, 3, 4, 5].map((weekDay) => ({
        caregiverId,
        weekDay,
        startTime: '08:00',
        endTime: '16:00',
      })),
    );
    const apiKey = (await app.apiKeys.create(id, 'pms', 'test')).key;
    return { clinicId: id, caregiverId, typeId: type?.id ?? 0, apiKey };
  }

  beforeEach(async () => {
    now = NOW;
    runs += 1;
    account = `dana${runs}@clinic.onmicrosoft.example`;
    main = `AAMkMain${runs}`;
    shared = `AAMkShared${runs}`;
    clinicCalendar = `AAMkClinic${runs}`;
    graph.addAccount({
      email: account,
      calendars: [
        { id: main, name: 'Calendar', canEdit: true, isDefaultCalendar: true },
        { id: shared, name: 'Team holidays', canEdit: false },
        { id: clinicCalendar, name: 'Clinic', canEdit: true },
      ],
    });
    await database.current.reset();
    const made = await clinicWithCaregiver('מרפאת היומן');
    ({ clinicId, caregiverId: dana, typeId: checkup, apiKey: key } = made);
    fake.reset();
  });

  const integration = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    apiKey = key,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      headers: { authorization: `Bearer ${apiKey}` },
      ...(payload ? { payload } : {}),
    });
  const newLink = async (caregiverId = dana, apiKey = key) => {
    const response = await integration(
      'POST',
      `/caregivers/${caregiverId}/calendar-connection`,
      { provider: 'microsoft' },
      apiKey,
    );
    expect(response.statusCode, response.body).toBe(201);
    return new URL(response.json<{ url: string }>().url).pathname;
  };
  /** The whole consent up to the choice page. */
  const consent = async (caregiverId = dana, apiKey = key, who = account) => {
    const path = await newLink(caregiverId, apiKey);
    const started = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'provider=microsoft',
    });
    expect(started.statusCode, started.body).toBe(303);
    const location = new URL(String(started.headers.location));
    const cookie = started.cookies.find((c) => c.name === COOKIE);
    const cookies = { [COOKIE]: cookie?.value ?? '' };
    const query = Object.fromEntries(location.searchParams);
    const answer = graph.consent(query, { account: who });
    if (!('redirect' in answer)) throw new Error(answer.error);
    const back = new URL(answer.redirect);
    const returned = await app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies,
    });
    expect(returned.statusCode, returned.body).toBe(303);
    return { path, cookies, location, query };
  };
  const choose = (path: string, calendarId: string, cookies: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `${path}/calendar`,
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ calendar_id: calendarId }).toString(),
    });
  const connect = async () => {
    const { path, cookies } = await consent();
    const done = await choose(path, main, cookies);
    expect(done.statusCode, done.body).toBe(200);
    await app.calendarSync.runOnce();
  };
  const syncOf = async (caregiverId = dana) =>
    (await db.select().from(calendarSyncs).where(eq(calendarSyncs.caregiverId, caregiverId)))[0];
  const slotsOn = async (date: string, caregiverId = dana, clinic = clinicId) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-slots?clinicId=${clinic}&caregiverId=${caregiverId}&duration=30&startDate=${date}%2000:00&endDate=${date}%2023:59`,
    });
    return response.json<Slot[]>().map((s) => s.start.slice(11, 16));
  };
  const book = async (local: string) => {
    const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    const xsrf = await xsrfPair(app);
    return app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient?.token ?? '') },
      payload: {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso(local),
        endDate: iso(local.replace(/:00$/, ':30')),
      },
    });
  };

  it('connects by consent (PKCE S256, narrow scopes, a calendar the account may edit), subscribes after the handshake, and reads pages of changes', async () => {
    // The link's page offers its provider first, and Google beside it (this server has both).
    const page = await app.inject({ method: 'GET', url: `${await newLink()}?lang=en` });
    expect(page.body).toContain('connect your Outlook to Marpe');
    const microsoftAt = page.body.indexOf('Continue to Microsoft');
    expect(microsoftAt).toBeGreaterThan(0);
    expect(page.body.indexOf('Continue to Google')).toBeGreaterThan(microsoftAt);

    const { query, location, path, cookies } = await consent();
    expect(`${location.origin}${location.pathname}`).toBe(
      `${fake.origin}/common/oauth2/v2.0/authorize`,
    );
    expect(query).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/calendar/oauth/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: MICROSOFT_SCOPES.join(' '),
    });
    const choices = await app.inject({ method: 'GET', url: `${path}/calendar`, cookies });
    expect(choices.body).toMatch(new RegExp(`value="${main}" checked`));
    expect(choices.body).toMatch(new RegExp(`value="${shared}" disabled`));
    // A calendar without canEdit cannot be chosen, even by a crafted POST.
    expect((await choose(path, shared, cookies)).statusCode).toBe(409);

    // Enough events for Graph to page (Marpe asks 200 a page), a series, and every showAs.
    for (let i = 0; i < 205; i++) {
      graph.putEvent(main, {
        id: `far${i}`,
        start: utc(`2027-04-${String(10 + (i % 15)).padStart(2, '0')} 08:00`),
        end: utc(`2027-04-${String(10 + (i % 15)).padStart(2, '0')} 08:30`),
        showAs: 'busy',
      });
    }
    const put = (id: string, from: string, to: string, extra = {}) =>
      graph.putEvent(main, { id, start: utc(from), end: utc(to), ...extra });
    put('busy', '2027-03-25 08:00', '2027-03-25 08:30', { showAs: 'busy' });
    put('oof', '2027-03-25 09:00', '2027-03-25 09:30', { showAs: 'oof' });
    put('tentative', '2027-03-25 10:00', '2027-03-25 10:30', { showAs: 'tentative' });
    put('free', '2027-03-25 11:00', '2027-03-25 11:30', { showAs: 'free' });
    put('elsewhere', '2027-03-25 12:00', '2027-03-25 12:30', { showAs: 'workingElsewhere' });
    put('unknown', '2027-03-25 13:00', '2027-03-25 13:30', { showAs: 'unknown' });
    put('cancelled', '2027-03-25 14:00', '2027-03-25 14:30', { isCancelled: true });
    put('declined', '2027-03-25 15:00', '2027-03-25 15:30', {
      responseStatus: { response: 'declined' },
    });
    for (const day of ['2027-03-28', '2027-03-29']) {
      put(`staff-${day}`, `${day} 08:00`, `${day} 09:00`, {
        type: 'occurrence',
        seriesMasterId: 'staffMeeting',
      });
    }
    graph.putEvent(main, {
      id: 'dayOff',
      start: '2027-03-30',
      end: '2027-03-31',
      isAllDay: true,
      showAs: 'free',
    });

    expect((await choose(path, main, cookies)).statusCode).toBe(200);
    await app.calendarSync.runOnce();
    const sync = await syncOf();
    expect(sync).toMatchObject({ state: 'syncing', calendarId: main });
    expect(sync?.syncToken).toContain('$deltatoken=');
    const reads = fake.requests.filter((r) => r.path.endsWith('/calendarView/delta'));
    expect(reads.some((r) => r.query.$skiptoken !== undefined)).toBe(true);
    expect(reads[0]?.headers.prefer).toContain('odata.maxpagesize=200');
    expect(reads[0]?.query).toMatchObject({ startDateTime: expect.any(String) });
    const [connection] = await db
      .select()
      .from(calendarConnections)
      .where(eq(calendarConnections.caregiverId, dana));
    expect(connection).toMatchObject({ provider: 'microsoft', accountEmail: account });
    expect(connection?.refreshToken).toMatch(/^v2\./);

    // Busy, out of office and tentative block; free, working elsewhere, unknown, cancelled and
    // declined do not.
    const slots = await slotsOn('2027-03-25');
    for (const taken of ['08:00', '09:00', '10:00']) expect(slots).not.toContain(taken);
    for (const open of ['11:00', '12:00', '13:00', '14:00', '15:00']) expect(slots).toContain(open);
    // Every occurrence of the series blocks; the "Free" all-day day off blocks the whole day.
    expect(await slotsOn('2027-03-28')).not.toContain('08:00');
    expect(await slotsOn('2027-03-29')).not.toContain('08:30');
    expect(await slotsOn('2027-03-30')).toEqual([]);

    // The subscription: on the chosen calendar's events, clientState kept, within 4230 minutes,
    // made only after Marpe answered the handshake.
    const [subscription] = graph.subscriptions(main);
    expect(subscription).toMatchObject({
      resource: `/me/calendars/${main}/events`,
      notificationUrl: `${ORIGIN}${NOTIFY}`,
    });
    expect(Date.parse(subscription?.expirationDateTime ?? '') - now).toBeLessThanOrEqual(
      4230 * MINUTE,
    );
    expect(sync?.channelId).toBe(subscription?.id);
    const status = await integration('GET', '/calendar-sync');
    expect(status.json()).toMatchObject({
      // The tests run in demo mode: Google's stand-in makes links too.
      connect_providers: ['google', 'microsoft'],
      caregivers: [
        expect.objectContaining({
          state: 'syncing',
          push: true,
          connection: 'oauth',
          provider: 'microsoft',
          account_email: account,
        }),
      ],
    });
  });

  it('answers the validation handshake, and syncs at once on a notification whose clientState matches only', async () => {
    const handshake = await app.inject({
      method: 'POST',
      url: `${NOTIFY}?validationToken=${encodeURIComponent('Validation: Testing 1 2 3')}`,
      headers: { 'content-type': 'text/plain' },
    });
    expect(handshake.statusCode).toBe(200);
    expect(handshake.headers['content-type']).toContain('text/plain');
    expect(handshake.body).toBe('Validation: Testing 1 2 3');

    await connect();
    const [subscription] = graph.subscriptions(main);
    graph.putEvent(main, {
      id: 'phone',
      start: utc('2027-03-25 12:00'),
      end: utc('2027-03-25 13:00'),
      showAs: 'busy',
    });
    const notify = (clientState: string) =>
      app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: {
          value: [
            {
              subscriptionId: subscription?.id,
              clientState,
              changeType: 'created',
              resource: subscription?.resource,
            },
          ],
        },
      });
    // A notification with another clientState is answered like any other, and does nothing.
    const forged = await notify('not-ours');
    expect(forged.statusCode).toBe(202);
    expect((await syncOf())?.nextSyncAt.getTime()).toBeGreaterThan(now);
    expect((await notify(subscription?.clientState ?? '')).statusCode).toBe(202);
    expect((await syncOf())?.nextSyncAt.getTime()).toBeLessThanOrEqual(now);
    await app.calendarSync.runOnce();
    expect(await slotsOn('2027-03-25')).not.toContain('12:00');
    // Only the change was read: the delta link of the last pass.
    const last = fake.requests.filter((r) => r.path.endsWith('/calendarView/delta')).at(-1);
    expect(last?.query.$deltatoken).toBeDefined();
  });

  it('frees a removed event, and reads everything again when Graph drops the delta link (410 syncStateNotFound)', async () => {
    graph.putEvent(main, {
      id: 'meeting',
      start: utc('2027-03-25 09:00'),
      end: utc('2027-03-25 10:00'),
    });
    await connect();
    expect(await slotsOn('2027-03-25')).not.toContain('09:00');
    graph.removeEvent(main, 'meeting');
    now += 10 * MINUTE;
    await app.calendarSync.runOnce();
    expect(await slotsOn('2027-03-25')).toContain('09:00');

    graph.putEvent(main, {
      id: 'course',
      start: utc('2027-03-25 13:00'),
      end: utc('2027-03-25 14:00'),
    });
    graph.dropSyncState(main);
    fake.reset();
    now += 10 * MINUTE;
    await app.calendarSync.runOnce();
    expect((await syncOf())?.state).toBe('syncing');
    const reads = fake.requests.filter((r) => r.path.endsWith('/calendarView/delta'));
    expect(reads[0]?.query.$deltatoken).toBeDefined();
    expect(reads[1]?.query.startDateTime).toBeDefined();
    expect(await slotsOn('2027-03-25')).not.toContain('13:00');
  });

  it('writes a booking once (its id as an extended property, a transactionId on create), again after the caregiver deleted it, and deletes it on cancel; its own event raises no conflict', async () => {
    await connect();
    const booked = await book('2027-03-25 11:00');
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json<{ id: number }>().id;
    await app.outbox.runOnce();
    // A retried write (a lost answer, another worker) finds the event: still one.
    await app.calendarSync.write(id);
    let events = graph.events(main);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      start: utc('2027-03-25 11:00'),
      showAs: 'busy',
      transactionId: expect.stringMatching(new RegExp(`^marpe-${id}-`)),
      singleValueExtendedProperties: [{ id: MARPE_PROPERTY_ID, value: String(id) }],
    });
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/events'));
    expect(creates).toHaveLength(1);
    // Read back, Marpe's own event raises no conflict and blocks nothing beyond the booking.
    now += 10 * MINUTE;
    await app.calendarSync.runOnce();
    const conflicts = await integration('GET', '/calendar-sync/conflicts');
    expect(conflicts.json()).toEqual([]);

    // Deleted by the caregiver in Outlook: reported as a conflict once.
    graph.removeEvent(main, events[0]?.id ?? '');
    now += 10 * MINUTE;
    await app.calendarSync.runOnce();
    expect(
      (await integration('GET', '/calendar-sync/conflicts')).json<{ kind: string }[]>(),
    ).toEqual([expect.objectContaining({ kind: 'event_deleted', appointment_id: id })]);
    // Written again (the outbox's next try), then the cancellation deletes it.
    await app.calendarSync.write(id);
    events = graph.events(main);
    expect(events).toHaveLength(1);
    // Cancelled (as the clinic's system would): the write-back deletes the event.
    await db.update(appointments).set({ status: 'cancelled' }).where(eq(appointments.id, id));
    await app.calendarSync.write(id);
    expect(graph.events(main)).toHaveLength(0);
  });

  it('renews its subscription by PATCH a day before it ends (same id and clientState, no new handshake); one that lapsed is replaced by a new one', async () => {
    await connect();
    const [first] = graph.subscriptions(main);
    const firstEnd = Date.parse(first?.expirationDateTime ?? '');
    expect((await syncOf())?.channelId).toBe(first?.id);

    // Less than a day before it ends: extended in place.
    now = firstEnd - DAY + HOUR;
    fake.reset();
    await app.calendarSync.runOnce();
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      `PATCH /v1.0/subscriptions/${first?.id}`,
    );
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v1.0/subscriptions')).toBe(
      false,
    );
    const [renewed] = graph.subscriptions(main);
    expect(renewed).toMatchObject({ id: first?.id, clientState: first?.clientState });
    expect(Date.parse(renewed?.expirationDateTime ?? '')).toBeGreaterThan(firstEnd);
    const sync = await syncOf();
    expect(sync?.channelExpiresAt?.toISOString()).toBe(renewed?.expirationDateTime);

    // Marpe was down past its end: Graph deleted it, so a new one is made (and notifies).
    now = Date.parse(renewed?.expirationDateTime ?? '') + HOUR;
    await app.calendarSync.runOnce();
    const live = graph.subscriptions(main);
    expect(live).toHaveLength(1);
    expect(live[0]?.id).not.toBe(first?.id);
    expect((await syncOf())?.channelId).toBe(live[0]?.id);
  });

  it('acts on Graph lifecycle notifications at the same address: a removed subscription is replaced at once, one needing reauthorization is renewed by PATCH; a wrong clientState changes nothing', async () => {
    await connect();
    const [first] = graph.subscriptions(main);
    expect(first?.lifecycleNotificationUrl).toBe(`${ORIGIN}${NOTIFY}`);
    const post = (body: object) => app.inject({ method: 'POST', url: NOTIFY, payload: body });
    const lifecycle = (id: string | undefined, clientState: string | undefined, event: string) => ({
      value: [{ subscriptionId: id, clientState, lifecycleEvent: event }],
    });

    // Forged: answered as any other, and no pass comes of it.
    fake.reset();
    expect((await post(lifecycle(first?.id, 'not ours', 'subscriptionRemoved'))).statusCode).toBe(
      202,
    );
    now += MINUTE;
    await app.calendarSync.runOnce();
    expect(fake.requests).toHaveLength(0);

    // Graph removed it: the next pass, at once, makes a new one after the handshakes.
    const removed = graph.removeSubscription(first?.id ?? '');
    expect(removed?.url).toBe(`${ORIGIN}${NOTIFY}`);
    expect((await post(removed?.body ?? {})).statusCode).toBe(202);
    await app.calendarSync.runOnce();
    const [second] = graph.subscriptions(main);
    expect(second?.id).toBeDefined();
    expect(second?.id).not.toBe(first?.id);
    expect((await syncOf())?.channelId).toBe(second?.id);

    // Reauthorization required: the same subscription, renewed in place.
    fake.reset();
    await post(lifecycle(second?.id, second?.clientState, 'reauthorizationRequired'));
    await app.calendarSync.runOnce();
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      `PATCH /v1.0/subscriptions/${second?.id}`,
    );
    expect(graph.subscriptions(main).map((s) => s.id)).toEqual([second?.id]);
  });

  it('asks the connected calendar itself before a booking (calendarView: getSchedule reads only the default one): busy there is slot_taken; the default calendar, a declined or a cancelled event are not; no answer books on the mirror and reads again', async () => {
    // The caregiver keeps the clinic's bookings in a calendar of their own, not the default.
    const { path, cookies } = await consent();
    const done = await choose(path, clinicCalendar, cookies);
    expect(done.statusCode, done.body).toBe(200);
    await app.calendarSync.runOnce();
    // Typed into Outlook a moment ago: the mirror has not seen them, the last check does.
    const at = (id: string, from: string, to: string) => ({
      id,
      start: utc(`2027-03-25 ${from}`),
      end: utc(`2027-03-25 ${to}`),
    });
    graph.putEvent(clinicCalendar, { ...at('walkIn', '11:00', '12:00'), showAs: 'oof' });
    graph.putEvent(main, at('private', '09:00', '10:00'));
    graph.putEvent(clinicCalendar, {
      ...at('declined', '10:00', '11:00'),
      responseStatus: { response: 'declined' },
    });
    graph.putEvent(clinicCalendar, { ...at('cancelled', '12:00', '13:00'), isCancelled: true });
    fake.reset();
    const taken = await book('2027-03-25 11:00');
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'slot_taken' });
    expect(fake.requests.map((r) => r.path)).toContain(
      `/v1.0/me/calendars/${clinicCalendar}/calendarView`,
    );
    for (const time of ['09:00', '10:00', '12:00']) {
      const booked = await book(`2027-03-25 ${time}`);
      expect(booked.statusCode, `${time}: ${booked.body}`).toBe(201);
    }

    // Graph cannot answer (a timeout): booked on the mirror, read again a few seconds later,
    // and the overlap is raised (ADR 040).
    graph.putEvent(clinicCalendar, at('walkIn2', '13:00', '14:00'));
    graph.failCalendarView(clinicCalendar, true);
    const booked = await book('2027-03-25 13:00');
    graph.failCalendarView(clinicCalendar, false);
    expect(booked.statusCode, booked.body).toBe(201);
    now += 6_000;
    await app.calendarSync.runOnce();
    const conflicts = await integration('GET', '/calendar-sync/conflicts');
    expect(conflicts.json<{ kind: string; event_id: string }[]>()).toEqual([
      expect.objectContaining({ kind: 'overlap', event_id: 'walkIn2' }),
    ]);
  });

  it('reads 429 with Retry-After as a wait (state error, not no_access, retried no sooner); a calendar no longer editable is read_only; a removed grant is no_access', async () => {
    await connect();
    graph.throttleNext(429, 600);
    now += 10 * MINUTE;
    await app.calendarSync.runOnce();
    let sync = await syncOf();
    expect(sync?.state).toBe('error');
    expect(sync?.lastError).toContain('429');
    expect((sync?.nextSyncAt.getTime() ?? 0) - now).toBeGreaterThanOrEqual(600_000);

    graph.throttleNext(503, 30);
    now += HOUR;
    await app.calendarSync.runOnce();
    expect((await syncOf())?.state).toBe('error');

    now += HOUR;
    await app.calendarSync.runOnce();
    expect((await syncOf())?.state).toBe('syncing');

    // Shared for reading only since: its events still block, the state says why.
    graph.setCanEdit(main, false);
    now += HOUR;
    await app.calendarSync.runOnce();
    expect((await syncOf())?.state).toBe('read_only');
    graph.setCanEdit(main, true);

    graph.revokeAccount(account);
    now += HOUR;
    await app.calendarSync.runOnce();
    sync = await syncOf();
    expect(sync?.state).toBe('no_access');
    expect(sync?.lastError).toContain('new connection link');
  });

  it("two clinics: neither can link, read or take the other's calendar", async () => {
    await connect();
    const other = await clinicWithCaregiver('מרפאה שנייה');
    // Clinic B's key cannot make a link for clinic A's caregiver, nor disconnect her.
    const url = `/caregivers/${dana}/calendar-connection`;
    const refused = await integration('POST', url, { provider: 'microsoft' }, other.apiKey);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'caregiver_not_found' });
    expect((await integration('DELETE', url, undefined, other.apiKey)).statusCode).toBe(404);
    // Clinic B sees none of clinic A's calendars.
    const status = await integration('GET', '/calendar-sync', undefined, other.apiKey);
    expect(status.json<{ caregivers: object[] }>().caregivers).toEqual([]);
    // Clinic B's caregiver, consenting with the same account, cannot take the calendar A holds.
    const { path, cookies } = await consent(other.caregiverId, other.apiKey);
    const held = await choose(path, main, cookies);
    expect(held.statusCode).toBe(409);
    expect(held.body).toContain('כבר מחובר לאיש צוות אחר');
    expect(await slotsOn('2027-03-25', other.caregiverId, other.clinicId)).toContain('09:00');
  });
});
