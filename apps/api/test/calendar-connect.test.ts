// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Slot } from '@marpe/shared';
import type { App } from '../src/app.js';
import { pkcePair } from '../src/modules/calendar-sync/consent-oauth.js';
import { GOOGLE_OAUTH_SCOPES } from '../src/modules/calendar-sync/providers/google/google-oauth.js';
import {
  createGoogleStandIn,
  type GoogleStandIn,
} from '../src/modules/calendar-sync/providers/google/google-standin.js';
import {
  createStandInOAuth,
  type StandInOAuth,
} from '../src/modules/calendar-sync/providers/google/google-standin-oauth.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointmentTypes,
  auditLog,
  calendarConnections,
  calendarEvents,
  calendarSyncs,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
} from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, startStandInLoopback, type Loopback } from './loopback.js';
import { bearer, insertLoggedInPatients } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const CLIENT_ID = 'marpe-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'test-client-secret';
const COOKIE = 'marpe_calendar_link';
const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);

describe.each(engines)('calendar connection by consent (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let google: GoogleStandIn;
  let oauth: StandInOAuth;
  let fake: Loopback;
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicId = 0;
  let dana = 0;
  let checkup = 0;
  let key = '';
  let runs = 0;
  /** This test's Google account of Dana, with a calendar she may write and one she only reads. */
  let account = '';
  let shared = '';
  let holidays = '';

  beforeAll(async () => {
    oauth = createStandInOAuth({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${ORIGIN}/calendar/oauth/callback`,
    });
    // No service account in these tests: every calendar is reached with a user's own token.
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    google = createGoogleStandIn({
      clientEmail: 'nobody@unused.iam.gserviceaccount.com',
      publicKey: keys.publicKey,
      oauth,
    });
    fake = await startStandInLoopback(google);
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        PUBLIC_ORIGIN: ORIGIN,
        GOOGLE_OAUTH_CLIENT_ID: CLIENT_ID,
        GOOGLE_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
        GOOGLE_OAUTH_AUTHORIZE_URL: `${fake.origin}/o/oauth2/v2/auth`,
        GOOGLE_OAUTH_TOKEN_URL: `${fake.origin}/token`,
        GOOGLE_OAUTH_REVOKE_URL: `${fake.origin}/revoke`,
        GOOGLE_CALENDAR_API_BASE_URL: `${fake.origin}/calendar/v3`,
        GOOGLE_SERVICE_ACCOUNT_CLINICS: '1',
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

  beforeEach(async () => {
    now = NOW;
    runs += 1;
    account = `dana${runs}@gmail.example`;
    shared = `shifts${runs}@group.calendar.google.com`;
    holidays = `holidays${runs}@group.v.calendar.google.com`;
    oauth.addAccount({
      email: account,
      calendars: [
        { id: shared, summary: 'משמרות', accessRole: 'writer' },
        { id: holidays, summary: 'חגים', accessRole: 'reader' },
      ],
    });
    // The account's calendars exist at Google; no service account can see them.
    for (const id of [account, shared, holidays]) google.addCalendar(id, { shared: false });
    await database.current.reset();
    const [clinic] = await db.insert(clinics).values(clinicRow('מרפאת היומן')).returning();
    clinicId = clinic?.id ?? 0;
    const [type] = await db
      .insert(appointmentTypes)
      .values({ clinicId, name: 'בדיקה', durationMinutes: 30 })
      .returning();
    checkup = type?.id ?? 0;
    const [doctor] = await db
      .insert(caregivers)
      .values({
        clinicId,
        name: 'ד"ר דנה',
        licenseNumber: '1-1',
        slotStepMinutes: 30,
        minNoticeMinutes: 60,
        bookingHorizonDays: 30,
      })
      .returning();
    dana = doctor?.id ?? 0;
    await db
      .insert(caregiverAppointmentTypes)
      .values({ caregiverId: dana, appointmentTypeId: checkup });
    await db.insert(caregiverWorkingHours).values(
      [0, 1, 2, 3, 4, 5].map((weekDay) => ({
        caregiverId: dana,
        weekDay,
        startTime: '08:00',
        endTime: '16:00',
      })),
    );
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
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
      { provider: 'google' },
      apiKey,
    );
    expect(response.statusCode, response.body).toBe(201);
    const { url, expires_at } = response.json<{ url: string; expires_at: string }>();
    expect(expires_at).toBe(new Date(now + 24 * HOUR).toISOString());
    expect(url).toMatch(new RegExp(`^${ORIGIN}/calendar/connect/[\\w-]{43}$`));
    return new URL(url).pathname;
  };
  /** "Continue to Google": the authorization request's query and the browser's cookie. */
  const continueToGoogle = async (path: string) => {
    const response = await app.inject({ method: 'POST', url: path });
    expect(response.statusCode, response.body).toBe(303);
    const location = new URL(String(response.headers.location));
    const cookie = response.cookies.find((c) => c.name === COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/calendar' });
    return {
      location,
      query: Object.fromEntries(location.searchParams),
      cookies: { [COOKIE]: cookie?.value ?? '' },
    };
  };
  const callback = (redirect: string, cookies: Record<string, string>) => {
    const url = new URL(redirect);
    return app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, cookies });
  };
  const choose = (path: string, calendarId: string, cookies: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `${path}/calendar`,
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ calendar_id: calendarId }).toString(),
    });
  /** The whole consent up to the choice page; returns what the choice needs. */
  const consent = async (caregiverId = dana, apiKey = key, who = account) => {
    const path = await newLink(caregiverId, apiKey);
    const { query, cookies } = await continueToGoogle(path);
    const answer = oauth.consent(query, { account: who });
    if (!('redirect' in answer)) throw new Error(answer.error);
    const back = await callback(answer.redirect, cookies);
    expect(back.statusCode, back.body).toBe(303);
    expect(back.headers.location).toBe(`${path}/calendar`);
    return { path, cookies };
  };
  const connectionOf = async (caregiverId = dana) =>
    (
      await db
        .select()
        .from(calendarConnections)
        .where(eq(calendarConnections.caregiverId, caregiverId))
    )[0];
  const calendarIdOf = async (caregiverId = dana) =>
    (await db.select().from(caregivers).where(eq(caregivers.id, caregiverId)))[0]
      ?.googleCalendarSyncCalendarId;
  const slotsOn = async (date: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-slots?clinicId=${clinicId}&caregiverId=${dana}&duration=30&startDate=${date}%2000:00&endDate=${date}%2023:59`,
    });
    return response.json<Slot[]>().map((s) => s.start.slice(11, 16));
  };

  it("connects by consent: PKCE S256, the calendar chosen from the list, synced and written with the user's token", async () => {
    google.putEvent(account, {
      id: 'phone1',
      status: 'confirmed',
      start: { dateTime: iso('2027-03-25 09:00'), timeZone: TZ },
      end: { dateTime: iso('2027-03-25 10:00'), timeZone: TZ },
    });
    const path = await newLink();
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('<html lang="he" dir="rtl">');
    expect(page.body).toContain('ד&quot;ר דנה');
    expect(page.body).toContain('מרפאת היומן');
    expect(page.headers['content-security-policy']).toContain(`form-action 'self' ${fake.origin}`);
    const english = await app.inject({ method: 'GET', url: `${path}?lang=en` });
    expect(english.body).toContain('<html lang="en" dir="ltr">');
    expect(english.body).toContain('Continue to Google');

    const { location, query, cookies } = await continueToGoogle(path);
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.origin}/o/oauth2/v2/auth`);
    expect(query).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/calendar/oauth/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      scope: GOOGLE_OAUTH_SCOPES.join(' '),
    });
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(query.state).toMatch(/^[\w-]{43}$/);
    const answer = oauth.consent(query, { account });
    if (!('redirect' in answer)) throw new Error(answer.error);
    const back = await callback(answer.redirect, cookies);
    expect(back.statusCode, back.body).toBe(303);
    const choices = await app.inject({ method: 'GET', url: `${path}/calendar`, cookies });
    expect(choices.statusCode, choices.body).toBe(200);
    // The primary calendar (the account's address) is chosen already; the reader one cannot be.
    expect(choices.body).toMatch(new RegExp(`value="${account}" checked`));
    expect(choices.body).toMatch(new RegExp(`value="${holidays}" disabled`));

    const done = await choose(path, account, cookies);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('היומן חובר');
    expect(await calendarIdOf()).toBe(account);
    const stored = await connectionOf();
    expect(stored).toMatchObject({ accountEmail: account, calendarId: account, clinicId });
    // Sealed with DATA_KEY: no Google token in the clear.
    expect(stored?.refreshToken).toMatch(/^v2\./);
    const before = await integration('GET', '/calendar-sync');
    expect(before.json<{ caregivers: object[] }>().caregivers).toEqual([
      expect.objectContaining({
        caregiver_id: dana,
        calendar_id: account,
        state: 'pending',
        connection: 'oauth',
        account_email: account,
      }),
    ]);

    await app.calendarSync.runOnce();
    const [sync] = await db.select().from(calendarSyncs).where(eq(calendarSyncs.caregiverId, dana));
    expect(sync).toMatchObject({ state: 'syncing', calendarId: account });
    const reads = fake.requests.filter((r) => r.path.endsWith('/events') && r.method === 'GET');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => /^Bearer ya29\.u/.test(String(r.headers.authorization)))).toBe(true);
    expect(await slotsOn('2027-03-25')).not.toContain('09:00');

    // A booking is written into the chosen calendar with the caregiver's token.
    const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    const xsrf = await xsrfPair(app);
    const booked = await app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient?.token ?? '') },
      payload: {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso('2027-03-25 11:00'),
        endDate: iso('2027-03-25 11:30'),
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    await app.outbox.runOnce();
    expect(google.events(account).map((e) => e.id)).toContain(
      `marpe${booked.json<{ id: number }>().id}`,
    );

    // The link was used: opening it again says so.
    const again = await app.inject({ method: 'GET', url: path });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('הקישור כבר שימש');
  });

  it("refuses a code exchanged without the challenge's verifier (the fake checks PKCE)", async () => {
    const { verifier, challenge } = pkcePair();
    const query = {
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/calendar/oauth/callback`,
      response_type: 'code',
      scope: GOOGLE_OAUTH_SCOPES.join(' '),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const exchange = async (code: string, codeVerifier: string) =>
      fetch(`${fake.origin}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          code,
          code_verifier: codeVerifier,
          redirect_uri: query.redirect_uri,
        }),
      });
    const answer = oauth.consent(query, { account });
    if (!('redirect' in answer)) throw new Error(answer.error);
    const code = new URL(answer.redirect).searchParams.get('code') ?? '';
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    // Spent by the failed try, as Google's codes are.
    expect((await exchange(code, verifier)).status).toBe(400);

    // Through Marpe: Google's answer to a request made with another challenge is refused.
    const path = await newLink();
    const started = await continueToGoogle(path);
    const forged = oauth.consent({ ...started.query, code_challenge: challenge }, { account });
    if (!('redirect' in forged)) throw new Error(forged.error);
    const back = await callback(forged.redirect, started.cookies);
    expect(back.statusCode).toBe(502);
    expect(back.body).toContain('Google לא השיבה');
    expect(await connectionOf()).toBeUndefined();
  });

  it('a link expires after 24 hours, and a newer one voids it', async () => {
    const first = await newLink();
    const second = await newLink();
    const voided = await app.inject({ method: 'GET', url: `${first}?lang=en` });
    expect(voided.statusCode).toBe(410);
    expect(voided.body).toContain('This link has expired');
    expect((await app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    now += 24 * HOUR + 1;
    expect((await app.inject({ method: 'GET', url: second })).statusCode).toBe(410);
    expect((await app.inject({ method: 'POST', url: second })).statusCode).toBe(410);
    const unknown = await app.inject({ method: 'GET', url: '/calendar/connect/nothing-here' });
    expect(unknown.statusCode).toBe(404);
  });

  it("refuses Google's answer with a state it did not give, or in another browser", async () => {
    const path = await newLink();
    const { query, cookies } = await continueToGoogle(path);
    const answer = oauth.consent(query, { account });
    if (!('redirect' in answer)) throw new Error(answer.error);
    const forged = new URL(answer.redirect);
    forged.searchParams.set('state', 'not-the-state');
    const wrongState = await callback(forged.toString(), cookies);
    expect(wrongState.statusCode).toBe(400);
    expect(wrongState.body).toContain('אינה שייכת לדפדפן הזה');
    const otherBrowser = await callback(answer.redirect, {});
    expect(otherBrowser.statusCode).toBe(400);
    const choices = await app.inject({ method: 'GET', url: `${path}/calendar` });
    expect(choices.statusCode).toBe(400);
    expect(await connectionOf()).toBeUndefined();
  });

  it('says plainly when the caregiver does not allow access, and connects nothing', async () => {
    const path = await newLink();
    const { query, cookies } = await continueToGoogle(path);
    const answer = oauth.consent(query, 'cancel');
    if (!('redirect' in answer)) throw new Error(answer.error);
    expect(answer.redirect).toContain('error=access_denied');
    const back = await callback(answer.redirect, cookies);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('לא ניתנה הרשאה');
    // The state answered once.
    expect((await callback(answer.redirect, cookies)).statusCode).toBe(400);
    expect(await calendarIdOf()).toBeNull();
    // The link itself can start again.
    expect((await continueToGoogle(path)).query.state).toBeDefined();
  });

  it('refuses a read-only calendar and one another caregiver of another clinic holds', async () => {
    const [other] = await db.insert(clinics).values(clinicRow('מרפאה שנייה')).returning();
    const otherId = other?.id ?? 0;
    const [stranger] = await db
      .insert(caregivers)
      .values({ clinicId: otherId, name: 'ד"ר זר', licenseNumber: '2-1' })
      .returning();
    const otherKey = (await app.apiKeys.create(otherId, 'pms', 'test')).key;
    // Clinic 2's caregiver connects the shared calendar first, by consent of the same account.
    const theirs = await consent(stranger?.id ?? 0, otherKey);
    expect((await choose(theirs.path, shared, theirs.cookies)).statusCode).toBe(200);
    // Clinic 2 is not among the service account's clinics: its calendar syncs with its own token.
    await app.calendarSync.runOnce();
    const [theirSync] = await db
      .select()
      .from(calendarSyncs)
      .where(eq(calendarSyncs.caregiverId, stranger?.id ?? 0));
    expect(theirSync).toMatchObject({ state: 'syncing', calendarId: shared });

    const { path, cookies } = await consent();
    const reader = await choose(path, holidays, cookies);
    expect(reader.statusCode).toBe(409);
    expect(reader.body).toContain('אי אפשר לבחור יומן לקריאה בלבד');
    const held = await choose(path, shared.toUpperCase(), cookies);
    expect(held.statusCode).toBe(409);
    expect(held.body).toContain('אינו ברשימה שלך');
    const taken = await choose(path, shared, cookies);
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('כבר מחובר לאיש צוות אחר');
    expect(await calendarIdOf()).toBeNull();
    // Its own primary calendar is still free to take.
    expect((await choose(path, account, cookies)).statusCode).toBe(200);
  });

  it("a clinic cannot make or delete a link for another clinic's caregiver; bad input is a 400", async () => {
    const [other] = await db.insert(clinics).values(clinicRow('מרפאה שנייה')).returning();
    const otherKey = (await app.apiKeys.create(other?.id ?? 0, 'pms', 'test')).key;
    const url = `/caregivers/${dana}/calendar-connection`;
    const refused = await integration('POST', url, { provider: 'google' }, otherKey);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'caregiver_not_found' });
    const notDeleted = await integration('DELETE', url, undefined, otherKey);
    expect(notDeleted.statusCode).toBe(404);
    expect(notDeleted.json()).toMatchObject({ code: 'caregiver_not_found' });
    // No body: a Google link, as before Microsoft was offered.
    const plain = await integration('POST', url);
    expect(plain.statusCode, plain.body).toBe(201);
    const bad = await integration('POST', url, { provider: 'outlook' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('provider');
    expect(
      (await integration('POST', `/caregivers/abc/calendar-connection`, { provider: 'google' }))
        .statusCode,
    ).toBe(400);
  });

  it("a connected caregiver's calendar id cannot be typed over; the same id passes", async () => {
    const { path, cookies } = await consent();
    expect((await choose(path, account, cookies)).statusCode).toBe(200);
    const patch = (calendarId: string | null) =>
      app.inject({
        method: 'PATCH',
        url: `/api/integration/caregivers/${dana}`,
        headers: { authorization: `Bearer ${key}` },
        payload: { google_calendar_sync_calendar_id: calendarId },
      });
    for (const other of [shared, null]) {
      const refused = await patch(other);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'calendar_connected' });
    }
    expect(await calendarIdOf()).toBe(account);
    expect((await patch(account)).statusCode).toBe(200);
    // Disconnected, any id may be typed again (the service account, where the operator allows).
    expect(
      (await integration('DELETE', `/caregivers/${dana}/calendar-connection`)).statusCode,
    ).toBe(204);
    expect((await patch(null)).statusCode).toBe(200);
  });

  it('disconnecting revokes the token at Google, stops the channel and forgets the calendar', async () => {
    const { path, cookies } = await consent();
    expect((await choose(path, account, cookies)).statusCode).toBe(200);
    google.putEvent(account, {
      id: 'phone2',
      status: 'confirmed',
      start: { dateTime: iso('2027-03-25 12:00'), timeZone: TZ },
      end: { dateTime: iso('2027-03-25 13:00'), timeZone: TZ },
    });
    await app.calendarSync.runOnce();
    expect(google.channels(account)).toHaveLength(1);
    expect(
      await db.select().from(calendarEvents).where(eq(calendarEvents.caregiverId, dana)),
    ).not.toHaveLength(0);
    fake.reset();
    const gone = await integration('DELETE', `/caregivers/${dana}/calendar-connection`);
    expect(gone.statusCode, gone.body).toBe(204);
    const revoke = fake.requests.find((r) => r.path === '/revoke');
    expect(revoke?.method).toBe('POST');
    expect(new URLSearchParams(revoke?.body).get('token')).toMatch(/^1\/\//);
    expect(oauth.revokeRequests()).toContain(new URLSearchParams(revoke?.body).get('token'));
    expect(google.channels(account)).toHaveLength(0);
    expect(await calendarIdOf()).toBeNull();
    expect(await connectionOf()).toBeUndefined();
    expect(
      await db.select().from(calendarEvents).where(eq(calendarEvents.caregiverId, dana)),
    ).toHaveLength(0);
    expect(await slotsOn('2027-03-25')).toContain('12:00');
    // Nothing connected: still 204.
    expect(
      (await integration('DELETE', `/caregivers/${dana}/calendar-connection`)).statusCode,
    ).toBe(204);
    // Each step is in the clinic's audit log with who took it: the key made the link, the
    // caregiver connected through it, the key disconnected.
    const entries = await db
      .select({ actor: auditLog.actor, action: auditLog.action, targetId: auditLog.targetId })
      .from(auditLog)
      .where(eq(auditLog.clinicId, clinicId))
      .orderBy(auditLog.id);
    const apiKeyActor = expect.stringMatching(/^api_key:\d+$/);
    expect(entries.filter((e) => e.action.startsWith('caregiver.calendar_'))).toEqual([
      { actor: apiKeyActor, action: 'caregiver.calendar_link', targetId: String(dana) },
      { actor: 'calendar_link', action: 'caregiver.calendar_connect', targetId: String(dana) },
      { actor: apiKeyActor, action: 'caregiver.calendar_disconnect', targetId: String(dana) },
      { actor: apiKeyActor, action: 'caregiver.calendar_disconnect', targetId: String(dana) },
    ]);
  });

  it('a grant the caregiver revoked at Google: no_access, a message to send a new link, and the webhook', async () => {
    const { path, cookies } = await consent();
    expect((await choose(path, account, cookies)).statusCode).toBe(200);
    await app.calendarSync.runOnce();
    const receiver = await startLoopback(() => ({ status: 204 }));
    try {
      await integration('POST', '/webhooks', {
        url: receiver.url('/hook'),
        events: ['calendar.sync_failed'],
      });
      oauth.revokeAll(account);
      oauth.expireAccessTokens();
      now += 10 * MINUTE;
      await app.calendarSync.runOnce();
      const [sync] = await db
        .select()
        .from(calendarSyncs)
        .where(eq(calendarSyncs.caregiverId, dana));
      expect(sync?.state).toBe('no_access');
      expect(sync?.lastError).toContain('new connection link');
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => JSON.parse(r.body).data)).toEqual([
        expect.objectContaining({
          caregiver_id: dana,
          state: 'no_access',
          error: expect.stringContaining('new connection link'),
        }),
      ]);
    } finally {
      await receiver.close();
    }
    // A new link connects again and the sync starts over.
    const again = await consent();
    expect((await choose(again.path, account, again.cookies)).statusCode).toBe(200);
    const status = await integration('GET', '/calendar-sync');
    expect(status.json<{ caregivers: { state: string }[] }>().caregivers[0]?.state).toBe('pending');
    await app.calendarSync.runOnce();
    const [sync] = await db.select().from(calendarSyncs).where(eq(calendarSyncs.caregiverId, dana));
    expect(sync?.state).toBe('syncing');
  });
});
