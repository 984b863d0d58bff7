import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarFeedCreated, CalendarFeedState, IntegrationClinic } from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { appointments, clinics, patients } from '../src/platform/db/schema.js';
import { zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow, insertCaregiver, insertTypes } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase } from './helper.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = 'https://marpe.example';

/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const at = (local: string) => zonedToEpoch(local, TZ);

interface FeedEvent {
  uid: string;
  summary: string;
  description: string;
  start: number;
  end: number;
}

/** Parses the feed as a calendar app would (ical.js, RFC 5545). */
function parseFeed(text: string): { name: unknown; events: FeedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    name: calendar.getFirstPropertyValue('x-wr-calname'),
    events: calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        summary: event.summary,
        description: event.description,
        start: event.startDate.toJSDate().getTime(),
        end: event.endDate.toJSDate().getTime(),
      };
    }),
  };
}

describe.each(engines)('calendar feed (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let clinicId: number;
  let key: string;
  let otherKey: string;
  let dana: number;
  let noa: number;
  let patientId: number;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (
    apiKey: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: { authorization: `Bearer ${apiKey}` },
    });

  async function insertAppointment(
    caregiverId: number,
    typeId: number,
    local: string,
    extra: Partial<typeof appointments.$inferInsert> = {},
  ) {
    const start = at(local);
    await db.insert(appointments).values({
      clinicId,
      caregiverId,
      appointmentTypeId: typeId,
      patientId,
      startAt: new Date(start),
      endAt: new Date(start + 30 * MINUTE),
      localDate: local.slice(0, 10),
      ...extra,
    });
  }

  beforeEach(async () => {
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת היומן'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    key = (await app.apiKeys.create(main.id, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(other.id, 'pms', 'test')).key;
    const [checkup] = await insertTypes(db, [
      { clinicId, name: 'בדיקה תקופתית', durationMinutes: 30 },
    ]);
    const base = { clinicId, typeIds: [checkup], hours: [] };
    dana = await insertCaregiver(db, { ...base, name: 'ד"ר דנה', licenseNumber: '1' });
    noa = await insertCaregiver(db, { ...base, name: 'ד"ר נועה', licenseNumber: '2' });
    const [patient] = await db
      .insert(patients)
      .values({
        clinicId,
        idNumber: '039845128',
        firstName: 'דנה',
        lastName: 'לוי',
        phone: '0501234567',
      })
      .returning({ id: patients.id });
    if (!patient) throw new Error('fixture: patient');
    patientId = patient.id;
    await insertAppointment(dana, checkup, '2027-03-25 09:00');
    await insertAppointment(dana, checkup, '2027-03-26 11:00', { source: 'clinic' });
    await insertAppointment(dana, checkup, '2027-03-20 09:00');
    // Not in the feed: cancelled, over a week ago, another caregiver's.
    await insertAppointment(dana, checkup, '2027-03-29 09:00', {
      status: 'cancelled',
      cancelledAt: new Date(NOW),
    });
    await insertAppointment(dana, checkup, '2027-03-10 09:00');
    await insertAppointment(noa, checkup, '2027-03-30 10:00');
  });

  async function createFeed(caregiverId = dana): Promise<CalendarFeedCreated> {
    const response = await call(key, 'POST', `/caregivers/${caregiverId}/calendar-feed`);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json();
  }

  const fetchFeed = (url: string) => app.inject({ method: 'GET', url: url.slice(ORIGIN.length) });

  it("serves the caregiver's booked appointments from a week ago on, as RFC 5545", async () => {
    const feed = await createFeed();
    expect(feed.url).toMatch(
      /^https:\/\/marpe\.example\/api\/calendar-feed\/[A-Za-z0-9_-]{43}\.ics$/,
    );
    const response = await fetchFeed(feed.url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(response.body).not.toContain('039845128');

    const { name, events } = parseFeed(response.body);
    expect(name).toBe('ד"ר דנה – מרפאת היומן');
    expect(events.map((e) => [e.uid, e.start, e.end])).toEqual([
      [
        expect.stringMatching(/^appointment-\d+@marpe\.example$/),
        at('2027-03-20 09:00'),
        at('2027-03-20 09:30'),
      ],
      [expect.any(String), at('2027-03-25 09:00'), at('2027-03-25 09:30')],
      [expect.any(String), at('2027-03-26 11:00'), at('2027-03-26 11:30')],
    ]);
    expect(events[1]).toMatchObject({
      summary: 'בדיקה תקופתית – דנה לוי',
      description:
        'מטופל/ת: דנה לוי\nטלפון: 050-1234567\nסוג התור: בדיקה תקופתית\nנקבע באינטרנט דרך מרפא',
    });
    expect(events[2]?.description).toContain('נקבע על ידי המרפאה דרך מרפא');

    const state = await call(key, 'GET', `/caregivers/${dana}/calendar-feed`);
    expect(state.json<CalendarFeedState>()).toEqual({
      caregiver_id: dana,
      active: true,
      created_at: new Date(NOW).toISOString(),
    });
    expect(state.body).not.toContain(feed.url.slice(-20));
  });

  it("follows the clinic's calendar_event_detail setting", async () => {
    const feed = await createFeed();
    const setDetail = async (detail: unknown) =>
      call(key, 'PATCH', '/clinic', { settings: { calendar_event_detail: detail } });

    expect((await call(key, 'GET', '/clinic')).json<IntegrationClinic>().settings).toMatchObject({
      calendar_event_detail: 'full',
    });
    const initials = await setDetail('initials');
    expect(initials.statusCode, initials.body).toBe(200);
    expect(initials.json<IntegrationClinic>().settings.calendar_event_detail).toBe('initials');
    let events = parseFeed((await fetchFeed(feed.url)).body).events;
    expect(events[1]).toMatchObject({
      summary: 'בדיקה תקופתית – ד.ל.',
      description: 'סוג התור: בדיקה תקופתית\nנקבע באינטרנט דרך מרפא',
    });

    expect((await setDetail('minimal')).statusCode).toBe(200);
    const minimal = (await fetchFeed(feed.url)).body;
    events = parseFeed(minimal).events;
    expect(events.map((e) => e.summary)).toEqual(['תור (מרפא)', 'תור (מרפא)', 'תור (מרפא)']);
    for (const secret of ['דנה לוי', '050', 'בדיקה']) expect(minimal).not.toContain(secret);

    const bad = await setDetail('everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ details: { issues: { path: string }[] } }>().details.issues[0]?.path).toBe(
      'settings.calendar_event_detail',
    );
  });

  it('rotates: the earlier URL is 404 at once; revoking ends the new one too', async () => {
    const first = await createFeed();
    const second = await createFeed();
    expect(second.url).not.toBe(first.url);
    expect((await fetchFeed(first.url)).statusCode).toBe(404);
    expect((await fetchFeed(second.url)).statusCode).toBe(200);

    // Another clinic's key cannot touch it.
    expect((await call(otherKey, 'DELETE', `/caregivers/${dana}/calendar-feed`)).statusCode).toBe(
      404,
    );
    expect((await call(otherKey, 'POST', `/caregivers/${dana}/calendar-feed`)).statusCode).toBe(
      404,
    );
    expect((await fetchFeed(second.url)).statusCode).toBe(200);

    expect((await call(key, 'DELETE', `/caregivers/${dana}/calendar-feed`)).statusCode).toBe(204);
    const gone = await fetchFeed(second.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['cache-control']).toBe('private, no-store');
    expect(
      (await call(key, 'GET', `/caregivers/${dana}/calendar-feed`)).json<CalendarFeedState>(),
    ).toEqual({ caregiver_id: dana, active: false, created_at: null });
    // Revoking again is fine.
    expect((await call(key, 'DELETE', `/caregivers/${dana}/calendar-feed`)).statusCode).toBe(204);

    // Each caregiver has a feed of its own.
    const noaFeed = parseFeed((await fetchFeed((await createFeed(noa)).url)).body);
    expect(noaFeed.events.map((e) => e.start)).toEqual([at('2027-03-30 10:00')]);
  });

  it('answers 404 for unknown and malformed tokens', async () => {
    await createFeed();
    for (const path of [
      `/api/calendar-feed/${'A'.repeat(43)}.ics`,
      '/api/calendar-feed/short.ics',
      `/api/calendar-feed/${'x'.repeat(80)}.ics`,
    ]) {
      const response = await app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
    }
  });
});
