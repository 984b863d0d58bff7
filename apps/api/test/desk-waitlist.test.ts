// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  DevMessage,
  IntegrationWaitlistEntry,
  WaitlistEntry,
  WaitlistOffer,
  WaitlistSlots,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog, clinics, waitlistOffers } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { insertCaregiver, insertClinics, insertTypes } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import {
  bearer,
  insertLoggedInPatients,
  insertStaffSession,
  type TestPatient,
} from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = testConfig().publicOrigin;

/** Wednesday 2027-03-24, 10:00 in Israel. Sunday 2027-03-28 is the caregivers' working day. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const SUNDAY = '2027-03-28';

/** Clinic wall time 'YYYY-MM-DD HH:mm' → ISO with the clinic's offset. */
const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Desk = { cookies: Record<string, string>; accountId: number };
type Caller = { key: string } | { desk: Desk } | null;
type Issues = { code: string; details?: { issues?: { path: string }[]; reason?: string } };

describe.each(engines)("the desk's waitlist: offers by hand (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = NOW;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let frontDesk: Desk;
  let owner: Desk;
  let otherFrontDesk: Desk;
  /** Sundays 09:00–10:00 and 13:00–13:30: checkups. */
  let dana: number;
  /** Sundays 11:00–12:00: checkups too. */
  let ron: number;
  /** Offers no checkups. */
  let eli: number;
  let stranger: number;
  let checkup: number;

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

  let sentBefore = 0;
  async function allMessages(): Promise<DevMessage[]> {
    while ((await app.messaging.runOutbox()) > 0);
    return (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json();
  }
  /** Messages sent since the last call (or the test's start), oldest first. */
  async function newMessages(): Promise<DevMessage[]> {
    const all = await allMessages();
    const fresh = all.slice(0, all.length - sentBefore).reverse();
    sentBefore = all.length;
    return fresh;
  }

  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    [clinicId, otherClinicId] = await insertClinics(db, ['מרפאת הבדיקות', 'מרפאה אחרת']);
    const [checkupType, otherType, cleaning] = await insertTypes(db, [
      { clinicId, name: 'בדיקה תקופתית', durationMinutes: 30 },
      { clinicId: otherClinicId, name: 'בדיקה', durationMinutes: 30 },
      { clinicId, name: 'ניקוי', durationMinutes: 30 },
    ]);
    checkup = checkupType;
    dana = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      typeIds: [checkup],
      hours: [
        { weekDay: 0, startTime: '09:00', endTime: '10:00' },
        { weekDay: 0, startTime: '13:00', endTime: '13:30' },
      ],
    });
    ron = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר רון',
      licenseNumber: '1-2',
      typeIds: [checkup],
      hours: [{ weekDay: 0, startTime: '11:00', endTime: '12:00' }],
    });
    eli = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר אלי',
      licenseNumber: '1-3',
      typeIds: [cleaning],
      hours: [{ weekDay: 0, startTime: '09:00', endTime: '10:00' }],
    });
    stranger = await insertCaregiver(db, {
      clinicId: otherClinicId,
      name: 'Stranger',
      licenseNumber: '2-1',
      typeIds: [otherType],
      hours: [{ weekDay: 0, startTime: '09:00', endTime: '10:00' }],
    });
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    frontDesk = await insertStaffSession(db, { clinicId, role: 'front_desk', now: NOW });
    owner = await insertStaffSession(db, { clinicId, role: 'owner', now: NOW });
    otherFrontDesk = await insertStaffSession(db, {
      clinicId: otherClinicId,
      role: 'front_desk',
      now: NOW,
    });
    sentBefore = (await allMessages()).length;
  });

  /** A call to `/api/integration…` by a key, a desk session (as the desk sends it), or no one. */
  const call = (caller: Caller, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...(caller === null
        ? {}
        : 'key' in caller
          ? { headers: bearer(caller.key) }
          : {
              cookies: { ...xsrf.cookies, ...caller.desk.cookies },
              headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
            }),
    });
  const desk = (session: Desk) => ({ desk: session });

  const expectInvalid = (response: Awaited<ReturnType<typeof call>>, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<Issues>();
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  const patientWrite = (method: 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    app.inject({
      method,
      url,
      payload,
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(token) },
    });

  /** A patient of the clinic who joins the waitlist (a minute after the one before). */
  async function waiter(
    overrides: Record<string, unknown> = {},
    clinic = clinicId,
  ): Promise<{ patient: TestPatient; entry: WaitlistEntry }> {
    const [patient] = await insertLoggedInPatients(db, { clinicId: clinic, count: 1, now });
    if (!patient) throw new Error('no patient');
    now += MINUTE;
    const response = await patientWrite('POST', '/api/waitlist', patient.token, {
      clinicId: clinic,
      caregiverId: dana,
      appointmentTypeId: checkup,
      fromDate: SUNDAY,
      toDate: '2027-03-30',
      partOfDay: 'morning',
      ...overrides,
    });
    expect(response.statusCode, response.body).toBe(201);
    return { patient, entry: response.json<WaitlistEntry>() };
  }

  const offer = (caller: Caller, entryId: number | string, body: object) =>
    call(caller, 'POST', `/waitlist/entries/${entryId}/offer`, body);

  const hebrewOffer = (caregiverId: number, caregiverName: string, date: string, time: string) =>
    [
      'התפנה תור במרפאת הבדיקות:',
      `בדיקה תקופתית עם ${caregiverName}`,
      `בתאריך ${date.split('-').reverse().join('/')} בשעה ${time}`,
      `לקביעה (התור של מי שקובע ראשון): ${ORIGIN}/booking/${clinicId}?caregiverId=${caregiverId}&appointmentTypeId=${checkup}&date=${date}&time=${time}`,
    ].join('\n');

  const offersOf = (entryId: number) =>
    db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entryId));

  describe('GET /waitlist/entries/:id/slots', () => {
    it("lists the free times on the entry's dates, by part of day and whether offered", async () => {
      const { entry } = await waiter();
      // Someone books 09:00: it is not free any more.
      const [booker] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      const booked = await patientWrite('POST', '/api/appointment', booker?.token as string, {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso(`${SUNDAY} 09:00`),
        endDate: iso(`${SUNDAY} 09:30`),
      });
      expect(booked.statusCode, booked.body).toBe(201);

      const response = await call(desk(frontDesk), 'GET', `/waitlist/entries/${entry.id}/slots`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json<WaitlistSlots>()).toEqual({
        entry_id: entry.id,
        caregiver_id: dana,
        slots: [
          {
            start: iso(`${SUNDAY} 09:30`),
            end: iso(`${SUNDAY} 10:00`),
            in_part_of_day: true,
            offered: false,
          },
          {
            start: iso(`${SUNDAY} 13:00`),
            end: iso(`${SUNDAY} 13:30`),
            in_part_of_day: false,
            offered: false,
          },
        ],
      });

      const withRon = await call(
        desk(frontDesk),
        'GET',
        `/waitlist/entries/${entry.id}/slots?caregiver_id=${ron}`,
      );
      expect(withRon.statusCode, withRon.body).toBe(200);
      expect(withRon.json<WaitlistSlots>().slots.map((s) => s.start)).toEqual([
        iso(`${SUNDAY} 11:00`),
        iso(`${SUNDAY} 11:30`),
      ]);
      expectInvalid(
        await call(
          desk(frontDesk),
          'GET',
          `/waitlist/entries/${entry.id}/slots?caregiver_id=${eli}`,
        ),
        'caregiver_id',
      );
      expect(
        (await call(desk(frontDesk), 'GET', `/waitlist/entries/${entry.id + 999}/slots`))
          .statusCode,
      ).toBe(404);
    });
  });

  describe('POST /waitlist/entries/:id/offer', () => {
    it('sends the patient the offer, records it, audits it, and marks the slot offered', async () => {
      const { patient, entry } = await waiter();
      const response = await offer(desk(frontDesk), entry.id, {
        start_date: iso(`${SUNDAY} 09:30`),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<WaitlistOffer>()).toEqual({
        entry_id: entry.id,
        caregiver_id: dana,
        start_date: iso(`${SUNDAY} 09:30`),
        end_date: iso(`${SUNDAY} 10:00`),
        offered_at: new Date(now).toISOString(),
        quiet_until: null,
      });
      const sent = await newMessages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [patient.phone, hebrewOffer(dana, 'ד"ר דנה', SUNDAY, '09:30')],
      ]);
      const rows = await offersOf(entry.id);
      expect(rows.map((r) => [r.caregiverId, r.startAt.getTime(), r.endAt.getTime()])).toEqual([
        [dana, zonedToEpoch(`${SUNDAY} 09:30`, TZ), zonedToEpoch(`${SUNDAY} 10:00`, TZ)],
      ]);
      const audited = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, 'waitlist.offer')));
      expect(audited).toHaveLength(1);
      expect(audited[0]).toMatchObject({
        actor: `staff:${frontDesk.accountId}`,
        targetType: 'waitlist_entry',
        targetId: String(entry.id),
        details: {
          patient_id: patient.id,
          caregiver_id: dana,
          start_at: new Date(zonedToEpoch(`${SUNDAY} 09:30`, TZ)).toISOString(),
          quiet_until: null,
        },
      });
      const slots = await call(desk(frontDesk), 'GET', `/waitlist/entries/${entry.id}/slots`);
      expect(slots.json<WaitlistSlots>().slots.find((s) => s.offered)?.start).toBe(
        iso(`${SUNDAY} 09:30`),
      );

      // The same time again: said so, nothing sent.
      const again = await offer(desk(frontDesk), entry.id, { start_date: iso(`${SUNDAY} 09:30`) });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json<Issues>()).toMatchObject({
        code: 'conflict',
        details: { reason: 'already_offered' },
      });
      expect(await newMessages()).toEqual([]);
    });

    it("offers another caregiver's time, in the patient's language; an owner and a key may too", async () => {
      const { patient, entry } = await waiter();
      const [english] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      const joined = await app.inject({
        method: 'POST',
        url: '/api/waitlist',
        payload: {
          clinicId,
          caregiverId: dana,
          appointmentTypeId: checkup,
          fromDate: SUNDAY,
          toDate: SUNDAY,
          partOfDay: 'any',
        },
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(english?.token as string), 'accept-language': 'en' },
      });
      expect(joined.statusCode, joined.body).toBe(201);

      const byOwner = await offer(desk(owner), entry.id, {
        caregiver_id: ron,
        start_date: iso(`${SUNDAY} 11:00`),
      });
      expect(byOwner.statusCode, byOwner.body).toBe(201);
      expect(byOwner.json<WaitlistOffer>().caregiver_id).toBe(ron);
      const byKey = await offer({ key }, joined.json<WaitlistEntry>().id, {
        start_date: iso(`${SUNDAY} 13:00`),
      });
      expect(byKey.statusCode, byKey.body).toBe(201);
      const sent = await newMessages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [patient.phone, hebrewOffer(ron, 'ד"ר רון', SUNDAY, '11:00')],
        [
          english?.phone,
          [
            'A time freed up at מרפאת הבדיקות:',
            'בדיקה תקופתית with ד"ר דנה',
            'On 28/03/2027 at 13:00',
            `Book it here (first come, first served): ${ORIGIN}/booking/${clinicId}?caregiverId=${dana}&appointmentTypeId=${checkup}&date=${SUNDAY}&time=13:00`,
          ].join('\n'),
        ],
      ]);
    });

    it('answers 409 slot_taken for a time not free, and sends nothing', async () => {
      const { entry } = await waiter();
      const [booker] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      const booked = await patientWrite('POST', '/api/appointment', booker?.token as string, {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso(`${SUNDAY} 09:00`),
        endDate: iso(`${SUNDAY} 09:30`),
      });
      expect(booked.statusCode, booked.body).toBe(201);
      await newMessages();
      const response = await offer(desk(frontDesk), entry.id, {
        start_date: iso(`${SUNDAY} 09:00`),
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json<Issues>().code).toBe('slot_taken');
      expect(await offersOf(entry.id)).toEqual([]);
      expect(await newMessages()).toEqual([]);
    });

    it('answers 404 for an unknown entry and 409 for one no longer waiting', async () => {
      const { patient, entry } = await waiter();
      const unknown = await offer(desk(frontDesk), entry.id + 1000, {
        start_date: iso(`${SUNDAY} 09:00`),
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<Issues>().code).toBe('waitlist_entry_not_found');
      expect(
        (await patientWrite('DELETE', `/api/waitlist/${entry.id}`, patient.token)).statusCode,
      ).toBe(200);
      const left = await offer(desk(frontDesk), entry.id, { start_date: iso(`${SUNDAY} 09:00`) });
      expect(left.statusCode, left.body).toBe(409);
      expect(left.json<Issues>()).toMatchObject({
        code: 'conflict',
        details: { reason: 'entry_closed' },
      });
      expect(await newMessages()).toEqual([]);
    });

    it('answers 400 naming the field', async () => {
      const { entry } = await waiter();
      const bad = (body: object) => offer(desk(frontDesk), entry.id, body);
      expectInvalid(await bad({}), 'start_date');
      expectInvalid(await bad({ start_date: `${SUNDAY} 09:00` }), 'start_date');
      expectInvalid(await bad({ start_date: 'tomorrow' }), 'start_date');
      // Off the slot grid, outside the hours, in the past.
      expectInvalid(await bad({ start_date: iso(`${SUNDAY} 09:10`) }), 'start_date');
      expectInvalid(await bad({ start_date: iso(`${SUNDAY} 16:00`) }), 'start_date');
      expectInvalid(await bad({ start_date: iso('2027-03-21 09:00') }), 'start_date');
      expectInvalid(
        await bad({ caregiver_id: eli, start_date: iso(`${SUNDAY} 09:00`) }),
        'caregiver_id',
      );
      expectInvalid(
        await bad({ caregiver_id: 'x', start_date: iso(`${SUNDAY} 09:00`) }),
        'caregiver_id',
      );
      expect((await bad({ start_date: iso(`${SUNDAY} 09:00`), extra: 1 })).statusCode).toBe(400);
      expectInvalid(
        await offer(desk(frontDesk), 'abc', { start_date: iso(`${SUNDAY} 09:00`) }),
        'id',
      );
      expect(await offersOf(entry.id)).toEqual([]);
      expect(await newMessages()).toEqual([]);
    });

    it("keeps the clinic's quiet hours: the message goes when they end, if the time is still free", async () => {
      const first = await waiter();
      const second = await waiter();
      now = Date.parse('2027-03-24T22:30:00+02:00');
      // The evening shift's session (the morning's has ended after an hour idle).
      const evening = await insertStaffSession(db, { clinicId, role: 'front_desk', now });
      const quiet = await offer(desk(evening), first.entry.id, {
        start_date: iso(`${SUNDAY} 09:00`),
      });
      expect(quiet.statusCode, quiet.body).toBe(201);
      const morning = Date.parse('2027-03-25T08:00:00+02:00');
      expect(quiet.json<WaitlistOffer>()).toMatchObject({
        offered_at: new Date(morning).toISOString(),
        quiet_until: new Date(morning).toISOString(),
      });
      const taken = await offer(desk(evening), second.entry.id, {
        start_date: iso(`${SUNDAY} 09:30`),
      });
      expect(taken.statusCode, taken.body).toBe(201);
      expect(await newMessages()).toEqual([]);
      // 09:30 is booked in the night: its offer never goes.
      const [booker] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      const booked = await patientWrite('POST', '/api/appointment', booker?.token as string, {
        clinicId,
        caregiverId: dana,
        appointmentTypeId: checkup,
        startDate: iso(`${SUNDAY} 09:30`),
        endDate: iso(`${SUNDAY} 10:00`),
      });
      expect(booked.statusCode, booked.body).toBe(201);
      await newMessages();
      now = morning - MINUTE;
      expect(await newMessages()).toEqual([]);
      now = morning;
      expect((await newMessages()).map((m) => [m.to, m.body])).toEqual([
        [first.patient.phone, hebrewOffer(dana, 'ד"ר דנה', SUNDAY, '09:00')],
      ]);
    });

    it("is counted by the clinic's message caps: 429 beyond them, nothing recorded", async () => {
      await db
        .update(clinics)
        .set({ messageCapPerRecipientHour: 1 })
        .where(eq(clinics.id, clinicId));
      const { patient, entry } = await waiter({ partOfDay: 'any' });
      expect(
        (await offer(desk(frontDesk), entry.id, { start_date: iso(`${SUNDAY} 09:00`) })).statusCode,
      ).toBe(201);
      const refused = await offer(desk(frontDesk), entry.id, {
        start_date: iso(`${SUNDAY} 13:00`),
      });
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json<Issues>().code).toBe('too_many_requests');
      expect((await offersOf(entry.id)).map((r) => r.startAt.getTime())).toEqual([
        zonedToEpoch(`${SUNDAY} 09:00`, TZ),
      ]);
      expect((await newMessages()).map((m) => m.to)).toEqual([patient.phone]);
      const audited = await db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.clinicId, clinicId));
      expect(audited.map((a) => a.action).filter((a) => a !== 'waitlist.offer')).toContain(
        'message.refused',
      );
    });

    it("never lets another clinic see or offer the clinic's entries; needs a caller", async () => {
      const { entry } = await waiter();
      const theirs = await offer(desk(otherFrontDesk), entry.id, {
        start_date: iso(`${SUNDAY} 09:00`),
      });
      expect(theirs.statusCode, theirs.body).toBe(404);
      expect(
        (await call(desk(otherFrontDesk), 'GET', `/waitlist/entries/${entry.id}/slots`)).statusCode,
      ).toBe(404);
      const list = await call(desk(otherFrontDesk), 'GET', '/waitlist/entries');
      expect(list.json()).toEqual([]);
      const foreignCaregiver = await offer(desk(frontDesk), entry.id, {
        caregiver_id: stranger,
        start_date: iso(`${SUNDAY} 09:00`),
      });
      expect(foreignCaregiver.statusCode, foreignCaregiver.body).toBe(404);
      expect(foreignCaregiver.json<Issues>().code).toBe('caregiver_not_found');
      expect((await offer(null, entry.id, { start_date: iso(`${SUNDAY} 09:00`) })).statusCode).toBe(
        401,
      );
      // A desk session without the anti-forgery token.
      const forged = await app.inject({
        method: 'POST',
        url: `/api/integration/waitlist/entries/${entry.id}/offer`,
        payload: { start_date: iso(`${SUNDAY} 09:00`) },
        cookies: frontDesk.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(forged.statusCode).toBe(403);
      expect(await offersOf(entry.id)).toEqual([]);
      expect(await newMessages()).toEqual([]);
    });
  });

  describe('GET /waitlist/entries: one patient, and pages', () => {
    it("filters by the patient's ID number and pages in joining order", async () => {
      const a = await waiter();
      const b = await waiter({ caregiverId: ron });
      const c = await waiter();
      const d = await waiter();
      const names = (response: Awaited<ReturnType<typeof call>>) =>
        response.json<IntegrationWaitlistEntry[]>().map((e) => e.id);

      const one = await call(
        desk(frontDesk),
        'GET',
        `/waitlist/entries?patient_id_number=${b.patient.idNumber}`,
      );
      expect(one.statusCode, one.body).toBe(200);
      expect(names(one)).toEqual([b.entry.id]);
      const none = await call(
        desk(otherFrontDesk),
        'GET',
        `/waitlist/entries?patient_id_number=${b.patient.idNumber}`,
      );
      expect(names(none)).toEqual([]);

      const first = await call(desk(frontDesk), 'GET', '/waitlist/entries?limit=2');
      expect(names(first)).toEqual([a.entry.id, b.entry.id]);
      const second = await call(
        desk(frontDesk),
        'GET',
        `/waitlist/entries?limit=2&after=${b.entry.id}`,
      );
      expect(names(second)).toEqual([c.entry.id, d.entry.id]);
      const last = await call(
        desk(frontDesk),
        'GET',
        `/waitlist/entries?limit=2&after=${d.entry.id}`,
      );
      expect(names(last)).toEqual([]);
      const dana2 = await call(
        desk(frontDesk),
        'GET',
        `/waitlist/entries?caregiver_id=${dana}&after=${a.entry.id}`,
      );
      expect(names(dana2)).toEqual([c.entry.id, d.entry.id]);
      // Unchanged for callers that send no page: all of them.
      expect(names(await call({ key }, 'GET', '/waitlist/entries'))).toEqual([
        a.entry.id,
        b.entry.id,
        c.entry.id,
        d.entry.id,
      ]);

      expectInvalid(
        await call(desk(otherFrontDesk), 'GET', `/waitlist/entries?after=${a.entry.id}`),
        'after',
      );
      expectInvalid(await call(desk(frontDesk), 'GET', '/waitlist/entries?limit=501'), 'limit');
      expectInvalid(await call(desk(frontDesk), 'GET', '/waitlist/entries?limit=0'), 'limit');
      expectInvalid(
        await call(desk(frontDesk), 'GET', '/waitlist/entries?patient_id_number=12a'),
        'patient_id_number',
      );
    });
  });
});
