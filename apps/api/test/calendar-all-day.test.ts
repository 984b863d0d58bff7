import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClinicBusyTime, IntegrationClinic, Slot } from '@marpe/shared';
import type { App } from '../src/app.js';
import {
  createGoogleStandIn,
  type GoogleStandIn,
  type StandInEvent,
} from '../src/modules/calendar-sync/providers/google/google-standin.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointmentTypes,
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

// The clinic setting `calendar_all_day_events_block` (docs/calendar-sync.md, "What blocks a
// slot"): all-day events block their days even when "Free" (Google's default for all-day) unless
// the clinic turns it off; then only a Busy one does. Applied when slots are read, so a change
// holds for events already mirrored, without reading the calendar again.

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const SERVICE_ACCOUNT = 'marpe-sync@clinic-project.iam.gserviceaccount.com';
const FIELD = 'settings.calendar_all_day_events_block';

const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);
/** An all-day event of one date, as Google Calendar's UI makes it ("Free") unless `extra` says. */
const allDay = (id: string, date: string, extra: Partial<StandInEvent> = {}): StandInEvent => {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    id,
    status: 'confirmed',
    transparency: 'transparent',
    start: { date },
    end: { date: next },
    ...extra,
  };
};

describe.each(engines)('all-day calendar events and the clinic setting (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let google: GoogleStandIn;
  let fake: Loopback;
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicId = 0;
  let dana = 0;
  let checkup = 0;
  let key = '';
  let calendar = '';
  let calendars = 0;

  beforeAll(async () => {
    google = createGoogleStandIn({ clientEmail: SERVICE_ACCOUNT, publicKey: keys.publicKey });
    fake = await startStandInLoopback(google);
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        PUBLIC_ORIGIN: 'https://marpe.example',
        GOOGLE_SERVICE_ACCOUNT_KEY: JSON.stringify({
          type: 'service_account',
          client_email: SERVICE_ACCOUNT,
          private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          private_key_id: 'k1',
        }),
        GOOGLE_CALENDAR_API_BASE_URL: `${fake.origin}/calendar/v3`,
        GOOGLE_OAUTH_TOKEN_URL: `${fake.origin}/token`,
        GOOGLE_SERVICE_ACCOUNT_CLINICS: '1',
      }),
      clock: () => now,
      outboxPollIntervalMs: 3_600_000,
      calendarSyncTickMs: 3_600_000,
    });
    await app.ready();
    db = database.current.handle.db;
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  beforeEach(async () => {
    now = NOW;
    calendars += 1;
    // A new calendar each test: no event, channel or sync token outlives its test.
    calendar = `dana-all-day${calendars}@clinic.example`;
    await database.current.reset();
    const [clinic] = await db.insert(clinics).values(clinicRow('מרפאת היומן')).returning();
    clinicId = clinic?.id ?? 0;
    const [type] = await db
      .insert(appointmentTypes)
      .values({ clinicId, name: 'בדיקה', durationMinutes: 30 })
      .returning();
    checkup = type?.id ?? 0;
    const [caregiver] = await db
      .insert(caregivers)
      .values({
        clinicId,
        name: 'ד"ר דנה',
        licenseNumber: '1-1',
        googleCalendarSyncCalendarId: calendar,
        slotStepMinutes: 30,
        minNoticeMinutes: 60,
        bookingHorizonDays: 30,
      })
      .returning();
    dana = caregiver?.id ?? 0;
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
    google.addCalendar(calendar);
  });

  const sync = () => app.calendarSync.runOnce();
  const integration = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const setBlocking = async (value: boolean) => {
    const response = await integration('PATCH', '/clinic', {
      settings: { calendar_all_day_events_block: value },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationClinic>();
  };
  const slotsOn = async (date: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-slots?clinicId=${clinicId}&caregiverId=${dana}&duration=30&startDate=${date}%2000:00&endDate=${date}%2023:59`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Slot[]>().map((s) => s.start.slice(11, 16));
  };
  const calendarBusy = async () => {
    const response = await integration(
      'GET',
      `/busy-times?from=${encodeURIComponent(iso('2027-03-25 00:00'))}&to=${encodeURIComponent(iso('2027-04-05 00:00'))}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<ClinicBusyTime[]>()
      .filter((b) => b.source === 'calendar')
      .map((b) => b.start.slice(0, 10));
  };
  const book = async (local: string) => {
    const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    if (!patient) throw new Error('no patient');
    const xsrf = await xsrfPair(app);
    return app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient.token) },
      payload: {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso(local),
        endDate: formatZonedIso(at(local) + 30 * MINUTE, TZ),
      },
    });
  };

  it('blocks a "Free" all-day event by default, and says the setting is on', async () => {
    expect((await integration('GET', '/clinic')).json<IntegrationClinic>().settings).toMatchObject({
      calendar_all_day_events_block: true,
    });
    google.putEvent(calendar, allDay('dayoff', '2027-03-28'));
    await sync();
    expect(await slotsOn('2027-03-28')).toEqual([]);
    expect(await calendarBusy()).toEqual(['2027-03-28']);
    const refused = await book('2027-03-28 09:00');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'slot_taken' });
  });

  it('turned off: a "Free" all-day event blocks nothing, a Busy one still does, at once for what is mirrored', async () => {
    google.putEvent(calendar, allDay('dayoff', '2027-03-28'));
    google.putEvent(calendar, allDay('congress', '2027-03-29', { transparency: 'opaque' }));
    // Never busy, whatever the setting: cancelled, declined, a working location, a birthday.
    google.putEvent(calendar, allDay('called-off', '2027-03-30', { transparency: 'opaque' }));
    google.deleteEvent(calendar, 'called-off');
    google.putEvent(
      calendar,
      allDay('declined', '2027-03-30', {
        transparency: 'opaque',
        attendees: [{ self: true, responseStatus: 'declined' }],
      }),
    );
    google.putEvent(calendar, allDay('office', '2027-03-31', { eventType: 'workingLocation' }));
    google.putEvent(calendar, allDay('birthday', '2027-03-31', { eventType: 'birthday' }));
    await sync();
    expect(await slotsOn('2027-03-28')).toEqual([]);
    expect(await calendarBusy()).toEqual(['2027-03-28', '2027-03-29']);

    // No pass of the calendar between the change and the reads below.
    const changed = await setBlocking(false);
    expect(changed.settings.calendar_all_day_events_block).toBe(false);
    expect((await integration('GET', '/clinic')).json<IntegrationClinic>().settings).toMatchObject({
      calendar_all_day_events_block: false,
    });
    expect((await slotsOn('2027-03-28'))[0]).toBe('08:00');
    expect(await slotsOn('2027-03-29')).toEqual([]);
    for (const date of ['2027-03-30', '2027-03-31']) {
      expect((await slotsOn(date))[0], date).toBe('08:00');
    }
    expect(await calendarBusy()).toEqual(['2027-03-29']);
    const booked = await book('2027-03-28 09:00');
    expect(booked.statusCode, booked.body).toBe(201);
    expect((await book('2027-03-29 09:00')).statusCode).toBe(409);

    // Events read after the change follow it too, and so does turning it back on.
    google.putEvent(calendar, allDay('holiday', '2027-04-01'));
    now += 6 * MINUTE;
    await sync();
    expect((await slotsOn('2027-04-01'))[0]).toBe('08:00');
    await setBlocking(true);
    expect(await slotsOn('2027-04-01')).toEqual([]);
    expect(await slotsOn('2027-03-28')).not.toContain('10:00');
  });

  it('reports a "Free" all-day event over a booking as a conflict only while such events block', async () => {
    await sync();
    const first = await book('2027-03-28 09:00');
    expect(first.statusCode, first.body).toBe(201);
    const second = await book('2027-03-29 09:00');
    expect(second.statusCode, second.body).toBe(201);
    await app.outbox.runOnce();
    google.putEvent(calendar, allDay('dayoff', '2027-03-28'));
    now += 6 * MINUTE;
    await sync();
    await setBlocking(false);
    google.putEvent(calendar, allDay('holiday', '2027-03-29'));
    now += 6 * MINUTE;
    await sync();
    const conflicts = (await integration('GET', '/calendar-sync/conflicts')).json<
      { appointment_id: number; kind: string; event_id: string }[]
    >();
    expect(conflicts.map((c) => [c.appointment_id, c.kind, c.event_id])).toEqual([
      [first.json<{ id: number }>().id, 'overlap', 'dayoff'],
    ]);
  });

  it('refuses a setting that is not true or false, naming it, and changes nothing', async () => {
    for (const value of ['false', 0, null]) {
      const response = await integration('PATCH', '/clinic', {
        settings: { calendar_all_day_events_block: value },
      });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ code: string; details?: { issues?: { path: string }[] } }>();
      expect(body.code).toBe('validation_failed');
      expect(body.details?.issues?.map((i) => i.path)).toContain(FIELD);
    }
    expect((await integration('GET', '/clinic')).json<IntegrationClinic>().settings).toMatchObject({
      calendar_all_day_events_block: true,
    });
  });
});
