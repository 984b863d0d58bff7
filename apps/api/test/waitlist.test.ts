// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DevMessage, IntegrationWaitlistRow, WaitlistEntry } from '@marpe/shared';
import type { App } from '../src/app.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import type { Database } from '../src/platform/db/client.js';
import { appointmentTypes, clinics, waitlistEntries } from '../src/platform/db/schema.js';
import { insertCaregiver, insertClinics, insertTypes } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertLoggedInPatients, insertSessions, type TestPatient } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = testConfig().publicOrigin;

/** Wednesday 2027-03-24, 10:00 in Israel. Sunday 2027-03-28 is the caregiver's working day. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

const at = (local: string) => zonedToEpoch(local, TZ);
function slot(local: string, minutes = 30) {
  const start = at(local);
  return {
    startDate: formatZonedIso(start, TZ),
    endDate: formatZonedIso(start + minutes * MINUTE, TZ),
  };
}

interface Fixture {
  clinicId: number;
  otherClinicId: number;
  /** Sundays 09:00–10:00 and 13:00–13:30 only: three 30-minute slots a week. */
  dana: number;
  stranger: number;
  checkup: number;
  /** Not offered by Dana. */
  rootCanal: number;
  otherKey: string;
  key: string;
}

describe.each(engines)('waitlist (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = NOW;
  let f: Fixture;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      // The tests run the outbox themselves.
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  async function insertFixture(): Promise<Fixture> {
    const [main, other] = await insertClinics(db, ['מרפאת הבדיקות', 'מרפאה אחרת']);
    // The messages here are the offers: the notices of the cancellations and moves that free the
    // times are change-notices.test.ts's.
    await db.update(clinics).set({ notifyCancelled: false, notifyMoved: false });
    const [checkup, rootCanal, otherType] = await insertTypes(db, [
      { clinicId: main, name: 'בדיקה תקופתית', durationMinutes: 30 },
      { clinicId: main, name: 'טיפול שורש', durationMinutes: 60 },
      { clinicId: other, name: 'בדיקה', durationMinutes: 30 },
    ]);
    const dana = await insertCaregiver(db, {
      clinicId: main,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      typeIds: [checkup],
      hours: [
        { weekDay: 0, startTime: '09:00', endTime: '10:00' },
        { weekDay: 0, startTime: '13:00', endTime: '13:30' },
      ],
    });
    const stranger = await insertCaregiver(db, {
      clinicId: other,
      name: 'Stranger',
      licenseNumber: '1-2',
      typeIds: [otherType],
      hours: [{ weekDay: 0, startTime: '09:00', endTime: '10:00' }],
    });
    const key = (await app.apiKeys.create(main, 'pms', 'test')).key;
    const otherKey = (await app.apiKeys.create(other, 'pms', 'test')).key;
    return {
      clinicId: main,
      otherClinicId: other,
      dana,
      stranger,
      checkup,
      rootCanal,
      key,
      otherKey,
    };
  }

  let sentBefore = 0;
  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    f = await insertFixture();
    sentBefore = (await allMessages()).length;
  });

  /** Works the outbox until nothing due is left (an offer run queues its messages). */
  async function runOutbox() {
    while ((await app.messaging.runOutbox()) > 0);
  }
  async function allMessages(): Promise<DevMessage[]> {
    await runOutbox();
    return (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json();
  }
  /** Messages sent since the last call (or the test's start), oldest first. */
  async function newMessages(): Promise<DevMessage[]> {
    const all = await allMessages();
    const fresh = all.slice(0, all.length - sentBefore).reverse();
    sentBefore = all.length;
    return fresh;
  }

  /** A new session now (sessions last 12 hours; some tests move days ahead). */
  async function relogin(patient: TestPatient | undefined): Promise<string> {
    if (!patient) throw new Error('no patient');
    const [token] = await insertSessions(db, [patient.id], now);
    return token as string;
  }

  const patientsOf = (count: number, clinicId = f.clinicId) =>
    insertLoggedInPatients(db, { clinicId, count, now });
  async function onePatient(): Promise<TestPatient> {
    const [patient] = await patientsOf(1);
    if (!patient) throw new Error('no patient');
    return patient;
  }

  const write = (
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string | null,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      payload,
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...(token ? bearer(token) : {}), ...headers },
    });

  const joinBody = (overrides: Record<string, unknown> = {}) => ({
    clinicId: f.clinicId,
    caregiverId: f.dana,
    appointmentTypeId: f.checkup,
    fromDate: '2027-03-28',
    toDate: '2027-03-30',
    partOfDay: 'any',
    ...overrides,
  });
  const join = (
    token: string,
    overrides: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => write('POST', '/api/waitlist', token, joinBody(overrides), headers);
  const list = async (token: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/waitlist',
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<WaitlistEntry[]>();
  };
  const leave = (token: string, id: unknown) => write('DELETE', `/api/waitlist/${id}`, token);
  const book = (token: string, local: string) =>
    write('POST', '/api/appointment', token, {
      clinicId: f.clinicId,
      caregiverId: f.dana,
      appointmentTypeId: f.checkup,
      ...slot(local),
    });
  async function booked(token: string, local: string): Promise<number> {
    const response = await book(token, local);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  }
  const cancel = (token: string, appointmentId: number) =>
    write('PUT', '/api/appointment/patient-appointments', token, { appointmentId });
  const integration = (
    key: string | null,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });

  const expectInvalid = (response: Awaited<ReturnType<typeof join>>, field: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((i) => i.path)).toContain(field);
  };

  /** Patients who joined one after another, a minute apart (the order of the queue). */
  async function waiting(
    count: number,
    overrides: Record<string, unknown> = {},
    firstInEnglish = false,
  ) {
    const patients = await patientsOf(count);
    for (const [i, patient] of patients.entries()) {
      now += MINUTE;
      const response = await join(
        patient.token,
        overrides,
        i === 0 && firstInEnglish ? { 'accept-language': 'en' } : {},
      );
      expect(response.statusCode, response.body).toBe(201);
    }
    return patients;
  }

  /** Sunday 2027-03-28 fully booked; the appointments' ids and their patients. */
  async function fullSunday() {
    const bookers = await patientsOf(3);
    const ids: number[] = [];
    for (const [i, local] of [
      '2027-03-28 09:00',
      '2027-03-28 09:30',
      '2027-03-28 13:00',
    ].entries()) {
      ids.push(await booked((bookers[i] as TestPatient).token, local));
    }
    return { bookers, ids };
  }

  const hebrewOffer = (date: string, time: string) =>
    [
      'התפנה תור במרפאת הבדיקות:',
      'בדיקה תקופתית עם ד"ר דנה',
      `בתאריך ${date.split('-').reverse().join('/')} בשעה ${time}`,
      `לקביעה (התור של מי שקובע ראשון): ${ORIGIN}/booking/${f.clinicId}?caregiverId=${f.dana}&appointmentTypeId=${f.checkup}&date=${date}&time=${time}`,
    ].join('\n');

  describe('join, list and leave', () => {
    it('joins, lists with names, finds a repeated join, and leaves', async () => {
      const patient = await onePatient();
      const joined = await join(patient.token);
      expect(joined.statusCode, joined.body).toBe(201);
      const entry = joined.json<WaitlistEntry>();
      expect(entry).toEqual({
        id: expect.any(Number),
        caregiver_id: f.dana,
        appointment_type_id: f.checkup,
        caregiver_name: 'ד"ר דנה',
        type_name: 'בדיקה תקופתית',
        from_date: '2027-03-28',
        to_date: '2027-03-30',
        part_of_day: 'any',
        joined_at: new Date(NOW).toISOString(),
      });
      const again = await join(patient.token);
      expect(again.statusCode).toBe(200);
      expect(again.json<WaitlistEntry>().id).toBe(entry.id);
      expect(await list(patient.token)).toEqual([entry]);

      const other = await onePatient();
      expect(await list(other.token)).toEqual([]);
      expect((await leave(other.token, entry.id)).json()).toMatchObject({
        code: 'waitlist_entry_not_found',
      });
      const left = await leave(patient.token, entry.id);
      expect(left.statusCode, left.body).toBe(200);
      expect(await list(patient.token)).toEqual([]);
      expect((await leave(patient.token, entry.id)).statusCode).toBe(404);
      expect((await leave(patient.token, 99_999_999_999)).statusCode).toBe(400);
    });

    it('answers 400 naming the field for bad ranges and parts of day', async () => {
      const { token } = await onePatient();
      expectInvalid(await join(token, { toDate: '2027-03-27' }), 'toDate');
      expectInvalid(await join(token, { fromDate: '2027-03-25', toDate: '2027-04-08' }), 'toDate');
      expectInvalid(await join(token, { fromDate: '2027-03-23' }), 'fromDate');
      expectInvalid(await join(token, { fromDate: '2027-02-30' }), 'fromDate');
      expectInvalid(await join(token, { partOfDay: 'evening' }), 'partOfDay');
      // Fourteen days, both ends counted, from today: fine.
      expect((await join(token, { fromDate: '2027-03-24', toDate: '2027-04-06' })).statusCode).toBe(
        201,
      );
    });

    it('answers 404 for unknown caregivers and types not offered, 403 for another clinic', async () => {
      const { token } = await onePatient();
      expect((await join(token, { caregiverId: 9999 })).json()).toMatchObject({
        code: 'caregiver_not_found',
      });
      expect((await join(token, { caregiverId: f.stranger })).statusCode).toBe(404);
      const notOffered = await join(token, { appointmentTypeId: f.rootCanal });
      expect(notOffered.statusCode).toBe(404);
      expect(notOffered.json()).toMatchObject({ code: 'appointment_type_not_found' });
      expect((await join(token, { clinicId: f.otherClinicId })).statusCode).toBe(403);
    });

    it('answers 401 without a session and 403 without the anti-forgery header', async () => {
      expect((await write('POST', '/api/waitlist', null, joinBody())).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/waitlist' })).statusCode).toBe(401);
      const { token } = await onePatient();
      const noXsrf = await app.inject({
        method: 'POST',
        url: '/api/waitlist',
        payload: joinBody(),
        headers: bearer(token),
      });
      expect(noXsrf.statusCode).toBe(403);
    });

    it('holds 3 active entries per patient (expired ones not counted) and 10 joins a day', async () => {
      const patient = await onePatient();
      let { token } = patient;
      for (const partOfDay of ['any', 'morning', 'afternoon']) {
        expect((await join(token, { partOfDay })).statusCode).toBe(201);
      }
      const full = await join(token, { toDate: '2027-03-29' });
      expect(full.statusCode).toBe(409);
      expect(full.json()).toMatchObject({ code: 'waitlist_full', details: { max: 3 } });

      // Past their last date the entries are expired: not listed, not counted.
      now = Date.parse('2027-03-31T08:00:00+03:00');
      token = await relogin(patient);
      expect(await list(token)).toEqual([]);
      const fresh = (n: number) => ({
        fromDate: '2027-04-01',
        toDate: `2027-04-${String(n).padStart(2, '0')}`,
      });
      for (const n of [1, 2, 3]) expect((await join(token, fresh(n))).statusCode).toBe(201);
      // Leaving and joining again cannot loop: 10 joins a day.
      for (let i = 0; i < 7; i++) {
        const [first] = await list(token);
        expect((await leave(token, first?.id)).statusCode).toBe(200);
        expect((await join(token, fresh(i + 4))).statusCode).toBe(201);
      }
      const [first] = await list(token);
      await leave(token, first?.id);
      expect((await join(token, fresh(12))).statusCode).toBe(429);
    });
  });

  describe('offers', () => {
    it('offers a cancelled slot to the first 3 in join order, then the next ones after 30 minutes', async () => {
      const { bookers, ids } = await fullSunday();
      const queue = await waiting(5, {}, true);
      expect(await newMessages()).toEqual([]);

      expect((await cancel((bookers[0] as TestPatient).token, ids[0] as number)).statusCode).toBe(
        200,
      );
      const first = await newMessages();
      // Sent side by side by the outbox: who, not in which order.
      expect(first.map((m) => m.to).sort()).toEqual(queue.slice(0, 3).map((p) => p.phone));
      const bodyTo = (patient: TestPatient | undefined) =>
        first.find((m) => m.to === patient?.phone)?.body;
      // The first joined in English; the offers speak each patient's language.
      expect(bodyTo(queue[0])).toBe(
        [
          'A time freed up at מרפאת הבדיקות:',
          'בדיקה תקופתית with ד"ר דנה',
          'On 28/03/2027 at 09:00',
          `Book it here (first come, first served): ${ORIGIN}/booking/${f.clinicId}?caregiverId=${f.dana}&appointmentTypeId=${f.checkup}&date=2027-03-28&time=09:00`,
        ].join('\n'),
      );
      expect(bodyTo(queue[1])).toBe(hebrewOffer('2027-03-28', '09:00'));

      // Within the window nothing more goes out.
      now += 29 * MINUTE;
      expect(await newMessages()).toEqual([]);
      now += MINUTE;
      const next = await newMessages();
      expect(next.map((m) => m.to).sort()).toEqual(queue.slice(3).map((p) => p.phone));
      expect(next[0]?.body).toBe(hebrewOffer('2027-03-28', '09:00'));
      // No entry is offered the same slot twice.
      now += HOUR;
      expect(await newMessages()).toEqual([]);
    });

    it('marks the entry of the patient who books from an offer booked; the others find it taken', async () => {
      const { bookers, ids } = await fullSunday();
      const queue = await waiting(5);
      await cancel((bookers[0] as TestPatient).token, ids[0] as number);
      expect(await newMessages()).toHaveLength(3);

      const [w1, w2] = queue as [TestPatient, TestPatient];
      await booked(w2.token, '2027-03-28 09:00');
      expect(await list(w2.token)).toEqual([]);
      const [row] = await db
        .select({ status: waitlistEntries.status })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.patientId, w2.id));
      expect(row?.status).toBe('booked');
      expect((await book(w1.token, '2027-03-28 09:00')).json()).toMatchObject({
        code: 'slot_taken',
      });
      expect(await list(w1.token)).toHaveLength(1);
      // Taken: the next ones are offered nothing.
      now += HOUR;
      expect(await newMessages()).toEqual([]);
    });

    it('offers by part of day: a freed morning slot is not offered to an afternoon entry', async () => {
      const { bookers, ids } = await fullSunday();
      const [afternoon] = await waiting(1, { partOfDay: 'afternoon' });
      const [morning] = await waiting(1, { partOfDay: 'morning' });
      await cancel((bookers[1] as TestPatient).token, ids[1] as number);
      const sent = await newMessages();
      expect(sent.map((m) => m.to)).toEqual([morning?.phone]);
      expect(sent[0]?.body).toContain('09:30');
      await cancel((bookers[2] as TestPatient).token, ids[2] as number);
      expect((await newMessages()).map((m) => m.to)).toEqual([afternoon?.phone]);
    });

    it('never offers an expired entry, and neither lists nor counts it', async () => {
      const bookers = await patientsOf(1);
      const later = await booked((bookers[0] as TestPatient).token, '2027-04-04 09:00');
      const [short] = await waiting(1, { fromDate: '2027-03-28', toDate: '2027-03-28' });
      const [long] = await waiting(1, {
        fromDate: '2027-03-29',
        toDate: '2027-04-04',
        partOfDay: 'morning',
      });
      now = Date.parse('2027-03-29T10:00:00+03:00');
      expect(await list(await relogin(short))).toEqual([]);
      expect((await cancel(await relogin(bookers[0]), later)).statusCode).toBe(200);
      const sent = await newMessages();
      // The long entry's earliest morning slot: the freed one is the first in its range.
      expect(sent.map((m) => m.to)).toEqual([long?.phone]);
      expect(sent[0]?.body).toBe(hebrewOffer('2027-04-04', '09:00'));
      const summary = (await integration(f.key, 'GET', '/waitlist')).json<
        IntegrationWaitlistRow[]
      >();
      expect(summary).toEqual([
        { caregiver_id: f.dana, name: 'ד"ר דנה', waiting: 1, oldest_joined_at: expect.any(String) },
      ]);
    });

    it('offers the old slot of a moved appointment and of one the clinic cancels', async () => {
      // Two offers to one entry in a day: the clinic allows it.
      const setting = await integration(f.key, 'PATCH', '/clinic', {
        settings: { waitlist_offers_per_entry_per_day: 2 },
      });
      expect(setting.json()).toMatchObject({ settings: { waitlist_offers_per_entry_per_day: 2 } });
      const { bookers, ids } = await fullSunday();
      const [waiter] = await waiting(1);
      const moved = await write(
        'POST',
        `/api/appointment/patient-appointments/${ids[0]}/reschedule`,
        (bookers[0] as TestPatient).token,
        {
          clinicId: f.clinicId,
          caregiverId: f.dana,
          appointmentTypeId: f.checkup,
          ...slot('2027-04-04 09:00'),
        },
      );
      expect(moved.statusCode, moved.body).toBe(200);
      const sent = await newMessages();
      expect(sent.map((m) => m.to)).toEqual([waiter?.phone]);
      expect(sent[0]?.body).toBe(hebrewOffer('2027-03-28', '09:00'));

      now += HOUR;
      const cancelled = await integration(f.key, 'POST', `/appointments/${ids[1]}/cancel`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const again = await newMessages();
      expect(again.map((m) => m.body)).toEqual([hebrewOffer('2027-03-28', '09:30')]);
    });

    it('offers the time that was freed, not the earliest free one', async () => {
      const bookers = await patientsOf(2);
      await booked((bookers[0] as TestPatient).token, '2027-03-28 09:30');
      const afternoon = await booked((bookers[1] as TestPatient).token, '2027-03-28 13:00');
      const [waiter] = await waiting(1);
      // 09:00 has been free all along; 13:00 is what the cancellation frees.
      await cancel((bookers[1] as TestPatient).token, afternoon);
      const sent = await newMessages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [waiter?.phone, hebrewOffer('2027-03-28', '13:00')],
      ]);
    });

    it("outside the entry's dates: the nearest free time in them, said as such", async () => {
      const { bookers, ids } = await fullSunday();
      const [waiter] = await waiting(1, { fromDate: '2027-03-29', toDate: '2027-04-04' }, true);
      await cancel((bookers[2] as TestPatient).token, ids[2] as number);
      const sent = await newMessages();
      expect(sent.map((m) => m.to)).toEqual([waiter?.phone]);
      expect(sent[0]?.body).toBe(
        [
          'A time freed up at מרפאת הבדיקות (28/03/2027 at 13:00).',
          'The nearest free time in the dates you asked for:',
          'בדיקה תקופתית with ד"ר דנה',
          'On 04/04/2027 at 09:00',
          `Book it here (first come, first served): ${ORIGIN}/booking/${f.clinicId}?caregiverId=${f.dana}&appointmentTypeId=${f.checkup}&date=2027-04-04&time=09:00`,
        ].join('\n'),
      );
    });

    it("keeps the reminders' quiet hours: a cancellation at night is offered in the morning", async () => {
      const { bookers, ids } = await fullSunday();
      const [waiter] = await waiting(1);
      now = Date.parse('2027-03-24T22:30:00+02:00');
      expect((await cancel(await relogin(bookers[0]), ids[0] as number)).statusCode).toBe(200);
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-03-25T07:59:00+02:00');
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-03-25T08:00:00+02:00');
      const sent = await newMessages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [waiter?.phone, hebrewOffer('2027-03-28', '09:00')],
      ]);
    });

    it('keeps Shabbat when the clinic keeps it for reminders', async () => {
      const reminders = await integration(f.key, 'PUT' as 'PATCH', '/reminders/settings', {
        enabled: false,
        lead_minutes: [1440],
        channel: 'sms',
        quiet_hours: { start: '23:00', end: '07:00' },
        observe_shabbat_and_holidays: true,
      });
      expect(reminders.statusCode, reminders.body).toBe(200);
      const bookers = await patientsOf(1);
      const later = await booked((bookers[0] as TestPatient).token, '2027-04-04 09:00');
      const [waiter] = await waiting(1, { fromDate: '2027-03-29', toDate: '2027-04-04' });
      // Saturday 2027-04-03 noon, Shabbat: the offer waits for havdalah.
      now = Date.parse('2027-04-03T12:00:00+03:00');
      // The clinic cancels (the patient's online notice has closed).
      expect((await integration(f.key, 'POST', `/appointments/${later}/cancel`)).statusCode).toBe(
        200,
      );
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-04-03T19:00:00+03:00');
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-04-03T21:00:00+03:00');
      expect((await newMessages()).map((m) => m.to)).toEqual([waiter?.phone]);
    });

    it('makes at most one offer per entry a day by default; the rest wait for the next day', async () => {
      const { bookers, ids } = await fullSunday();
      const [waiter] = await waiting(1);
      await cancel((bookers[0] as TestPatient).token, ids[0] as number);
      expect((await newMessages()).map((m) => m.to)).toEqual([waiter?.phone]);
      now += HOUR;
      await cancel(await relogin(bookers[1]), ids[1] as number);
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-03-25T07:59:00+02:00');
      expect(await newMessages()).toEqual([]);
      now = Date.parse('2027-03-25T08:00:00+02:00');
      const sent = await newMessages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [waiter?.phone, hebrewOffer('2027-03-28', '09:30')],
      ]);
      const invalid = await integration(f.key, 'PATCH', '/clinic', {
        settings: { waitlist_offers_per_entry_per_day: 0 },
      });
      expectInvalid(invalid, 'settings.waitlist_offers_per_entry_per_day');
    });

    it('offers hours the clinic adds through the integration API', async () => {
      await fullSunday();
      const [waiter] = await waiting(1, { partOfDay: 'morning' });
      const response = await integration(f.key, 'PATCH', `/caregivers/${f.dana}`, {
        marpe_rules: {
          exceptions: [{ date: '2027-03-29', hours: [{ start: '11:30', end: '12:30' }] }],
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      const sent = await newMessages();
      // 11:30 is morning; 12:00 is not.
      expect(sent.map((m) => m.to)).toEqual([waiter?.phone]);
      expect(sent[0]?.body).toBe(hebrewOffer('2027-03-29', '11:30'));
    });
  });

  describe('GET /api/integration/waitlist', () => {
    it("counts the key's clinic's waiting entries per caregiver, and no other clinic's", async () => {
      await waiting(2);
      const [leaver] = await waiting(1, { partOfDay: 'morning' });
      const [entry] = await list((leaver as TestPatient).token);
      await leave((leaver as TestPatient).token, entry?.id);
      const [foreign] = await patientsOf(1, f.otherClinicId);
      now += MINUTE;
      expect(
        (
          await join((foreign as TestPatient).token, {
            clinicId: f.otherClinicId,
            caregiverId: f.stranger,
            appointmentTypeId: (await db.select().from(appointmentTypes)).find(
              (t) => t.clinicId === f.otherClinicId,
            )?.id,
          })
        ).statusCode,
      ).toBe(201);

      const mine = await integration(f.key, 'GET', '/waitlist');
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json()).toEqual([
        {
          caregiver_id: f.dana,
          name: 'ד"ר דנה',
          waiting: 2,
          oldest_joined_at: new Date(NOW + MINUTE).toISOString(),
        },
      ]);
      const theirs = (await integration(f.otherKey, 'GET', '/waitlist')).json<
        IntegrationWaitlistRow[]
      >();
      expect(theirs.map((r) => [r.caregiver_id, r.waiting])).toEqual([[f.stranger, 1]]);
      expect((await integration(null, 'GET', '/waitlist')).statusCode).toBe(401);
      const openapi = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
        paths: Record<string, unknown>;
      }>();
      expect(Object.keys(openapi.paths)).toEqual(
        expect.arrayContaining([
          '/api/integration/waitlist',
          '/api/waitlist',
          '/api/waitlist/{id}',
        ]),
      );
    });
  });
});
