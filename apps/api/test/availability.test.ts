import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClinicData, Slot } from '@marpe/shared';
import { buildApp, type App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregiverBreaks,
  caregivers,
  caregiverScheduleExceptionHours,
  caregiverScheduleExceptions,
  caregiverWorkingHours,
  clinics,
  patients,
} from '../src/platform/db/schema.js';
import { engines, testConfig, testDataKey, useTestDatabase } from './helper.js';
import { clinicRow } from './fixtures.js';

/** Wednesday 2027-03-24, 10:00 in Israel. Clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

const SUNDAY = 0;
const THURSDAY = 4;
const FRIDAY = 5;

interface Fixture {
  clinicId: number;
  otherClinicId: number;
  /** Thu 16–20, Fri 08–12 less a 10:00–10:30 break, Sun 09–10; step 30, notice 60, horizon 10. */
  dana: number;
  /** Friday 01:00–04:00 only, across the clocks' jump; notice 0. */
  night: number;
  inactive: number;
  /** Works at the other clinic. */
  stranger: number;
}

async function insertFixture(db: Database): Promise<Fixture> {
  const [main, other] = await db
    .insert(clinics)
    .values([clinicRow('Fixture'), clinicRow('Other')])
    .returning({ id: clinics.id });
  if (!main || !other) throw new Error('fixture: clinics');

  const [type] = await db
    .insert(appointmentTypes)
    .values({ clinicId: main.id, name: 'סתימה', durationMinutes: 30 })
    .returning({ id: appointmentTypes.id });
  if (!type) throw new Error('fixture: type');

  const staff = await db
    .insert(caregivers)
    .values([
      {
        clinicId: main.id,
        name: 'Dana',
        licenseNumber: '1-1',
        slotStepMinutes: 30,
        minNoticeMinutes: 60,
        bookingHorizonDays: 10,
        sortOrder: 0,
      },
      {
        clinicId: main.id,
        name: 'Night',
        licenseNumber: '1-2',
        slotStepMinutes: 30,
        minNoticeMinutes: 0,
        sortOrder: 1,
      },
      { clinicId: main.id, name: 'Gone', licenseNumber: '1-3', isActive: false, sortOrder: 2 },
      { clinicId: other.id, name: 'Stranger', licenseNumber: '1-4' },
    ])
    .returning({ id: caregivers.id });
  const [dana, night, inactive, stranger] = staff.map((c) => c.id);
  if (!dana || !night || !inactive || !stranger) throw new Error('fixture: caregivers');

  await db.insert(caregiverAppointmentTypes).values([
    { caregiverId: dana, appointmentTypeId: type.id },
    { caregiverId: night, appointmentTypeId: type.id },
  ]);
  const hours = (caregiverId: number, weekDay: number, startTime: string, endTime: string) => ({
    caregiverId,
    weekDay,
    startTime,
    endTime,
  });
  await db
    .insert(caregiverWorkingHours)
    .values([
      hours(dana, THURSDAY, '16:00', '20:00'),
      hours(dana, FRIDAY, '08:00', '12:00'),
      hours(dana, SUNDAY, '09:00', '10:00'),
      hours(night, FRIDAY, '01:00', '04:00'),
      hours(inactive, FRIDAY, '08:00', '12:00'),
      hours(stranger, FRIDAY, '08:00', '12:00'),
    ]);
  await db
    .insert(caregiverBreaks)
    .values({ caregiverId: dana, weekDay: FRIDAY, startTime: '10:00', endTime: '10:30' });
  const [, changed] = await db
    .insert(caregiverScheduleExceptions)
    .values([
      { caregiverId: dana, date: '2027-03-28' },
      { caregiverId: dana, date: '2027-04-01' },
    ])
    .returning({ id: caregiverScheduleExceptions.id });
  if (!changed) throw new Error('fixture: exceptions');
  await db
    .insert(caregiverScheduleExceptionHours)
    .values({ exceptionId: changed.id, startTime: '08:00', endTime: '09:00' });

  const [patient] = await db
    .insert(patients)
    .values({
      clinicId: main.id,
      idNumber: '000000018',
      firstName: 'דנה',
      lastName: 'לוי',
      phone: '0501234567',
    })
    .returning({ id: patients.id });
  if (!patient) throw new Error('fixture: patient');
  const booking = (start: string, end: string, status: 'booked' | 'cancelled') => ({
    clinicId: main.id,
    caregiverId: dana,
    patientId: patient.id,
    appointmentTypeId: type.id,
    startAt: new Date(start),
    endAt: new Date(end),
    localDate: start.slice(0, 10),
    status,
  });
  await db.insert(appointments).values([
    booking('2027-03-26T09:00:00+03:00', '2027-03-26T09:30:00+03:00', 'booked'),
    // Cancelled: frees its slot.
    booking('2027-03-25T16:00:00+02:00', '2027-03-25T16:30:00+02:00', 'cancelled'),
  ]);

  return { clinicId: main.id, otherClinicId: other.id, dana, night, inactive, stranger };
}

describe.each(engines)('availability calls (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let app: App;
  let f: Fixture;

  beforeAll(async () => {
    app = await buildApp({
      config: testConfig(),
      database: database.current.handle,
      dataKey: testDataKey,
      webDistDir: null,
      clock: () => now,
    });
    await app.ready();
  });
  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    f = await insertFixture(database.current.handle.db);
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (path: string, query: Record<string, string | number>) =>
    app.inject({
      method: 'GET',
      url: `/api/appointment/${path}`,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });

  const dates = (query: Record<string, string | number> = {}) =>
    call('available-dates', {
      clinicId: f.clinicId,
      caregiverId: f.dana,
      duration: 30,
      ...query,
    });
  const slots = (startDate: string, endDate: string, query: Record<string, string | number> = {}) =>
    call('available-slots', {
      clinicId: f.clinicId,
      caregiverId: f.dana,
      duration: 30,
      startDate,
      endDate,
      ...query,
    });

  const starts = (body: Slot[]) => body.map((s) => s.start);

  const expectInvalid = (
    response: Awaited<ReturnType<typeof call>>,
    field: string,
  ): { message: string } => {
    expect(response.statusCode).toBe(400);
    const body = response.json<{
      code: string;
      details: { issues: { path: string; message: string }[] };
    }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((i) => i.path)).toContain(field);
    return body.details.issues.find((i) => i.path === field) ?? { message: '' };
  };

  describe('GET /api/appointment/available-dates', () => {
    it('lists the dates with a free slot, today to the last bookable date', async () => {
      const response = await dates();
      expect(response.statusCode).toBe(200);
      // Horizon 10 days: Wed 03-24 … Fri 04-02. Sunday 03-28 is a day off; Thursday 04-01 has
      // changed hours; Friday 03-26 is the day the clocks go forward.
      expect(response.json()).toEqual(['2027-03-25', '2027-03-26', '2027-04-01', '2027-04-02']);
    });

    it('depends on the length asked for', async () => {
      // Four hours fit only into Thursday's 16:00–20:00; Friday has a break mid-morning.
      const response = await dates({ duration: 240 });
      expect(response.json()).toEqual(['2027-03-25']);
    });

    it('answers 404 for an unknown clinic and for a caregiver not (or no longer) of it', async () => {
      const unknownClinic = await dates({ clinicId: 999_999 });
      expect(unknownClinic.statusCode).toBe(404);
      expect(unknownClinic.json()).toMatchObject({ code: 'clinic_not_found' });
      const huge = await dates({ clinicId: 99_999_999_999 });
      expect(huge.json()).toMatchObject({ code: 'clinic_not_found' });

      for (const caregiverId of [f.stranger, f.inactive, 999_999, 2_147_483_648]) {
        const response = await dates({ caregiverId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'caregiver_not_found' });
      }
    });

    it.each([['x'], [0], [1.5], [481], ['']])('answers 400 naming duration for %j', async (d) => {
      expectInvalid(await dates({ duration: d }), 'duration');
    });

    it('answers 400 naming each missing or bad id', async () => {
      expectInvalid(
        await call('available-dates', { clinicId: f.clinicId, duration: 30 }),
        'caregiverId',
      );
      expectInvalid(await dates({ clinicId: 'abc' }), 'clinicId');
      expectInvalid(await dates({ caregiverId: -4 }), 'caregiverId');
    });
  });

  describe('GET /api/appointment/available-slots', () => {
    it('gives slots with the right offset on either side of the clocks going forward', async () => {
      const response = await slots('2027-03-25 18:00', '2027-03-26 11:00');
      expect(response.statusCode).toBe(200);
      expect(starts(response.json())).toEqual([
        '2027-03-25T18:00:00+02:00',
        '2027-03-25T18:30:00+02:00',
        '2027-03-25T19:00:00+02:00',
        '2027-03-25T19:30:00+02:00',
        // Friday: summer time. 09:00 is booked, 10:00 is the break; a start at endDate counts.
        '2027-03-26T08:00:00+03:00',
        '2027-03-26T08:30:00+03:00',
        '2027-03-26T09:30:00+03:00',
        '2027-03-26T10:30:00+03:00',
        '2027-03-26T11:00:00+03:00',
      ]);
      expect(response.json<Slot[]>()[0]).toEqual({
        start: '2027-03-25T18:00:00+02:00',
        end: '2027-03-25T18:30:00+02:00',
      });
    });

    it('counts real time through the skipped hour of the night', async () => {
      // 01:00–04:00 on the night of the change lasts two real hours: 02:00 is 03:00.
      const response = await slots('2027-03-26 00:00', '2027-03-26 23:59', {
        caregiverId: f.night,
      });
      expect(response.json()).toEqual([
        { start: '2027-03-26T01:00:00+02:00', end: '2027-03-26T01:30:00+02:00' },
        { start: '2027-03-26T01:30:00+02:00', end: '2027-03-26T03:00:00+03:00' },
        { start: '2027-03-26T03:00:00+03:00', end: '2027-03-26T03:30:00+03:00' },
        { start: '2027-03-26T03:30:00+03:00', end: '2027-03-26T04:00:00+03:00' },
      ]);
    });

    it('frees the slot of a cancelled appointment', async () => {
      const response = await slots('2027-03-25 00:00', '2027-03-25 23:59');
      expect(starts(response.json())[0]).toBe('2027-03-25T16:00:00+02:00');
    });

    it('starts no earlier than now plus the minimum notice', async () => {
      now = Date.parse('2027-03-25T17:10:00+02:00');
      const response = await slots('2027-03-25 00:00', '2027-03-25 23:59');
      expect(starts(response.json())).toEqual([
        '2027-03-25T18:30:00+02:00',
        '2027-03-25T19:00:00+02:00',
        '2027-03-25T19:30:00+02:00',
      ]);
    });

    it('means today in clinic time when no dates are given', async () => {
      now = Date.parse('2027-03-25T17:10:00+02:00');
      const noDates = await call('available-slots', {
        clinicId: f.clinicId,
        caregiverId: f.dana,
        duration: 30,
      });
      expect(noDates.statusCode).toBe(200);
      const today = await slots('2027-03-25 00:00', '2027-03-25 23:59');
      expect(noDates.json()).toEqual(today.json());
      expect(starts(noDates.json()).length).toBeGreaterThan(0);

      // Only a start: until the end of that day.
      const startOnly = await call('available-slots', {
        clinicId: f.clinicId,
        caregiverId: f.dana,
        duration: 30,
        startDate: '2027-03-26 00:00',
      });
      const friday = await slots('2027-03-26 00:00', '2027-03-26 23:59');
      expect(startOnly.json()).toEqual(friday.json());
    });

    it('answers [] for a range wholly in the past', async () => {
      const response = await slots('2027-03-18 00:00', '2027-03-19 23:59');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });

    it('allows the last bookable date and refuses past it, naming endDate and the horizon', async () => {
      const last = await slots('2027-04-02 00:00', '2027-04-02 23:59');
      expect(last.statusCode).toBe(200);
      expect(starts(last.json())[0]).toBe('2027-04-02T08:00:00+03:00');

      const past = await slots('2027-04-02 00:00', '2027-04-03 00:00');
      expect(expectInvalid(past, 'endDate').message).toMatch(/horizon/);
    });

    it('answers 400 naming endDate when it comes before startDate', async () => {
      expectInvalid(await slots('2027-03-26 10:00', '2027-03-26 09:59'), 'endDate');
    });

    it.each([['2027-02-30 10:00'], ['2027-03-26T10:00'], ['2027-03-26'], ['2027-03-26 24:00']])(
      'answers 400 naming startDate for %j',
      async (startDate) => {
        expectInvalid(await slots(startDate, '2027-03-26 23:59'), 'startDate');
      },
    );

    it.each([['x'], [0], [1.5]])('answers 400 naming duration for %j', async (duration) => {
      expectInvalid(await slots('2027-03-26 00:00', '2027-03-26 23:59', { duration }), 'duration');
    });

    it('answers 404 like available-dates', async () => {
      const clinic = await slots('2027-03-26 00:00', '2027-03-26 23:59', { clinicId: 999_999 });
      expect(clinic.json()).toMatchObject({ code: 'clinic_not_found' });
      const caregiver = await slots('2027-03-26 00:00', '2027-03-26 23:59', {
        caregiverId: f.stranger,
      });
      expect(caregiver.statusCode).toBe(404);
      expect(caregiver.json()).toMatchObject({ code: 'caregiver_not_found' });
    });
  });

  it("agrees with the clinic page's first available slot", async () => {
    const response = await app.inject({ method: 'GET', url: `/api/clinic/${f.clinicId}` });
    const data = response.json<ClinicData>();
    expect(data.caregivers.map((c) => [c.name, c.first_available_slot])).toEqual([
      ['Dana', { start: '2027-03-25T16:00:00+02:00' }],
      ['Night', { start: '2027-03-26T01:00:00+02:00' }],
    ]);
    const first = await slots('2027-03-24 00:00', '2027-03-25 23:59');
    expect(starts(first.json())[0]).toBe('2027-03-25T16:00:00+02:00');
  });
});
