// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isValidIsraeliId,
  type BookedAppointment,
  type ClinicData,
  type PatientAppointment,
  type UpcomingCap,
  type Slot,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { createAppointmentsRepository } from '../src/modules/appointments/appointments-repository.js';
import { bookingConflictOf } from '../src/modules/appointments/booking-conflicts.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
  outbox,
  patients,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair, useSentMessages } from './helper.js';
import { bearer, insertLoggedInPatients, insertSessions, type TestPatient } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Wednesday 2027-03-24, 10:00 in Israel. Clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

/** Clinic wall time 'YYYY-MM-DD HH:mm' → epoch ms. */
const at = (local: string) => zonedToEpoch(local, TZ);

/** The slot as available-slots spells it: ISO with the clinic's offset. */
function slot(local: string, minutes = 30): { startDate: string; endDate: string } {
  const start = at(local);
  return {
    startDate: formatZonedIso(start, TZ),
    endDate: formatZonedIso(start + minutes * MINUTE, TZ),
  };
}

interface Fixture {
  clinicId: number;
  otherClinicId: number;
  /** Sun–Thu 08:00–16:00, step 30, notice 60, horizon 30 days; offers the check-up only. */
  dana: number;
  /** Same hours; offers the check-up and the root canal. */
  noa: number;
  inactive: number;
  /** Works at the other clinic. */
  stranger: number;
  /** 30 minutes. */
  checkup: number;
  /** 60 minutes, Noa only. */
  rootCanal: number;
  otherClinicType: number;
}

async function insertFixture(db: Database): Promise<Fixture> {
  const [main, other] = await db
    .insert(clinics)
    .values([clinicRow('מרפאת הבדיקות'), clinicRow('מרפאה אחרת')])
    .returning({ id: clinics.id });
  if (!main || !other) throw new Error('fixture: clinics');

  const types = await db
    .insert(appointmentTypes)
    .values([
      { clinicId: main.id, name: 'בדיקה תקופתית', durationMinutes: 30 },
      { clinicId: main.id, name: 'טיפול שורש', durationMinutes: 60 },
      { clinicId: other.id, name: 'בדיקה', durationMinutes: 30 },
    ])
    .returning({ id: appointmentTypes.id });
  const [checkup, rootCanal, otherClinicType] = types.map((t) => t.id);
  if (!checkup || !rootCanal || !otherClinicType) throw new Error('fixture: types');

  const rules = { slotStepMinutes: 30, minNoticeMinutes: 60, bookingHorizonDays: 30 };
  const staff = await db
    .insert(caregivers)
    .values([
      { clinicId: main.id, name: 'ד"ר דנה', licenseNumber: '1-1', sortOrder: 0, ...rules },
      { clinicId: main.id, name: 'ד"ר נועה', licenseNumber: '1-2', sortOrder: 1, ...rules },
      { clinicId: main.id, name: 'Gone', licenseNumber: '1-3', isActive: false, ...rules },
      { clinicId: other.id, name: 'Stranger', licenseNumber: '1-4', ...rules },
    ])
    .returning({ id: caregivers.id });
  const [dana, noa, inactive, stranger] = staff.map((c) => c.id);
  if (!dana || !noa || !inactive || !stranger) throw new Error('fixture: caregivers');

  await db.insert(caregiverAppointmentTypes).values([
    { caregiverId: dana, appointmentTypeId: checkup },
    { caregiverId: noa, appointmentTypeId: checkup },
    { caregiverId: noa, appointmentTypeId: rootCanal },
    { caregiverId: inactive, appointmentTypeId: checkup },
    { caregiverId: stranger, appointmentTypeId: otherClinicType },
  ]);
  // Sunday (0) to Thursday (4).
  await db.insert(caregiverWorkingHours).values(
    [dana, noa, inactive, stranger].flatMap((caregiverId) =>
      [0, 1, 2, 3, 4].map((weekDay) => ({
        caregiverId,
        weekDay,
        startTime: '08:00',
        endTime: '16:00',
      })),
    ),
  );
  return {
    clinicId: main.id,
    otherClinicId: other.id,
    dana,
    noa,
    inactive,
    stranger,
    checkup,
    rootCanal,
    otherClinicType,
  };
}

describe.each(engines)('appointments (%s)', (engine) => {
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
      patientAuthAttemptsPerMinute: 100_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    f = await insertFixture(db);
  });

  const patientsOf = (count: number) =>
    insertLoggedInPatients(db, { clinicId: f.clinicId, count, now });
  async function onePatient(): Promise<TestPatient> {
    const [patient] = await patientsOf(1);
    if (!patient) throw new Error('no patient');
    return patient;
  }
  async function twoPatients(): Promise<[TestPatient, TestPatient]> {
    const [first, second] = await patientsOf(2);
    if (!first || !second) throw new Error('no patients');
    return [first, second];
  }

  const bookingBody = (overrides: Record<string, unknown> = {}) => ({
    clinicId: f.clinicId,
    caregiverId: f.dana,
    appointmentTypeId: f.checkup,
    ...slot('2027-03-25 09:00'),
    ...overrides,
  });

  const write = (
    method: 'POST' | 'PUT',
    url: string,
    token: string | null,
    payload: object | string,
  ) =>
    app.inject({
      method,
      url,
      payload,
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...(token ? bearer(token) : {}) },
    });

  const book = (token: string, overrides: Record<string, unknown> = {}) =>
    write('POST', '/api/appointment', token, bookingBody(overrides));
  const sendSms = (token: string, body: object) =>
    write('POST', '/api/appointment/send-sms', token, body);
  const cancel = (token: string, appointmentId: unknown) =>
    write('PUT', '/api/appointment/patient-appointments', token, { appointmentId });
  const list = (token: string) =>
    app.inject({
      method: 'GET',
      url: '/api/appointment/patient-appointments',
      headers: bearer(token),
    });

  const bookedRows = () =>
    db
      .select()
      .from(appointments)
      .where(eq(appointments.status, 'booked'))
      .orderBy(appointments.startAt);

  const messages = useSentMessages(() => app);

  const expectInvalid = (response: Awaited<ReturnType<typeof book>>, field: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((i) => i.path)).toContain(field);
  };

  const statusCounts = (responses: { statusCode: number }[]) => {
    const counts: Record<number, number> = {};
    for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
    return counts;
  };

  /** An appointment written directly, as a clinic's system would. */
  async function insertAppointment(
    patientId: number,
    local: string,
    options: {
      minutes?: number;
      caregiverId?: number;
      status?: 'booked' | 'cancelled';
    } = {},
  ): Promise<number> {
    const start = at(local);
    const [row] = await db
      .insert(appointments)
      .values({
        clinicId: f.clinicId,
        caregiverId: options.caregiverId ?? f.dana,
        patientId,
        appointmentTypeId: f.checkup,
        startAt: new Date(start),
        endAt: new Date(start + (options.minutes ?? 30) * MINUTE),
        localDate: local.slice(0, 10),
        status: options.status ?? 'booked',
      })
      .returning({ id: appointments.id });
    if (!row) throw new Error('insertAppointment');
    return row.id;
  }

  describe('POST /api/appointment', () => {
    it('books an offered slot and answers the appointment with the clinic offset', async () => {
      const dana = await onePatient();
      const response = await book(dana.token);
      expect(response.statusCode, response.body).toBe(201);
      const booked = response.json<BookedAppointment>();
      expect(booked).toEqual({
        id: expect.any(Number),
        clinic_id: f.clinicId,
        caregiver_id: f.dana,
        appointment_type_id: f.checkup,
        start_date: '2027-03-25T09:00:00+02:00',
        end_date: '2027-03-25T09:30:00+02:00',
        sms_sent: false,
      });
      const rows = await bookedRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: booked.id,
        patientId: dana.id,
        localDate: '2027-03-25',
        status: 'booked',
        detailsSmsCount: 0,
      });
      expect(await messages()).toEqual([]);
    });

    it('takes the slot off available-slots and moves the clinic page’s first slot', async () => {
      const firstSlot = async () => {
        const response = await app.inject({ method: 'GET', url: `/api/clinic/${f.clinicId}` });
        return response.json<ClinicData>().caregivers.find((c) => c.id === f.dana)
          ?.first_available_slot;
      };
      // Notice 60 minutes: the first slot is today at 11:00.
      expect(await firstSlot()).toEqual({ start: '2027-03-24T11:00:00+02:00' });
      const patient = await onePatient();
      expect((await book(patient.token, slot('2027-03-24 11:00'))).statusCode).toBe(201);
      expect(await firstSlot()).toEqual({ start: '2027-03-24T11:30:00+02:00' });

      const slots = await app.inject({
        method: 'GET',
        url: '/api/appointment/available-slots',
        query: {
          clinicId: String(f.clinicId),
          caregiverId: String(f.dana),
          duration: '30',
          startDate: '2027-03-24 11:00',
          endDate: '2027-03-24 11:30',
        },
      });
      expect(slots.json<Slot[]>().map((s) => s.start)).toEqual(['2027-03-24T11:30:00+02:00']);
    });

    it('accepts any spelling of the slot’s instants, on either side of the clocks’ change', async () => {
      const patient = await onePatient();
      const winter = await book(patient.token, {
        startDate: '2027-03-25T07:00:00Z',
        endDate: '2027-03-25T07:30:00.000Z',
      });
      expect(winter.statusCode, winter.body).toBe(201);
      expect(winter.json()).toMatchObject({ start_date: '2027-03-25T09:00:00+02:00' });
      // Summer time from Friday: 09:00 is 06:00 UTC.
      const summer = await book(patient.token, {
        startDate: '2027-03-28T06:00:00Z',
        endDate: '2027-03-28T09:30:00+03:00',
      });
      expect(summer.statusCode, summer.body).toBe(201);
      expect(summer.json()).toMatchObject({
        start_date: '2027-03-28T09:00:00+03:00',
        end_date: '2027-03-28T09:30:00+03:00',
      });
      expect((await bookedRows()).map((r) => r.localDate)).toEqual(['2027-03-25', '2027-03-28']);
    });

    it.each([
      ['off the slot grid', { ...slot('2027-03-25 09:10') }, 'startDate'],
      ['ending after working hours', { ...slot('2027-03-25 15:45') }, 'startDate'],
      ['outside working hours', { ...slot('2027-03-25 20:00') }, 'startDate'],
      ['on a day off (Friday)', { ...slot('2027-03-26 09:00') }, 'startDate'],
      ['in the past', { ...slot('2027-03-23 09:00') }, 'startDate'],
      ['within the minimum notice', { ...slot('2027-03-24 10:30') }, 'startDate'],
      ['beyond the booking horizon', { ...slot('2027-04-25 09:00') }, 'startDate'],
      ['longer than the type', { ...slot('2027-03-25 09:00', 60) }, 'endDate'],
      ['shorter than the type', { ...slot('2027-03-25 09:00', 15) }, 'endDate'],
    ])('answers 400 for a slot %s, and books nothing', async (_label, interval, field) => {
      const patient = await onePatient();
      expectInvalid(await book(patient.token, interval), field);
      expect(await bookedRows()).toEqual([]);
    });

    it('answers 400 naming appointmentTypeId when the caregiver does not offer the type', async () => {
      const patient = await onePatient();
      expectInvalid(
        await book(patient.token, {
          appointmentTypeId: f.rootCanal,
          ...slot('2027-03-25 09:00', 60),
        }),
        'appointmentTypeId',
      );
      // Noa offers it.
      const noa = await book(patient.token, {
        caregiverId: f.noa,
        appointmentTypeId: f.rootCanal,
        ...slot('2027-03-25 09:00', 60),
      });
      expect(noa.statusCode, noa.body).toBe(201);
    });

    it('answers 404 for unknown, inactive or foreign caregivers and types', async () => {
      const patient = await onePatient();
      for (const caregiverId of [999_999, f.inactive, f.stranger]) {
        const response = await book(patient.token, { caregiverId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'caregiver_not_found' });
      }
      for (const appointmentTypeId of [999_999, f.otherClinicType]) {
        const response = await book(patient.token, { appointmentTypeId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'appointment_type_not_found' });
      }
      expect(await bookedRows()).toEqual([]);
    });

    it("answers 403 for another clinic than the patient's", async () => {
      const patient = await onePatient();
      const response = await book(patient.token, {
        clinicId: f.otherClinicId,
        caregiverId: f.stranger,
        appointmentTypeId: f.otherClinicType,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden' });
      expect(await bookedRows()).toEqual([]);
    });

    it.each([
      ['a missing caregiverId', { caregiverId: undefined }, 'caregiverId'],
      ['an id as a string', { clinicId: '1' }, 'clinicId'],
      ['a negative id', { appointmentTypeId: -1 }, 'appointmentTypeId'],
      ['a start without offset', { startDate: '2027-03-25T09:00:00' }, 'startDate'],
      ['a start as clinic wall time', { startDate: '2027-03-25 09:00' }, 'startDate'],
      ['a date that does not exist', { startDate: '2027-02-30T09:00:00+02:00' }, 'startDate'],
      ['an end before the start', { endDate: '2027-03-25T08:30:00+02:00' }, 'endDate'],
    ])('answers 400 for %s', async (_label, overrides, field) => {
      const patient = await onePatient();
      expectInvalid(await book(patient.token, overrides), field);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const patient = await onePatient();
      const response = await app.inject({
        method: 'POST',
        url: '/api/appointment',
        payload: '{"clinicId":',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token), 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
    });

    it('answers 401 without a live session and 403 without the anti-forgery header', async () => {
      const noSession = await write('POST', '/api/appointment', null, bookingBody());
      expect(noSession.statusCode).toBe(401);
      const badToken = await write('POST', '/api/appointment', 'x'.repeat(43), bookingBody());
      expect(badToken.statusCode).toBe(401);
      // The session is checked before the body: a stranger learns nothing of the validation.
      const malformed = await write('POST', '/api/appointment', null, { clinicId: 'x' });
      expect(malformed.statusCode).toBe(401);
      const patient = await onePatient();
      const noXsrf = await app.inject({
        method: 'POST',
        url: '/api/appointment',
        payload: bookingBody(),
        cookies: xsrf.cookies,
        headers: bearer(patient.token),
      });
      expect(noXsrf.statusCode).toBe(403);
      expect(noXsrf.json()).toMatchObject({ code: 'xsrf' });
      expect(await bookedRows()).toEqual([]);
    });

    it('answers 409 slot_taken for a booked interval or one overlapping it', async () => {
      const [first, second] = await twoPatients();
      expect((await book(first.token)).statusCode).toBe(201);
      const same = await book(second.token);
      expect(same.statusCode).toBe(409);
      expect(same.json()).toMatchObject({ code: 'slot_taken' });

      // Noa 09:30 is booked; an hour from 09:00 would overlap it.
      expect(
        (await book(first.token, { caregiverId: f.noa, ...slot('2027-03-28 09:30') })).statusCode,
      ).toBe(201);
      const overlapping = await book(second.token, {
        caregiverId: f.noa,
        appointmentTypeId: f.rootCanal,
        ...slot('2027-03-28 09:00', 60),
      });
      expect(overlapping.statusCode).toBe(409);
      expect(overlapping.json()).toMatchObject({ code: 'slot_taken' });
      expect(await bookedRows()).toHaveLength(2);
    });

    it('answers 409 existingAppointment for a second booking on the same date', async () => {
      const patient = await onePatient();
      expect((await book(patient.token)).statusCode).toBe(201);
      const sameDate = await book(patient.token, {
        caregiverId: f.noa,
        ...slot('2027-03-25 14:00'),
      });
      expect(sameDate.statusCode).toBe(409);
      expect(sameDate.json()).toMatchObject({
        code: 'existingAppointment',
        message: 'It is not possible to book more than one appointment on the same date',
      });
      // A cancelled appointment does not count; another date is fine.
      const otherDate = await book(patient.token, slot('2027-03-29 09:00'));
      expect(otherDate.statusCode).toBe(201);
      expect(await bookedRows()).toHaveLength(2);
    });

    it('lets exactly one of 100 patients racing for one slot book it, five times over', async () => {
      // One patient may win every round: the cap on upcoming appointments is not under test.
      await db
        .update(clinics)
        .set({ maxUpcomingAppointments: 5 })
        .where(eq(clinics.id, f.clinicId));
      const racers = await patientsOf(100);
      const dates = ['2027-03-25', '2027-03-28', '2027-03-29', '2027-03-30', '2027-03-31'];
      for (const date of dates) {
        const interval = slot(`${date} 09:00`);
        const responses = await Promise.all(racers.map((p) => book(p.token, interval)));
        expect(statusCounts(responses), date).toEqual({ 201: 1, 409: 99 });
        const codes = new Set(
          responses.filter((r) => r.statusCode === 409).map((r) => r.json().code),
        );
        expect([...codes]).toEqual(['slot_taken']);
        const rows = await db
          .select()
          .from(appointments)
          .where(and(eq(appointments.localDate, date), eq(appointments.status, 'booked')));
        expect(rows).toHaveLength(1);
        const winner = responses.find((r) => r.statusCode === 201)?.json<BookedAppointment>();
        expect(rows[0]?.id).toBe(winner?.id);
      }
    });

    it('lets one patient booking two slots of one date at once get only one', async () => {
      const patient = await onePatient();
      const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
        [slot('2027-03-25 09:00'), { caregiverId: f.noa, ...slot('2027-03-25 11:00') }],
        [slot('2027-03-28 09:00'), slot('2027-03-28 10:00')],
        [
          { caregiverId: f.noa, appointmentTypeId: f.rootCanal, ...slot('2027-03-29 09:00', 60) },
          slot('2027-03-29 09:00'),
        ],
      ];
      for (const [a, b] of pairs) {
        const responses = await Promise.all([book(patient.token, a), book(patient.token, b)]);
        expect(statusCounts(responses)).toEqual({ 201: 1, 409: 1 });
        expect(responses.find((r) => r.statusCode === 409)?.json()).toMatchObject({
          code: 'existingAppointment',
        });
      }
      expect(await bookedRows()).toHaveLength(3);
    });
  });

  it('tells which constraint refused a booking, on this engine', async () => {
    // The service checks first; this is the database's own last word when two requests race.
    const repository = createAppointmentsRepository(db);
    const [first, second] = await twoPatients();
    const values = (patientId: number, local: string, caregiverId = f.dana) => ({
      clinicId: f.clinicId,
      caregiverId,
      patientId,
      appointmentTypeId: f.checkup,
      startAt: new Date(at(local)),
      endAt: new Date(at(local) + 30 * MINUTE),
      localDate: local.slice(0, 10),
      detailsSmsCount: 0,
    });
    await repository.insertAppointment(db, values(first.id, '2027-03-25 09:00'));
    const overlap = await repository
      .insertAppointment(db, values(second.id, '2027-03-25 09:15'))
      .catch((error: unknown) => error);
    expect(bookingConflictOf(overlap)).toBe('slot_taken');
    const sameDate = await repository
      .insertAppointment(db, values(first.id, '2027-03-25 11:00', f.noa))
      .catch((error: unknown) => error);
    expect(bookingConflictOf(sameDate)).toBe('existingAppointment');
    // Touching is not overlapping.
    await repository.insertAppointment(db, values(second.id, '2027-03-25 09:30'));
  });

  describe('GET /api/appointment/patient-appointments', () => {
    it("lists the patient's upcoming booked appointments, by start, with the cancel flag", async () => {
      const [patient, other] = await twoPatients();
      await insertAppointment(patient.id, '2027-03-23 09:00'); // past
      await insertAppointment(patient.id, '2027-03-29 09:00', { status: 'cancelled' });
      const sunday = await insertAppointment(patient.id, '2027-03-28 09:00', {
        caregiverId: f.noa,
      });
      // Exactly 24 hours ahead: still cancellable. 23.5 hours ahead: not.
      const tomorrow = await insertAppointment(patient.id, '2027-03-25 10:00');
      // Under way: listed until it ends.
      const ongoing = await insertAppointment(patient.id, '2027-03-24 09:45', {
        caregiverId: f.noa,
      });
      await insertAppointment(other.id, '2027-03-30 09:00');
      const soon = await insertAppointment(other.id, '2027-03-25 09:30');

      const response = await list(patient.token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json<PatientAppointment[]>()).toEqual([
        {
          id: ongoing,
          caregiver_id: f.noa,
          appointment_type_id: f.checkup,
          caregiver_name: 'ד"ר נועה',
          type_name: 'בדיקה תקופתית',
          start_date: '2027-03-24T09:45:00+02:00',
          end_date: '2027-03-24T10:15:00+02:00',
          is_marpe_cancellable: false,
        },
        {
          id: tomorrow,
          caregiver_id: f.dana,
          appointment_type_id: f.checkup,
          caregiver_name: 'ד"ר דנה',
          type_name: 'בדיקה תקופתית',
          start_date: '2027-03-25T10:00:00+02:00',
          end_date: '2027-03-25T10:30:00+02:00',
          is_marpe_cancellable: true,
        },
        {
          id: sunday,
          caregiver_id: f.noa,
          appointment_type_id: f.checkup,
          caregiver_name: 'ד"ר נועה',
          type_name: 'בדיקה תקופתית',
          start_date: '2027-03-28T09:00:00+03:00',
          end_date: '2027-03-28T09:30:00+03:00',
          is_marpe_cancellable: true,
        },
      ]);
      const others = (await list(other.token)).json<PatientAppointment[]>();
      expect(others.map((a) => [a.id, a.is_marpe_cancellable])).toEqual([
        [soon, false],
        [expect.any(Number), true],
      ]);
    });

    it("follows the clinic's cancellation notice", async () => {
      const patient = await onePatient();
      await insertAppointment(patient.id, '2027-03-25 09:30');
      await insertAppointment(patient.id, '2027-03-28 09:00');
      const flags = async () =>
        (await list(patient.token)).json<PatientAppointment[]>().map((a) => a.is_marpe_cancellable);
      expect(await flags()).toEqual([false, true]);
      await db.update(clinics).set({ cancelNoticeMinutes: 0 }).where(eq(clinics.id, f.clinicId));
      expect(await flags()).toEqual([true, true]);
      // Four days: Sunday 09:00 is 94 hours away.
      await db
        .update(clinics)
        .set({ cancelNoticeMinutes: 4 * 24 * 60 })
        .where(eq(clinics.id, f.clinicId));
      expect(await flags()).toEqual([false, false]);
    });

    it('refuses a cancellation notice out of range', async () => {
      await expect(
        db.update(clinics).set({ cancelNoticeMinutes: 43_201 }).where(eq(clinics.id, f.clinicId)),
      ).rejects.toThrow();
    });

    it('answers 401 without a session', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/appointment/patient-appointments',
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('per-patient limits', () => {
    const dates = ['2027-03-25', '2027-03-28', '2027-03-29', '2027-03-30', '2027-03-31'];

    it("holds the clinic's cap on upcoming appointments (3 by default), in a race too", async () => {
      const patient = await onePatient();
      const answers = await Promise.all(
        dates.map((date) => book(patient.token, slot(`${date} 09:00`))),
      );
      expect(statusCounts(answers)).toEqual({ 201: 3, 409: 2 });
      expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({
        code: 'too_many_upcoming',
        details: { max: 3 },
      });
      expect(await bookedRows()).toHaveLength(3);
      // One cancelled, or one over: room for another.
      const last = (await bookedRows()).at(-1);
      expect((await cancel(patient.token, last?.id)).statusCode).toBe(200);
      const free = dates.find(
        (d) => !answers.some((a, i) => a.statusCode === 201 && dates[i] === d),
      );
      expect((await book(patient.token, slot(`${free} 09:00`))).statusCode).toBe(201);

      await db
        .update(clinics)
        .set({ maxUpcomingAppointments: 4 })
        .where(eq(clinics.id, f.clinicId));
      const other = await onePatient();
      for (const date of dates.slice(0, 4)) {
        expect((await book(other.token, slot(`${date} 10:00`))).statusCode).toBe(201);
      }
      expect((await book(other.token, slot(`${dates[4]} 10:00`))).json()).toMatchObject({
        code: 'too_many_upcoming',
      });
    });

    it('counts the cap per phone too: ID numbers sharing a phone share it, in a race too', async () => {
      const [patient, sibling] = await twoPatients();
      await db.update(patients).set({ phone: patient.phone }).where(eq(patients.id, sibling.id));
      const answers = await Promise.all([
        book(patient.token, slot(`${dates[0]} 09:00`)),
        book(sibling.token, slot(`${dates[1]} 09:00`)),
        book(patient.token, slot(`${dates[2]} 09:00`)),
        book(sibling.token, slot(`${dates[3]} 09:00`)),
      ]);
      expect(statusCounts(answers)).toEqual({ 201: 3, 409: 1 });
      expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({
        code: 'too_many_upcoming',
        details: { max: 3 },
      });
      // Another phone is not held back.
      const other = await onePatient();
      expect((await book(other.token, slot(`${dates[4]} 09:00`))).statusCode).toBe(201);
    });

    it("answers the cap and what counts against it: the patient's own, or the phone's when more", async () => {
      const cap = async (token: string) => {
        const response = await app.inject({
          method: 'GET',
          url: '/api/appointment/upcoming-cap',
          headers: bearer(token),
        });
        expect(response.headers['cache-control']).toBe('no-store');
        return response.json<UpcomingCap>();
      };
      const [patient, sibling] = await twoPatients();
      expect(await cap(patient.token)).toEqual({ max: 3, held: 0 });
      await insertAppointment(patient.id, '2027-03-23 09:00'); // past
      await insertAppointment(patient.id, '2027-03-29 09:00', { status: 'cancelled' });
      expect((await book(patient.token, slot(`${dates[0]} 09:00`))).statusCode).toBe(201);
      expect(await cap(patient.token)).toEqual({ max: 3, held: 1 });
      // The sibling on the same phone: the phone's count, which the booking checks too.
      await db.update(patients).set({ phone: patient.phone }).where(eq(patients.id, sibling.id));
      expect((await book(sibling.token, slot(`${dates[1]} 09:00`))).statusCode).toBe(201);
      expect((await book(sibling.token, slot(`${dates[2]} 09:00`))).statusCode).toBe(201);
      expect(await cap(patient.token)).toEqual({ max: 3, held: 3 });
      expect((await book(patient.token, slot(`${dates[3]} 09:00`))).json()).toMatchObject({
        code: 'too_many_upcoming',
      });
      await db
        .update(clinics)
        .set({ maxUpcomingAppointments: 5 })
        .where(eq(clinics.id, f.clinicId));
      expect(await cap(sibling.token)).toEqual({ max: 5, held: 3 });
      const anonymous = await app.inject({ method: 'GET', url: '/api/appointment/upcoming-cap' });
      expect(anonymous.statusCode).toBe(401);
    });

    it('takes 10 bookings and 10 cancellations a day from one patient, then 429', async () => {
      const [patient, other] = await twoPatients();
      for (let i = 0; i < 10; i++) {
        const time = `2027-03-${28 + (i % 2)} ${String(9 + Math.floor(i / 2)).padStart(2, '0')}:00`;
        const booked = await book(patient.token, slot(time));
        expect(booked.statusCode, `booking ${i + 1}: ${booked.body}`).toBe(201);
        const cancelled = await cancel(patient.token, booked.json<BookedAppointment>().id);
        expect(cancelled.statusCode, `cancellation ${i + 1}`).toBe(200);
      }
      const eleventh = await book(patient.token, slot('2027-03-30 09:00'));
      expect(eleventh.statusCode).toBe(429);
      expect(Number(eleventh.headers['retry-after'])).toBe(24 * 3600);
      // Other patients are not affected; a day later the patient may book again.
      expect((await book(other.token, slot('2027-03-29 09:00'))).statusCode).toBe(201);
      now += 24 * 3600_000;
      const [token = ''] = await insertSessions(db, [patient.id], now); // the old one has expired
      expect((await book(token, slot('2027-03-30 09:00'))).statusCode).toBe(201);
    });

    it('sends 10 details messages a day on request, whatever the appointments', async () => {
      await db
        .update(clinics)
        .set({ maxUpcomingAppointments: 5 })
        .where(eq(clinics.id, f.clinicId));
      const patient = await onePatient();
      const bodies = dates.slice(0, 4).map((date) => bookingBody(slot(`${date} 09:00`)));
      for (const body of bodies) expect((await book(patient.token, body)).statusCode).toBe(201);
      const answers = [];
      for (const body of bodies) {
        for (let i = 0; i < 3; i++) {
          // Spaced out: the clinic's message caps allow 3 an hour to one number.
          now += 21 * 60_000;
          answers.push((await sendSms(patient.token, body)).statusCode);
        }
      }
      expect(answers.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(answers.slice(10)).toEqual([429, 429]);
      expect(await messages()).toHaveLength(10);
    });
  });

  describe('POST /api/appointment/patient-appointments/:id/reschedule', () => {
    const reschedule = (token: string, id: unknown, overrides: Record<string, unknown> = {}) =>
      write(
        'POST',
        `/api/appointment/patient-appointments/${String(id)}/reschedule`,
        token,
        bookingBody(overrides),
      );

    it('moves the appointment in one step: the old slot is free, the patient is told', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true }).where(eq(clinics.id, f.clinicId));
      const [patient, other] = await twoPatients();
      const booked = (
        await book(patient.token, slot('2027-03-28 09:00'))
      ).json<BookedAppointment>();

      const moved = await reschedule(patient.token, booked.id, slot('2027-03-29 10:00'));
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toEqual({
        ...booked,
        ...{ start_date: '2027-03-29T10:00:00+03:00', end_date: '2027-03-29T10:30:00+03:00' },
        // The move's notice goes instead of the details (change-notices.test.ts).
        sms_sent: false,
      });
      const listed = (await list(patient.token)).json<PatientAppointment[]>();
      expect(
        listed.map((a) => [a.id, a.start_date, a.caregiver_id, a.appointment_type_id]),
      ).toEqual([[booked.id, '2027-03-29T10:00:00+03:00', f.dana, f.checkup]]);
      expect((await book(other.token, slot('2027-03-28 09:00'))).statusCode).toBe(201);
      const texts = (await messages()).filter((m) => m.to === patient.phone).map((m) => m.body);
      expect(texts).toHaveLength(2);
      expect(texts[0]).toContain('הועבר מ-28/03/2027 09:00 ל-29/03/2027 בשעה 10:00');
    });

    it('answers 409 slot_taken when the new slot was taken, keeping the old appointment', async () => {
      const [patient, other] = await twoPatients();
      const booked = (
        await book(patient.token, slot('2027-03-28 09:00'))
      ).json<BookedAppointment>();
      expect((await book(other.token, slot('2027-03-29 10:00'))).statusCode).toBe(201);
      const refused = await reschedule(patient.token, booked.id, slot('2027-03-29 10:00'));
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'slot_taken' });
      const [row] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
      expect(row).toMatchObject({ status: 'booked', startAt: new Date(at('2027-03-28 09:00')) });
    });

    it('counts the moved appointment as itself for one-per-date and for its own interval', async () => {
      const patient = await onePatient();
      const rootCanal = (at: string) => ({
        caregiverId: f.noa,
        appointmentTypeId: f.rootCanal,
        ...slot(at, 60),
      });
      const first = (
        await book(patient.token, rootCanal('2027-03-28 09:00'))
      ).json<BookedAppointment>();
      expect((await book(patient.token, slot('2027-03-29 09:00'))).statusCode).toBe(201);
      // The same date, overlapping its own old interval: fine.
      const later = await reschedule(patient.token, first.id, rootCanal('2027-03-28 09:30'));
      expect(later.statusCode, later.body).toBe(200);
      // Onto the date of the patient's other appointment: one per date.
      const sameDate = await reschedule(patient.token, first.id, slot('2027-03-29 11:00'));
      expect(sameDate.statusCode).toBe(409);
      expect(sameDate.json()).toMatchObject({ code: 'existingAppointment' });
      // To another caregiver and type at once.
      const toNoa = await reschedule(patient.token, first.id, {
        caregiverId: f.noa,
        appointmentTypeId: f.rootCanal,
        ...slot('2027-03-30 09:00', 60),
      });
      expect(toNoa.statusCode, toNoa.body).toBe(200);
      expect(toNoa.json()).toMatchObject({ caregiver_id: f.noa, appointment_type_id: f.rootCanal });
      // Its current slot again is not a move.
      expectInvalid(
        await reschedule(patient.token, first.id, {
          caregiverId: f.noa,
          appointmentTypeId: f.rootCanal,
          ...slot('2027-03-30 09:00', 60),
        }),
        'startDate',
      );
    });

    it("refuses another patient's, a cancelled and a no-longer-cancellable appointment", async () => {
      const [patient, other] = await twoPatients();
      const theirs = await insertAppointment(other.id, '2027-03-28 09:00');
      const soon = await insertAppointment(patient.id, '2027-03-24 16:00');
      const cancelled = await insertAppointment(patient.id, '2027-03-29 09:00', {
        status: 'cancelled',
      });
      const target = slot('2027-03-30 09:00');
      expect((await reschedule(patient.token, theirs, target)).statusCode).toBe(404);
      expect((await reschedule(patient.token, 'abc', target)).statusCode).toBe(400);
      for (const id of [soon, cancelled]) {
        const refused = await reschedule(patient.token, id, target);
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toMatchObject({ code: 'not_cancellable' });
      }
      expect(await bookedRows()).toHaveLength(2);
    });

    it('lets exactly one of 50 patients moving to one free slot win; the others keep theirs', async () => {
      const racers = await patientsOf(50);
      const days = ['2027-03-28', '2027-03-29', '2027-03-30', '2027-03-31'];
      const before = new Map<number, number>();
      for (const [i, racer] of racers.entries()) {
        const minutes = 9 * 60 + Math.floor(i / 8) * 30;
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        const caregiverId = i % 2 === 0 ? f.dana : f.noa;
        before.set(
          racer.id,
          await insertAppointment(racer.id, `${days[(i >> 1) % 4]} ${time}`, { caregiverId }),
        );
      }
      const rowsBefore = await bookedRows();
      const answers = await Promise.all(
        racers.map((racer) =>
          reschedule(racer.token, before.get(racer.id), slot('2027-04-01 09:00')),
        ),
      );
      expect(statusCounts(answers)).toEqual({ 200: 1, 409: 49 });
      expect(
        new Set(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code)),
      ).toEqual(new Set(['slot_taken']));
      const rowsAfter = await bookedRows();
      expect(rowsAfter).toHaveLength(50);
      const winner = answers.find((a) => a.statusCode === 200)?.json<BookedAppointment>();
      for (const row of rowsAfter) {
        const was = rowsBefore.find((r) => r.id === row.id);
        if (row.id === winner?.id) expect(row.startAt).toEqual(new Date(at('2027-04-01 09:00')));
        else expect(row).toEqual(was);
      }
    });

    it('changes nothing when the transaction fails after the move', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true }).where(eq(clinics.id, f.clinicId));
      const patient = await onePatient();
      const booked = (
        await book(patient.token, slot('2027-03-28 09:00'))
      ).json<BookedAppointment>();
      const rowBefore = (await bookedRows())[0];
      // The details SMS is queued after the row moved: make that insert fail.
      await db.execute(sql`
        CREATE FUNCTION refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`);
      await db.execute(
        sql`CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_outbox()`,
      );
      try {
        const failed = await reschedule(patient.token, booked.id, slot('2027-03-29 10:00'));
        expect(failed.statusCode).toBe(500);
      } finally {
        await db.execute(sql`DROP TRIGGER refuse_outbox ON outbox`);
        await db.execute(sql`DROP FUNCTION refuse_outbox()`);
      }
      expect(await bookedRows()).toEqual([rowBefore]);
      const other = await onePatient();
      // The new slot was never taken, and the old one is still held.
      expect((await book(other.token, slot('2027-03-29 10:00'))).statusCode).toBe(201);
      expect((await book(other.token, slot('2027-03-28 09:00'))).statusCode).toBe(409);
    });
  });

  describe('PUT /api/appointment/patient-appointments', () => {
    it('cancels, and the freed slot can be booked again at once', async () => {
      const [patient, other] = await twoPatients();
      const booked = (
        await book(patient.token, slot('2027-03-28 09:00'))
      ).json<BookedAppointment>();
      expect((await book(other.token, slot('2027-03-28 09:00'))).statusCode).toBe(409);

      const response = await cancel(patient.token, booked.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
      const [row] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
      expect(row).toMatchObject({ status: 'cancelled', cancelledAt: new Date(NOW) });
      expect((await list(patient.token)).json()).toEqual([]);

      const again = await book(other.token, slot('2027-03-28 09:00'));
      expect(again.statusCode, again.body).toBe(201);
      // The patient may book that date again too (another slot).
      expect((await book(patient.token, slot('2027-03-28 10:00'))).statusCode).toBe(201);
    });

    it('answers 409 not_cancellable within the notice or when already cancelled', async () => {
      const patient = await onePatient();
      const soon = await insertAppointment(patient.id, '2027-03-25 09:30');
      const late = await cancel(patient.token, soon);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: 'not_cancellable' });

      const later = await insertAppointment(patient.id, '2027-03-29 09:00');
      expect((await cancel(patient.token, later)).statusCode).toBe(200);
      const twice = await cancel(patient.token, later);
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({ code: 'not_cancellable' });
      expect((await bookedRows()).map((r) => r.id)).toEqual([soon]);
    });

    it("answers 404 for another patient's appointment or an unknown one, and 400 for a bad id", async () => {
      const [patient, other] = await twoPatients();
      const theirs = await insertAppointment(other.id, '2027-03-29 09:00');
      for (const id of [theirs, 999_999]) {
        const response = await cancel(patient.token, id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'appointment_not_found' });
      }
      expect((await list(patient.token)).json()).toEqual([]);
      expect((await bookedRows()).map((r) => r.id)).toEqual([theirs]);
      for (const id of [0, 'x', 1.5, 2_147_483_648]) {
        expectInvalid(await cancel(patient.token, id), 'appointmentId');
      }
    });

    it('answers 403 without the anti-forgery header', async () => {
      const patient = await onePatient();
      const id = await insertAppointment(patient.id, '2027-03-29 09:00');
      const response = await app.inject({
        method: 'PUT',
        url: '/api/appointment/patient-appointments',
        payload: { appointmentId: id },
        headers: bearer(patient.token),
      });
      expect(response.statusCode).toBe(403);
      expect((await bookedRows()).map((r) => r.id)).toEqual([id]);
    });
  });

  describe('details SMS', () => {
    const expectedText = [
      'פרטי התור שלך במרפאת הבדיקות:',
      'בדיקה תקופתית עם ד"ר דנה',
      'בתאריך 28/03/2027 בשעה 09:00',
      'כתובת: הרצל 12, תל אביב-יפו',
    ].join('\n');

    it('goes out exactly once, with the booking, when the clinic sends it automatically', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true }).where(eq(clinics.id, f.clinicId));
      const racers = await patientsOf(10);
      const responses = await Promise.all(
        racers.map((p) => book(p.token, slot('2027-03-28 09:00'))),
      );
      expect(statusCounts(responses)).toEqual({ 201: 1, 409: 9 });
      const won = responses.findIndex((r) => r.statusCode === 201);
      expect(responses[won]?.json()).toMatchObject({ sms_sent: true });
      const phone = racers[won]?.phone;

      const sent = await messages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([[phone, expectedText]]);
      const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(outbox)) as [
        { count: number },
      ];
      expect(count).toBe(1);
    });

    it('is sent on request for the patient’s own appointment, matched as instants', async () => {
      const [patient, other] = await twoPatients();
      const body = bookingBody(slot('2027-03-28 09:00'));
      expect((await book(patient.token, body)).json()).toMatchObject({ sms_sent: false });
      expect(await messages()).toEqual([]);

      const response = await sendSms(patient.token, body);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
      expect((await messages()).map((m) => [m.to, m.body])).toEqual([
        [patient.phone, expectedText],
      ]);

      const utc = await sendSms(patient.token, {
        ...body,
        startDate: '2027-03-28T06:00:00Z',
        endDate: '2027-03-28T06:30:00Z',
      });
      expect(utc.statusCode).toBe(200);

      // Not theirs, or not that appointment: 404.
      for (const [token, wrong] of [
        [other.token, body],
        [patient.token, { ...body, ...slot('2027-03-28 09:30') }],
        [patient.token, { ...body, caregiverId: f.noa }],
      ] as const) {
        const refused = await sendSms(token, wrong);
        expect(refused.statusCode).toBe(404);
        expect(refused.json()).toMatchObject({ code: 'appointment_not_found' });
      }
      const foreign = await sendSms(patient.token, { ...body, clinicId: f.otherClinicId });
      expect(foreign.statusCode).toBe(403);
      expect(await messages()).toHaveLength(2);
    });

    it('speaks the language the patient booked in, on booking and when asked again', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true }).where(eq(clinics.id, f.clinicId));
      const patient = await onePatient();
      const body = bookingBody(slot('2027-03-28 09:00'));
      const booked = await app.inject({
        method: 'POST',
        url: '/api/appointment',
        payload: body,
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token), 'accept-language': 'en' },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const english = [
        'Your appointment at מרפאת הבדיקות:',
        'בדיקה תקופתית with ד"ר דנה',
        'On 28/03/2027 at 09:00',
        'Address: הרצל 12, תל אביב-יפו',
      ].join('\n');
      expect((await messages()).map((m) => m.body)).toEqual([english]);
      // Asked again from a page in Hebrew: still the booking's language.
      expect((await sendSms(patient.token, body)).statusCode).toBe(200);
      expect((await messages()).map((m) => m.body)).toEqual([english, english]);
    });

    it('stops at three for one appointment, the automatic one included', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true }).where(eq(clinics.id, f.clinicId));
      const patient = await onePatient();
      const body = bookingBody(slot('2027-03-28 09:00'));
      expect((await book(patient.token, body)).statusCode).toBe(201);
      expect((await sendSms(patient.token, body)).statusCode).toBe(200);
      expect((await sendSms(patient.token, body)).statusCode).toBe(200);
      const fourth = await sendSms(patient.token, body);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({ code: 'too_many_requests' });
      expect(await messages()).toHaveLength(3);
    });

    it('is not sent for a cancelled or past appointment', async () => {
      const patient = await onePatient();
      const body = bookingBody(slot('2027-03-28 09:00'));
      const booked = (await book(patient.token, body)).json<BookedAppointment>();
      expect((await cancel(patient.token, booked.id)).statusCode).toBe(200);
      expect((await sendSms(patient.token, body)).statusCode).toBe(404);

      await insertAppointment(patient.id, '2027-03-24 08:00');
      const past = await sendSms(patient.token, bookingBody(slot('2027-03-24 08:00')));
      expect(past.statusCode).toBe(404);
      // The cancellation's notice only.
      expect((await messages()).map((m) => m.body)).toEqual([expect.stringContaining('בוטל')]);
    });
  });

  it('works end to end for a patient who logs in by SMS code', async () => {
    const idNumber = [...'0123456789']
      .map((d) => `03141592${d}`)
      .find((id) => isValidIsraeliId(id)) as string;
    const phone = '0521234567';
    await db.insert(patients).values({
      clinicId: f.clinicId,
      idNumber,
      firstName: 'רות',
      lastName: 'כהן',
      phone,
    });
    const login = await write('POST', '/api/patient-auth/login', null, {
      clinicId: f.clinicId,
      idNumber,
      phone,
    });
    expect(login.statusCode, login.body).toBe(200);
    const code = /#(\d{6})$/.exec((await messages())[0]?.body ?? '')?.[1] ?? '';
    const verified = await write('POST', '/api/patient-auth/two-factor', null, {
      idNumber,
      code,
      twoFactorToken: login.json().twoFactorToken,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const token: string = verified.json().token;

    const booked = await book(token, slot('2027-03-29 09:00'));
    expect(booked.statusCode, booked.body).toBe(201);
    const listed = (await list(token)).json<PatientAppointment[]>();
    expect(listed.map((a) => [a.id, a.start_date, a.is_marpe_cancellable])).toEqual([
      [booked.json().id, '2027-03-29T09:00:00+03:00', true],
    ]);
    expect((await cancel(token, booked.json().id)).statusCode).toBe(200);
    expect((await list(token)).json()).toEqual([]);
  });
});
