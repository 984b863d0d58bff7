// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Slot } from '@marpe/shared';
import type { App } from '../src/app.js';
import { marpeEventId } from '../src/modules/calendar-sync/providers/google/google-calendar-api.js';
import {
  createGoogleStandIn,
  type GoogleStandIn,
} from '../src/modules/calendar-sync/providers/google/google-standin.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  calendarSyncs,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
} from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback, type LoopbackRequest } from './loopback.js';
import { bearer, insertLoggedInPatients } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wednesday 2027-03-24, 10:00 in Israel; clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const SERVICE_ACCOUNT = 'marpe-sync@clinic-project.iam.gserviceaccount.com';
const METRICS_TOKEN = 'calendar-metrics-token-0123456789abcdef';

const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);
/** An event in the caregiver's calendar, as Google stores one. */
const busyEvent = (id: string, from: string, to: string, extra: object = {}) => ({
  id,
  status: 'confirmed' as const,
  summary: 'טלפון',
  start: { dateTime: iso(from), timeZone: TZ },
  end: { dateTime: iso(to), timeZone: TZ },
  ...extra,
});

describe.each(engines)('calendar sync (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let google: GoogleStandIn;
  /**
   * Google's token endpoint and Calendar API on loopback: the stand-in answers, after this checks
   * what every request carries (the form of the token exchange, the bearer token, JSON bodies).
   */
  let fake: Loopback;
  const problems: string[] = [];
  /** Every token exchange, from the first (the JWT client caches its token between tests). */
  const tokenRequests: LoopbackRequest[] = [];
  let down = 0;
  let freeBusySilent = false;
  /** Google's usage limits: reads and writes of events answer 403 with this reason. */
  let limitedReason: string | null = null;
  /** Lists of events (not the watch) answer 503 this many more times. */
  let listFailures = 0;
  /** freeBusy answers 200 with an `errors` entry for every calendar, as Google does when limited. */
  let limitedFreeBusy = false;
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicId = 0;
  let dana = 0;
  let noa = 0;
  let checkup = 0;
  let key = '';
  /** Dana's calendar: a new one each test, so no event, channel or token outlives its test. */
  let danaCalendar = '';
  let calendars = 0;

  /** The service account's key as Google gives it (JSON), signed by the pair above. */
  const serviceAccountKey = () =>
    JSON.stringify({
      type: 'service_account',
      client_email: SERVICE_ACCOUNT,
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      private_key_id: 'k1',
    });

  const toStandIn = (request: LoopbackRequest) => ({
    method: request.method,
    path: request.path,
    query: request.query,
    headers: request.headers,
    body: request.body,
  });

  beforeAll(async () => {
    google = createGoogleStandIn({
      clientEmail: SERVICE_ACCOUNT,
      publicKey: keys.publicKey,
      pageSize: 3,
    });
    fake = await startLoopback((request) => {
      const type = String(request.headers['content-type'] ?? '');
      if (request.path === '/token') {
        tokenRequests.push(request);
        if (!type.startsWith('application/x-www-form-urlencoded')) problems.push(`token: ${type}`);
      } else {
        if (!/^Bearer ya29\.[\w-]+$/.test(String(request.headers.authorization ?? ''))) {
          problems.push(`${request.path}: no bearer`);
        }
        if (
          request.method !== 'GET' &&
          request.method !== 'DELETE' &&
          type !== 'application/json'
        ) {
          problems.push(`${request.path}: ${type}`);
        }
        if (!request.path.startsWith('/calendar/v3/')) problems.push(`path ${request.path}`);
      }
      if (down > 0 && request.path !== '/token') {
        down -= 1;
        return { status: 503, body: { error: { code: 503, message: 'Backend Error' } } };
      }
      if (freeBusySilent && request.path.endsWith('/freeBusy')) return null;
      if (limitedFreeBusy && request.path.endsWith('/freeBusy')) {
        const items = (JSON.parse(request.body) as { items: { id: string }[] }).items;
        return {
          status: 200,
          body: {
            kind: 'calendar#freeBusy',
            calendars: Object.fromEntries(
              items.map((i) => [
                i.id,
                { errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded' }], busy: [] },
              ]),
            ),
          },
        };
      }
      if (listFailures > 0 && request.method === 'GET' && request.path.endsWith('/events')) {
        listFailures -= 1;
        return { status: 503, body: { error: { code: 503, message: 'Backend Error' } } };
      }
      if (limitedReason && request.path.includes('/events')) {
        return {
          status: 403,
          body: {
            error: {
              code: 403,
              message: 'Rate Limit Exceeded',
              errors: [
                { domain: 'usageLimits', reason: limitedReason, message: 'Rate Limit Exceeded' },
              ],
            },
          },
        };
      }
      const answer = google.handle({ ...toStandIn(request), path: request.path });
      if (process.env.DEBUG_FAKE)
        console.log(request.method, request.path, request.body, JSON.stringify(answer));
      return answer.status === 204 ? { status: 204 } : answer;
    });
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        PUBLIC_ORIGIN: ORIGIN,
        GOOGLE_SERVICE_ACCOUNT_KEY: serviceAccountKey(),
        GOOGLE_CALENDAR_API_BASE_URL: `${fake.origin}/calendar/v3`,
        GOOGLE_OAUTH_TOKEN_URL: `${fake.origin}/token`,
        CALENDAR_FREEBUSY_TIMEOUT_MS: '300',
        // Each test's first clinic is 1 (the tables restart their ids); a second clinic is not.
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
    // What a test's booking kicked off (the outbox's write-back) ends within the test.
    await app.outbox.runOnce();
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  beforeEach(async () => {
    now = NOW;
    calendars += 1;
    danaCalendar = `dana${calendars}@clinic.example`;
    down = 0;
    freeBusySilent = false;
    limitedReason = null;
    listFailures = 0;
    limitedFreeBusy = false;
    problems.length = 0;
    await database.current.reset();
    const [clinic] = await db.insert(clinics).values(clinicRow('מרפאת היומן')).returning();
    clinicId = clinic?.id ?? 0;
    const [type] = await db
      .insert(appointmentTypes)
      .values({ clinicId, name: 'בדיקה', durationMinutes: 30 })
      .returning();
    checkup = type?.id ?? 0;
    const rules = { slotStepMinutes: 30, minNoticeMinutes: 60, bookingHorizonDays: 30 };
    const staff = await db
      .insert(caregivers)
      .values([
        {
          clinicId,
          name: 'ד"ר דנה',
          licenseNumber: '1-1',
          googleCalendarSyncCalendarId: danaCalendar,
          ...rules,
        },
        { clinicId, name: 'ד"ר נועה', licenseNumber: '1-2', ...rules },
      ])
      .returning();
    dana = staff[0]?.id ?? 0;
    noa = staff[1]?.id ?? 0;
    await db.insert(caregiverAppointmentTypes).values([
      { caregiverId: dana, appointmentTypeId: checkup },
      { caregiverId: noa, appointmentTypeId: checkup },
    ]);
    await db.insert(caregiverWorkingHours).values(
      [dana, noa].flatMap((caregiverId) =>
        [0, 1, 2, 3, 4, 5].map((weekDay) => ({
          caregiverId,
          weekDay,
          startTime: '08:00',
          endTime: '16:00',
        })),
      ),
    );
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    google.addCalendar(danaCalendar);
    fake.reset();
  });

  const sync = () => app.calendarSync.runOnce();
  const slotsOn = async (date: string, caregiverId = dana) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-slots?clinicId=${clinicId}&caregiverId=${caregiverId}&duration=30&startDate=${date}%2000:00&endDate=${date}%2023:59`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Slot[]>().map((s) => s.start.slice(11, 16));
  };
  const integration = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const syncRow = async () =>
    (await db.select().from(calendarSyncs).where(eq(calendarSyncs.caregiverId, dana)))[0];

  describe('who may connect a calendar', () => {
    const patchCalendar = (apiKey: string, caregiverId: number, calendarId: string) =>
      app.inject({
        method: 'PATCH',
        url: `/api/integration/caregivers/${caregiverId}`,
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { google_calendar_sync_calendar_id: calendarId },
      });
    const secondClinic = async () => {
      const [other] = await db.insert(clinics).values(clinicRow('מרפאה שנייה')).returning();
      const otherId = other?.id ?? 0;
      const [doctor] = await db
        .insert(caregivers)
        .values({ clinicId: otherId, name: 'ד"ר זר', licenseNumber: '2-1' })
        .returning();
      const otherKey = (await app.apiKeys.create(otherId, 'pms', 'test')).key;
      return { otherId, doctor: doctor?.id ?? 0, otherKey };
    };

    it("refuses another caregiver's calendar, in any spelling, and a clinic the operator did not name", async () => {
      expect(clinicId).toBe(1);
      const taken = await patchCalendar(key, noa, danaCalendar.toUpperCase());
      expect(taken.statusCode, taken.body).toBe(400);
      expect(JSON.stringify(taken.json())).toContain('google_calendar_sync_calendar_id');
      expect(JSON.stringify(taken.json())).toContain('already connected');
      // Clinic 2 is not in GOOGLE_SERVICE_ACCOUNT_CLINICS: not even a calendar nobody has.
      const { otherId, doctor, otherKey } = await secondClinic();
      expect(otherId).toBe(2);
      for (const calendarId of [danaCalendar, 'free-calendar@clinic.example']) {
        const refused = await patchCalendar(otherKey, doctor, calendarId);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(JSON.stringify(refused.json())).toContain('google_calendar_sync_calendar_id');
      }
      // Dana keeps hers and may set it again.
      expect((await patchCalendar(key, dana, danaCalendar)).statusCode).toBe(200);
    });

    it('syncs a calendar for one caregiver of a named clinic only, whatever the rows say', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      const { doctor } = await secondClinic();
      // Written past the API (an import, or two claims that raced): the first caregiver keeps it.
      await db
        .update(caregivers)
        .set({ googleCalendarSyncCalendarId: danaCalendar })
        .where(eq(caregivers.id, doctor));
      await db
        .update(caregivers)
        .set({ googleCalendarSyncCalendarId: danaCalendar.toUpperCase() })
        .where(eq(caregivers.id, noa));
      await sync();
      const synced = await db.select().from(calendarSyncs);
      expect(synced.map((s) => s.caregiverId)).toEqual([dana]);
      expect(await slotsOn('2027-03-25', noa)).toContain('09:00');
    });
  });

  describe('reading the calendar', () => {
    it('mirrors busy events, and only busy ones block slots', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      google.putEvent(
        danaCalendar,
        busyEvent('free1', '2027-03-25 11:00', '2027-03-25 12:00', { transparency: 'transparent' }),
      );
      google.putEvent(
        danaCalendar,
        busyEvent('declined1', '2027-03-25 12:00', '2027-03-25 13:00', {
          attendees: [{ self: true, responseStatus: 'declined' }, { responseStatus: 'accepted' }],
        }),
      );
      google.putEvent(danaCalendar, busyEvent('gone1', '2027-03-25 13:00', '2027-03-25 14:00'));
      google.deleteEvent(danaCalendar, 'gone1');
      await sync();
      expect(await syncRow()).toMatchObject({ state: 'syncing', lastError: null });
      const slots = await slotsOn('2027-03-25');
      expect(slots).not.toContain('09:00');
      expect(slots).not.toContain('09:30');
      for (const free of ['10:00', '11:00', '12:00', '13:00']) expect(slots).toContain(free);
      // Another caregiver's slots are untouched.
      expect(await slotsOn('2027-03-25', noa)).toContain('09:00');
      expect(problems, problems.join('\n')).toEqual([]);
    });

    it('blocks all-day events in the clinic’s zone and recurring ones in every instance', async () => {
      google.putEvent(danaCalendar, {
        id: 'vacation',
        status: 'confirmed',
        start: { date: '2027-03-28' },
        end: { date: '2027-03-29' },
      });
      google.putEvent(danaCalendar, {
        ...busyEvent('staffmeeting', '2027-03-25 08:00', '2027-03-25 09:00'),
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      });
      await sync();
      expect(await slotsOn('2027-03-28')).toEqual([]);
      expect((await slotsOn('2027-03-29'))[0]).toBe('08:00');
      for (const date of ['2027-03-25', '2027-04-01', '2027-04-08']) {
        const slots = await slotsOn(date);
        expect(slots, date).not.toContain('08:00');
        expect(slots, date).toContain('09:00');
      }
      expect(await slotsOn('2027-04-15')).toContain('08:00');
    });

    it('blocks an all-day event made "Free" (Google\'s default for all-day), not a working location or a birthday', async () => {
      // Google Calendar's UI makes an all-day event transparent unless its maker says "Busy".
      google.putEvent(danaCalendar, {
        id: 'dayoff',
        status: 'confirmed',
        transparency: 'transparent',
        start: { date: '2027-03-28' },
        end: { date: '2027-03-29' },
      });
      for (const [id, eventType] of [
        ['office', 'workingLocation'],
        ['birthday', 'birthday'],
      ] as const) {
        google.putEvent(danaCalendar, {
          id,
          status: 'confirmed',
          eventType,
          transparency: 'transparent',
          start: { date: '2027-03-29' },
          end: { date: '2027-03-30' },
        });
      }
      google.putEvent(danaCalendar, {
        ...busyEvent('away', '2027-03-30 08:00', '2027-03-30 12:00'),
        eventType: 'outOfOffice',
      });
      await sync();
      expect(await slotsOn('2027-03-28')).toEqual([]);
      expect((await slotsOn('2027-03-29'))[0]).toBe('08:00');
      const tuesday = await slotsOn('2027-03-30');
      expect(tuesday).not.toContain('08:00');
      expect(tuesday).toContain('12:00');
    });

    it('reads the whole calendar again once a day, clearing what incremental reads left behind', async () => {
      google.putEvent(danaCalendar, busyEvent('series1', '2027-03-29 09:00', '2027-03-29 10:00'));
      await sync();
      expect(await slotsOn('2027-03-29')).not.toContain('09:00');
      google.forgetEvent(danaCalendar, 'series1');
      now += 6 * MINUTE;
      fake.reset();
      await sync();
      expect(fake.requests.find((r) => r.method === 'GET')?.query.syncToken).toBeDefined();
      expect(await slotsOn('2027-03-29')).not.toContain('09:00');
      now += 24 * HOUR;
      fake.reset();
      await sync();
      expect(fake.requests.find((r) => r.method === 'GET')?.query.syncToken).toBeUndefined();
      expect(await slotsOn('2027-03-29')).toContain('09:00');
    });

    it('reads an event in another zone at its instant, across the clock change', async () => {
      // 07:00 in London on Friday 2027-03-26 is 10:00 in Israel (after the change at 02:00, +03:00).
      google.putEvent(danaCalendar, {
        id: 'london',
        status: 'confirmed',
        start: { dateTime: '2027-03-26T07:00:00+00:00', timeZone: 'Europe/London' },
        end: { dateTime: '2027-03-26T08:00:00+00:00', timeZone: 'Europe/London' },
      });
      await sync();
      const slots = await slotsOn('2027-03-26');
      expect(slots).toContain('09:30');
      expect(slots).not.toContain('10:00');
      expect(slots).not.toContain('10:30');
      expect(slots).toContain('11:00');
    });

    it('asks Google nothing while patients look at slots and dates', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      await sync();
      fake.reset();
      await slotsOn('2027-03-25');
      const dates = await app.inject({
        method: 'GET',
        url: `/api/appointment/available-dates?clinicId=${clinicId}&caregiverId=${dana}&duration=30`,
      });
      expect(dates.statusCode).toBe(200);
      expect(fake.requests).toEqual([]);
    });

    it('sends the requests Google documents: a signed assertion, then list and watch', async () => {
      await sync();
      const [token] = tokenRequests;
      const form = new URLSearchParams(token?.body ?? '');
      expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      // The stand-in verified its signature, issuer, audience and scopes before answering.
      const claims = JSON.parse(
        Buffer.from(form.get('assertion')?.split('.')[1] ?? '', 'base64url').toString(),
      ) as Record<string, unknown>;
      expect(claims).toMatchObject({
        iss: SERVICE_ACCOUNT,
        aud: 'https://oauth2.googleapis.com/token',
        scope:
          'https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy',
      });
      const watch = fake.requests.find((r) => r.path.endsWith('/events/watch'));
      expect(watch?.path).toBe(
        `/calendar/v3/calendars/${encodeURIComponent(danaCalendar)}/events/watch`,
      );
      expect(JSON.parse(watch?.body ?? '{}')).toMatchObject({
        type: 'web_hook',
        address: `${ORIGIN}/api/calendar-sync/google/notify`,
        token: expect.stringMatching(/^[\w-]{43}$/),
        expiration: NOW + 7 * 24 * HOUR,
      });
      const list = fake.requests.find((r) => r.method === 'GET');
      expect(list?.query).toEqual({
        singleEvents: 'true',
        showDeleted: 'true',
        maxResults: '2500',
      });
      expect(problems).toEqual([]);
    });

    it('a push notification makes the slot disappear on the next sync', async () => {
      await sync();
      expect(await slotsOn('2027-03-25')).toContain('11:00');
      const channel = google.channels(danaCalendar).at(-1);
      if (!channel) throw new Error('no channel');
      google.putEvent(danaCalendar, busyEvent('phone2', '2027-03-25 11:00', '2027-03-25 11:30'));
      fake.reset();
      const push = await app.inject({
        method: 'POST',
        url: '/api/calendar-sync/google/notify',
        headers: {
          'x-goog-channel-id': channel.id,
          'x-goog-channel-token': channel.token,
          'x-goog-resource-id': channel.resourceId,
          'x-goog-resource-state': 'exists',
          'x-goog-message-number': '2',
        },
      });
      expect(push.statusCode).toBe(200);
      await sync();
      expect(await slotsOn('2027-03-25')).not.toContain('11:00');
      // Incremental: the list carried the sync token.
      const list = fake.requests.find((r) => r.method === 'GET');
      expect(list?.query.syncToken).toMatch(/^sync_\d+$/);
    });

    it('ignores notifications of unknown channels or with the wrong token (404), syncing nothing', async () => {
      await sync();
      const channel = google.channels(danaCalendar).at(-1);
      if (!channel) throw new Error('no channel');
      const before = await syncRow();
      for (const headers of [
        { 'x-goog-channel-id': 'no-such-channel', 'x-goog-channel-token': channel.token },
        { 'x-goog-channel-id': channel.id, 'x-goog-channel-token': 'wrong' },
        { 'x-goog-channel-id': channel.id },
        {},
      ]) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/calendar-sync/google/notify',
          headers: { ...headers, 'x-goog-resource-state': 'exists' },
        });
        expect(response.statusCode).toBe(404);
      }
      expect((await syncRow())?.nextSyncAt).toEqual(before?.nextSyncAt);
    });

    it('keeps one push channel per calendar when passes fail after opening it', async () => {
      listFailures = 4;
      for (let pass = 0; pass < 4; pass += 1) {
        await sync();
        expect(await syncRow()).toMatchObject({ state: 'error' });
        now += 31 * MINUTE; // past the longest retry wait
      }
      // Stored when opened, so each failed pass found it instead of opening another.
      expect(google.channels(danaCalendar)).toHaveLength(1);
      expect((await syncRow())?.channelId).toBe(google.channels(danaCalendar)[0]?.id);
      await sync();
      expect(await syncRow()).toMatchObject({ state: 'syncing' });
      expect(google.channels(danaCalendar)).toHaveLength(1);
    });

    it('renews the push channel a day before it ends, and stops the old one', async () => {
      await sync();
      const first = google.channels(danaCalendar).at(-1);
      now += 6 * 24 * HOUR + MINUTE; // within a day of the week's end
      fake.reset();
      await sync();
      const stop = fake.requests.find((r) => r.path === '/calendar/v3/channels/stop');
      expect(JSON.parse(stop?.body ?? '{}')).toEqual({
        id: first?.id,
        resourceId: first?.resourceId,
      });
      expect(google.channels(danaCalendar).map((c) => c.id)).not.toContain(first?.id);
      expect(google.channels(danaCalendar)).toHaveLength(1);
    });

    it('stops the channel and drops the mirror when the calendar is unset', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      await sync();
      expect(await slotsOn('2027-03-25')).not.toContain('09:00');
      const response = await app.inject({
        method: 'PATCH',
        url: `/api/integration/caregivers/${dana}`,
        headers: { authorization: `Bearer ${key}` },
        payload: { google_calendar_sync_calendar_id: null },
      });
      expect(response.statusCode, response.body).toBe(200);
      fake.reset();
      await sync();
      expect(fake.requests.map((r) => r.path)).toEqual(['/calendar/v3/channels/stop']);
      expect(google.channels(danaCalendar)).toEqual([]);
      expect(await syncRow()).toBeUndefined();
      expect(await slotsOn('2027-03-25')).toContain('09:00');
    });

    it('starts over with a full sync when Google answers 410 to the sync token', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      await sync();
      google.deleteEvent(danaCalendar, 'phone1');
      google.putEvent(danaCalendar, busyEvent('phone3', '2027-03-25 14:00', '2027-03-25 15:00'));
      google.expireSyncTokens();
      now += 6 * MINUTE; // the poll is due
      fake.reset();
      await sync();
      const lists = fake.requests.filter((r) => r.method === 'GET');
      expect(lists[0]?.query.syncToken).toBeDefined();
      expect(lists.at(-1)?.query.syncToken).toBeUndefined();
      const slots = await slotsOn('2027-03-25');
      expect(slots).toContain('09:00');
      expect(slots).not.toContain('14:00');
    });

    it.each([
      [403, 'no_access'],
      [404, 'not_found'],
    ] as const)(
      'records Google’s %s as %s, reports it once, and keeps trying',
      async (status, state) => {
        if (status === 403) google.share(danaCalendar, false);
        else
          await db
            .update(caregivers)
            .set({ googleCalendarSyncCalendarId: 'nobody@clinic.example' })
            .where(eq(caregivers.id, dana));
        const receiver = await startLoopback(() => ({ status: 204 }));
        try {
          await integration('POST', '/webhooks', {
            url: receiver.url('/hook'),
            events: ['calendar.sync_failed'],
          });
          await sync();
          now += 2 * MINUTE;
          await sync();
          const row = await syncRow();
          expect(row).toMatchObject({ state, failures: 2 });
          expect(row?.nextSyncAt.getTime()).toBeGreaterThan(now);
          await app.outbox.runOnce();
          expect(receiver.requests.map((r) => JSON.parse(r.body).data)).toEqual([
            {
              caregiver_id: dana,
              state,
              error: expect.stringContaining(String(status)),
              failures: 1,
            },
          ]);
          // Slots are still served, from working hours and bookings.
          expect(await slotsOn('2027-03-25')).toContain('09:00');
          const shown = await integration('GET', '/calendar-sync');
          expect(shown.json()).toEqual({
            service_account_email: SERVICE_ACCOUNT,
            // The tests run in demo mode: Microsoft's stand-in makes links.
            connect_providers: ['microsoft'],
            caregivers: [
              {
                caregiver_id: dana,
                calendar_id: status === 403 ? danaCalendar : 'nobody@clinic.example',
                state,
                last_error: expect.stringContaining(String(status)),
                last_synced_at: null,
                push: false,
                connection: 'service_account',
                account_email: null,
                provider: 'google',
              },
            ],
          });
        } finally {
          google.share(danaCalendar, true);
          await receiver.close();
        }
      },
    );

    it("keeps a fault of the server's own key from the clinic: a plain error, no webhook, the operator's log and metric", async () => {
      // Google refuses the server's signed assertion (a revoked or rotated key).
      const tokenRefused = await startLoopback(() => ({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
      }));
      const receiver = await startLoopback(() => ({ status: 204 }));
      const logged: string[] = [];
      const broken = await buildTestApp(database.current.handle, {
        config: testConfig({
          PUBLIC_ORIGIN: ORIGIN,
          LOG_LEVEL: 'warn',
          METRICS_TOKEN,
          GOOGLE_SERVICE_ACCOUNT_KEY: serviceAccountKey(),
          GOOGLE_CALENDAR_API_BASE_URL: `${fake.origin}/calendar/v3`,
          GOOGLE_OAUTH_TOKEN_URL: tokenRefused.url('/token'),
        }),
        clock: () => now,
        outboxPollIntervalMs: HOUR,
        calendarSyncTickMs: HOUR,
        logStream: { write: (line) => void logged.push(line) },
      });
      try {
        await integration('POST', '/webhooks', {
          url: receiver.url('/hook'),
          events: ['calendar.sync_failed'],
        });
        await broken.calendarSync.runOnce();
        const row = await syncRow();
        expect(row).toMatchObject({ state: 'error' });
        expect(row?.lastError).not.toMatch(/JWT|invalid_grant|400/);
        await broken.outbox.runOnce();
        expect(receiver.requests).toEqual([]);
        expect(logged.join('\n')).toContain('GOOGLE_SERVICE_ACCOUNT_KEY');
        const metrics = await broken.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        expect(metrics.body).toMatch(/^marpe_calendar_server_faults_total 1$/m);
      } finally {
        await broken.close();
        await tokenRefused.close();
        await receiver.close();
      }
    });

    it('rides out a Google outage: an error state, slots still served, synced once it is back', async () => {
      down = 100;
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      await sync();
      expect(await syncRow()).toMatchObject({ state: 'error' });
      expect(await slotsOn('2027-03-25')).toContain('09:00');
      down = 0;
      now += 2 * MINUTE;
      await sync();
      expect(await syncRow()).toMatchObject({ state: 'syncing', failures: 0 });
      expect(await slotsOn('2027-03-25')).not.toContain('09:00');
    });
  });

  describe('booking against the calendar', () => {
    const book = async (token: string, local: string, caregiverId = dana) => {
      const xsrf = await xsrfPair(app);
      return app.inject({
        method: 'POST',
        url: '/api/appointment',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(token) },
        payload: {
          clinicId,
          caregiverId,
          appointmentTypeId: checkup,
          startDate: iso(local),
          endDate: formatZonedIso(at(local) + 30 * MINUTE, TZ),
        },
      });
    };
    const patient = async () => {
      const [p] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      if (!p) throw new Error('no patient');
      return p;
    };
    const written = () => google.events(danaCalendar).filter((e) => e.id.startsWith('marpe'));

    it('refuses a slot the mirror says is busy, and one Google says is busy at the last check', async () => {
      google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
      await sync();
      const p = await patient();
      expect((await book(p.token, '2027-03-25 09:00')).statusCode).toBe(409);
      // Made in the calendar after the last sync: only the last check sees it.
      google.putEvent(danaCalendar, busyEvent('phone2', '2027-03-25 11:00', '2027-03-25 12:00'));
      const taken = await book(p.token, '2027-03-25 11:00');
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'slot_taken' });
      expect(await db.select().from(appointments)).toEqual([]);
    });

    it.each(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded'])(
      'reads a 403 %s as a wait (state error, not no_access), and still asks at the last check',
      async (reason) => {
        await sync();
        limitedReason = reason;
        now += 6 * MINUTE; // the poll is due
        await sync();
        const row = await syncRow();
        expect(row).toMatchObject({ state: 'error' });
        expect(row?.lastError).toContain(reason);
        // A phone booking the mirror has not seen: only the last check finds it.
        google.putEvent(danaCalendar, busyEvent('phone2', '2027-03-25 11:00', '2027-03-25 12:00'));
        const p = await patient();
        const taken = await book(p.token, '2027-03-25 11:00');
        expect(taken.statusCode, taken.body).toBe(409);
        expect(taken.json()).toMatchObject({ code: 'slot_taken' });
      },
    );

    it('books on the mirror when Google does not answer the last check in time, then reads the calendar again and raises the overlap', async () => {
      await sync();
      freeBusySilent = true;
      // A phone booking made after the last pass: neither the mirror nor (silent) the last check sees it.
      google.putEvent(danaCalendar, busyEvent('phone2', '2027-03-25 11:00', '2027-03-25 12:00'));
      const p = await patient();
      const response = await book(p.token, '2027-03-25 11:00');
      expect(response.statusCode, response.body).toBe(201);
      const id = response.json<{ id: number }>().id;
      // Due again within seconds, not at the 5-minute poll.
      expect((await syncRow())?.nextSyncAt.getTime()).toBeLessThanOrEqual(now + 5_000);
      now += 5_000;
      await sync();
      const listed = (await integration('GET', '/calendar-sync/conflicts')).json<
        { appointment_id: number; kind: string; event_id: string }[]
      >();
      expect(listed.map((c) => [c.appointment_id, c.kind, c.event_id])).toEqual([
        [id, 'overlap', 'phone2'],
      ]);
    });

    it('says read_only for a calendar shared without "Make changes to events", still reads it, and writes once it is shared right', async () => {
      const receiver = await startLoopback(() => ({ status: 204 }));
      try {
        await integration('POST', '/webhooks', {
          url: receiver.url('/hook'),
          events: ['calendar.sync_failed'],
        });
        // Read-only from the first pass: Google's list says accessRole 'reader'.
        google.share(danaCalendar, 'reader');
        google.putEvent(danaCalendar, busyEvent('phone1', '2027-03-25 09:00', '2027-03-25 10:00'));
        await sync();
        expect(await syncRow()).toMatchObject({
          state: 'read_only',
          lastError: expect.stringContaining('Make changes to events'),
        });
        expect(await slotsOn('2027-03-25')).not.toContain('09:00');
        const p = await patient();
        const booked = await book(p.token, '2027-03-25 11:00');
        expect(booked.statusCode, booked.body).toBe(201);
        await app.outbox.runOnce();
        expect(written()).toEqual([]);
        const shown = await integration('GET', '/calendar-sync');
        expect(shown.json().caregivers[0]).toMatchObject({ state: 'read_only' });
        // Shared right: the next pass says so, and the write goes on its next try.
        google.share(danaCalendar, true);
        now += 6 * MINUTE;
        await sync();
        expect(await syncRow()).toMatchObject({ state: 'syncing', lastError: null });
        now += 2 * HOUR;
        await app.outbox.runOnce();
        expect(written()).toHaveLength(1);
        // Made read-only between passes: the refused write says it at once.
        google.share(danaCalendar, 'reader');
        const second = await book((await patient()).token, '2027-03-25 13:00');
        expect(second.statusCode, second.body).toBe(201);
        await app.outbox.runOnce();
        expect(await syncRow()).toMatchObject({ state: 'read_only' });
        await app.outbox.runOnce();
        const states = receiver.requests.map(
          (r) => (JSON.parse(r.body) as { data: { state: string } }).data.state,
        );
        expect(states).toEqual(['read_only', 'read_only']);
      } finally {
        google.share(danaCalendar, true);
        await receiver.close();
      }
    });

    it('takes a freeBusy `errors` entry for the calendar as no answer, never as free', async () => {
      await sync();
      google.putEvent(danaCalendar, busyEvent('phone2', '2027-03-25 11:00', '2027-03-25 12:00'));
      limitedFreeBusy = true;
      const p = await patient();
      const response = await book(p.token, '2027-03-25 11:00');
      expect(response.statusCode, response.body).toBe(201);
      now += 5_000;
      await sync();
      const listed = (await integration('GET', '/calendar-sync/conflicts')).json<
        { kind: string; event_id: string }[]
      >();
      expect(listed.map((c) => [c.kind, c.event_id])).toEqual([['overlap', 'phone2']]);
    });

    it('writes the booking into the calendar once, moves it with a reschedule, deletes it on cancel', async () => {
      await sync();
      const p = await patient();
      const booked = await book(p.token, '2027-03-25 11:00');
      expect(booked.statusCode, booked.body).toBe(201);
      const id = booked.json<{ id: number }>().id;
      // The first try fails, the retry writes it: one event, under the appointment's own id.
      down = 1;
      await app.outbox.runOnce();
      now += 2 * 1000;
      await app.outbox.runOnce();
      expect(written()).toHaveLength(1);
      const [event] = written();
      expect(event).toMatchObject({
        id: marpeEventId(id),
        status: 'confirmed',
        start: { dateTime: iso('2027-03-25 11:00'), timeZone: TZ },
        end: { dateTime: iso('2027-03-25 11:30'), timeZone: TZ },
        extendedProperties: { private: { marpeAppointmentId: String(id) } },
      });
      expect(JSON.stringify(event)).not.toContain(p.idNumber);
      // Another write of the same state (a retry whose answer was lost) makes no second event.
      await app.calendarSync.write(id);
      expect(written()).toHaveLength(1);
      // Marpe's own event does not block twice: the slot is the appointment's, nothing else.
      await sync();
      expect(await slotsOn('2027-03-25')).toContain('11:30');

      const xsrf = await xsrfPair(app);
      const moved = await app.inject({
        method: 'POST',
        url: `/api/appointment/patient-appointments/${id}/reschedule`,
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(p.token) },
        payload: {
          clinicId,
          caregiverId: dana,
          appointmentTypeId: checkup,
          startDate: iso('2027-03-25 11:30'),
          endDate: iso('2027-03-25 12:00'),
        },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await app.outbox.runOnce();
      expect(written()).toHaveLength(1);
      expect(written()[0]?.start?.dateTime).toBe(iso('2027-03-25 11:30'));

      const cancelled = await app.inject({
        method: 'PUT',
        url: '/api/appointment/patient-appointments',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(p.token) },
        payload: { appointmentId: id },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      await app.outbox.runOnce();
      expect(written()[0]?.status).toBe('cancelled');
      // Deleting it ourselves is no conflict.
      await sync();
      expect((await integration('GET', '/calendar-sync/conflicts')).json()).toEqual([]);
    });

    it('reports a deleted event and an event over a booking as conflicts, never cancelling', async () => {
      await sync();
      const p = await patient();
      const id = (await book(p.token, '2027-03-25 11:00')).json<{ id: number }>().id;
      const p2 = await patient();
      const id2 = (await book(p2.token, '2027-03-25 13:00')).json<{ id: number }>().id;
      await app.outbox.runOnce();
      const receiver = await startLoopback(() => ({ status: 204 }));
      try {
        await integration('POST', '/webhooks', {
          url: receiver.url('/hook'),
          events: ['appointment.calendar_conflict'],
        });
        google.deleteEvent(danaCalendar, marpeEventId(id));
        google.putEvent(danaCalendar, busyEvent('lunch', '2027-03-25 13:00', '2027-03-25 14:00'));
        now += 6 * MINUTE;
        await sync();
        // Seen again on the next full pass: reported once.
        google.expireSyncTokens();
        now += 6 * MINUTE;
        await sync();
        const listed = (await integration('GET', '/calendar-sync/conflicts')).json<
          { appointment_id: number; kind: string; event_id: string }[]
        >();
        expect(listed.map((c) => [c.appointment_id, c.kind, c.event_id]).sort()).toEqual(
          [
            [id, 'event_deleted', marpeEventId(id)],
            [id2, 'overlap', 'lunch'],
          ].sort(),
        );
        await app.outbox.runOnce();
        const events = receiver.requests.map(
          (r) =>
            JSON.parse(r.body) as {
              type: string;
              data: { id: number; status: string; conflict: { kind: string } };
            },
        );
        expect(events.map((e) => [e.type, e.data.id, e.data.conflict.kind]).sort()).toEqual(
          [
            ['appointment.calendar_conflict', id, 'event_deleted'],
            ['appointment.calendar_conflict', id2, 'overlap'],
          ].sort(),
        );
        expect(events.every((e) => e.data.status === 'booked')).toBe(true);
      } finally {
        await receiver.close();
      }
    });

    it('books and serves slots while Google is down; the event is written once it is back', async () => {
      await sync();
      down = 1000;
      const p = await patient();
      const response = await book(p.token, '2027-03-25 11:00');
      expect(response.statusCode, response.body).toBe(201);
      await app.outbox.runOnce();
      expect(written()).toEqual([]);
      down = 0;
      now += 60 * MINUTE;
      await app.outbox.runOnce();
      expect(written()).toHaveLength(1);
    });
  });

  it('publishes an opaque calendar id, never the calendar’s address', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/clinic/${clinicId}` });
    expect(response.body).not.toContain(danaCalendar);
    expect(response.body).toContain(`marpe:caregiver:${dana}`);
  });
});
