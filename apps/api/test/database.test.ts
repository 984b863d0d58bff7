// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { zonedDate } from '../src/platform/zoned-time.js';
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
import { engines, useTestDatabase } from './helper.js';
import { closedWeek } from './fixtures.js';

/** The SQLSTATE of a rejected statement, through drizzle's wrapping. */
async function sqlStateOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    for (let e: unknown = error; e instanceof Error; e = e.cause) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string') return code;
    }
    throw error;
  }
  return undefined;
}

const EXCLUSION_VIOLATION = '23P01';
const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';

/** The Israeli ID check: digits weighted 1,2,1,2…, two-digit products summed as digits, sum % 10 = 0. */
function isValidIsraeliId(id: string): boolean {
  let sum = 0;
  for (let i = 0; i < id.length; i++) {
    const product = Number(id[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return /^\d{9}$/.test(id) && sum % 10 === 0;
}

describe.each(engines)('database (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database.current.handle.db;

  beforeEach(async () => {
    await database.current.reset();
  });

  it('applies the migrations again without error', async () => {
    await database.current.handle.migrate();
    await database.current.handle.migrate();
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(clinics);
    expect(row?.n).toBe(0);
  });

  it('checks appointment type durations', async () => {
    await seedDemoClinic(db());
    const insert = (durationMinutes: number) =>
      db()
        .insert(appointmentTypes)
        .values({ clinicId: DEMO_CLINIC_ID, name: 'x', durationMinutes });
    expect(await sqlStateOf(insert(0))).toBe('23514');
    expect(await sqlStateOf(insert(481))).toBe('23514');
    expect(await sqlStateOf(insert(480))).toBeUndefined();
  });

  describe('seeding the demo clinic', () => {
    it('creates clinic 1 with its caregivers and appointment types, idempotently', async () => {
      expect(await seedDemoClinic(db())).toBe(true);
      expect(await seedDemoClinic(db())).toBe(true);

      const allClinics = await db().select().from(clinics).orderBy(asc(clinics.id));
      expect(allClinics.map((c) => c.id)).toEqual([DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID]);
      const clinic = allClinics[0];
      expect(clinic).toMatchObject({
        id: 1,
        name: 'מרפאת שיניים לב העיר',
        city: 'תל אביב-יפו',
        isAcceptNewPatients: true,
        isAutoSmsEnabled: false,
        timezone: 'Asia/Jerusalem',
      });
      expect(clinic?.description).toContain('\n');
      expect(clinic?.openingHours.days.saturday).toBeNull();
      expect(clinic?.openingHours.days.friday).toEqual({ start: '08:00', end: '13:00' });
      expect(clinic).toMatchObject({
        defaultSlotStepMinutes: 15,
        defaultMinNoticeMinutes: 120,
        defaultBookingHorizonDays: 60,
      });
      expect(allClinics[1]).toMatchObject({
        name: 'מרפאת השיניים הכרמל',
        city: 'חיפה',
        imageUrl: null,
        logoUrl: null,
      });

      const staff = await db()
        .select()
        .from(caregivers)
        .where(eq(caregivers.clinicId, 1))
        .orderBy(asc(caregivers.sortOrder));
      expect(staff.length).toBeGreaterThanOrEqual(3);
      expect(staff.some((c) => c.image === null)).toBe(true);
      expect(staff.some((c) => c.image?.startsWith('/demo/'))).toBe(true);

      const types = await db().select().from(appointmentTypes);
      expect(types.length).toBeGreaterThanOrEqual(3);
      const links = await db().select().from(caregiverAppointmentTypes);
      for (const caregiver of staff) {
        expect(links.some((l) => l.caregiverId === caregiver.id)).toBe(true);
      }
    });

    it('gives clinic 1 schedules (but not its 4th caregiver) and clinic 2 none', async () => {
      await seedDemoClinic(db());
      const staff = await db()
        .select({ id: caregivers.id, clinicId: caregivers.clinicId })
        .from(caregivers)
        .orderBy(asc(caregivers.clinicId), asc(caregivers.sortOrder));
      const hours = await db().select().from(caregiverWorkingHours);
      const withHours = staff.map((c) => hours.some((h) => h.caregiverId === c.id));
      expect(withHours).toEqual([true, true, true, false, ...staff.slice(4).map(() => false)]);
      expect(staff.filter((c) => c.clinicId === DEMO_SETUP_CLINIC_ID).length).toBeGreaterThan(0);
      expect(hours.every((h) => h.startTime < h.endTime)).toBe(true);
      expect((await db().select().from(caregiverBreaks)).length).toBeGreaterThan(0);
      expect((await db().select().from(caregiverScheduleExceptions)).length).toBeGreaterThan(0);
    });

    it('books demo patients ahead of the seed time, by the rules', async () => {
      const now = Date.parse('2027-03-22T09:00:00+02:00');
      await seedDemoClinic(db(), { now });
      const demoPatients = await db().select().from(patients);
      expect(demoPatients.length).toBeGreaterThanOrEqual(3);
      for (const patient of demoPatients) {
        expect(isValidIsraeliId(patient.idNumber)).toBe(true);
        expect(patient.phone).toMatch(/^05\d{8}$/);
      }
      // Upcoming ones within the next week (one per patient); the rest two weeks earlier.
      const booked = await db().select().from(appointments);
      const upcoming = booked.filter((a) => a.startAt.getTime() > now);
      expect(upcoming.length).toBeGreaterThanOrEqual(3);
      expect(booked.length).toBeGreaterThanOrEqual(5);
      for (const appointment of booked) {
        expect(appointment.status).toBe('booked');
        expect(appointment.startAt.getTime()).toBeGreaterThan(now - 14 * 86_400_000);
        expect(appointment.startAt.getTime()).toBeLessThan(now + 8 * 86_400_000);
        expect(appointment.localDate).toBe(
          zonedDate(appointment.startAt.getTime(), 'Asia/Jerusalem'),
        );
      }
      // Re-seeding later moves them with the clock.
      const later = now + 30 * 86_400_000;
      await seedDemoClinic(db(), { now: later });
      const moved = await db().select().from(appointments);
      expect(moved.every((a) => a.startAt.getTime() > later - 14 * 86_400_000)).toBe(true);
      expect(moved.filter((a) => a.startAt.getTime() > later)).toHaveLength(upcoming.length);
    });

    it('leaves the identity sequence past the explicit id 1', async () => {
      await seedDemoClinic(db());
      await seedDemoClinic(db());
      const [other] = await db()
        .insert(clinics)
        .values({
          name: 'Other',
          phone: '04-1234567',
          street: 'x',
          homeNumber: '1',
          city: 'Haifa',
          openingHours: { title: null, days: closedWeek },
        })
        .returning({ id: clinics.id });
      expect(other?.id).toBeGreaterThan(DEMO_SETUP_CLINIC_ID);
    });

    it('with onlyIfEmpty, does nothing when a clinic exists', async () => {
      expect(await seedDemoClinic(db(), { onlyIfEmpty: true })).toBe(true);
      expect(await seedDemoClinic(db(), { onlyIfEmpty: true })).toBe(false);
    });
  });

  describe('booking constraints', () => {
    let ids: {
      caregiverA: number;
      caregiverB: number;
      type: number;
      patientA: number;
      patientB: number;
    };

    beforeEach(async () => {
      await seedDemoClinic(db());
      // The demo's own bookings would only get in the way of counting these tests' rows.
      await db().delete(appointments);
      const [a, b] = await db()
        .select({ id: caregivers.id })
        .from(caregivers)
        .where(eq(caregivers.clinicId, DEMO_CLINIC_ID))
        .orderBy(asc(caregivers.sortOrder));
      const [type] = await db()
        .select({ id: appointmentTypes.id })
        .from(appointmentTypes)
        .where(eq(appointmentTypes.clinicId, DEMO_CLINIC_ID));
      const [pa, pb] = await db()
        .insert(patients)
        .values([
          {
            clinicId: 1,
            idNumber: '000000018',
            firstName: 'דנה',
            lastName: 'לוי',
            phone: '0501234567',
          },
          {
            clinicId: 1,
            idNumber: '000000026',
            firstName: 'יוסי',
            lastName: 'כהן',
            phone: '0527654321',
          },
        ])
        .returning({ id: patients.id });
      if (!a || !b || !type || !pa || !pb) throw new Error('seed incomplete');
      ids = { caregiverA: a.id, caregiverB: b.id, type: type.id, patientA: pa.id, patientB: pb.id };
    });

    const book = (
      caregiverId: number,
      patientId: number,
      start: string,
      end: string,
      status: 'booked' | 'cancelled' = 'booked',
    ) =>
      db()
        .insert(appointments)
        .values({
          clinicId: 1,
          caregiverId,
          patientId,
          appointmentTypeId: ids.type,
          status,
          startAt: new Date(start),
          endAt: new Date(end),
          localDate: start.slice(0, 10),
        })
        .returning({ id: appointments.id });

    it('rejects an overlapping booked appointment for the same caregiver', async () => {
      await book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-10T08:00:00+02:00',
        '2030-03-10T08:30:00+02:00',
      );
      const overlap = book(
        ids.caregiverA,
        ids.patientB,
        '2030-03-10T08:20:00+02:00',
        '2030-03-10T08:50:00+02:00',
      );
      expect(await sqlStateOf(overlap)).toBe(EXCLUSION_VIOLATION);
    });

    it('allows adjacent slots, other caregivers, and overlap with a cancelled one', async () => {
      await book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-10T08:00:00+02:00',
        '2030-03-10T08:30:00+02:00',
      );
      // Adjacent: [08:30, 09:00) touches [08:00, 08:30) without overlapping.
      await book(
        ids.caregiverA,
        ids.patientB,
        '2030-03-10T08:30:00+02:00',
        '2030-03-10T09:00:00+02:00',
      );
      // Another caregiver at the same time.
      await book(
        ids.caregiverB,
        ids.patientB,
        '2030-03-11T08:00:00+02:00',
        '2030-03-11T08:30:00+02:00',
      );
      await book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-11T08:00:00+02:00',
        '2030-03-11T08:30:00+02:00',
      );
      // A cancelled row does not block its slot, and may overlap a booked one.
      await book(
        ids.caregiverA,
        ids.patientB,
        '2030-03-11T08:10:00+02:00',
        '2030-03-11T08:40:00+02:00',
        'cancelled',
      );
      const rows = await db().select().from(appointments);
      expect(rows).toHaveLength(5);
    });

    it('rejects end_at not after start_at', async () => {
      const backwards = book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-10T09:00:00+02:00',
        '2030-03-10T09:00:00+02:00',
      );
      expect(await sqlStateOf(backwards)).toBe('23514');
    });

    it('allows one booked appointment per patient per local date', async () => {
      const [first] = await book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-10T08:00:00+02:00',
        '2030-03-10T08:30:00+02:00',
      );
      const second = book(
        ids.caregiverB,
        ids.patientA,
        '2030-03-10T12:00:00+02:00',
        '2030-03-10T12:30:00+02:00',
      );
      expect(await sqlStateOf(second)).toBe(UNIQUE_VIOLATION);

      await db()
        .update(appointments)
        .set({ status: 'cancelled', cancelledAt: new Date() })
        .where(eq(appointments.id, first?.id ?? -1));
      const [rebooked] = await book(
        ids.caregiverB,
        ids.patientA,
        '2030-03-10T12:00:00+02:00',
        '2030-03-10T12:30:00+02:00',
      );
      expect(rebooked?.id).toEqual(expect.any(Number));
    });

    it('reads local_date back as the written date string', async () => {
      await book(
        ids.caregiverA,
        ids.patientA,
        '2030-03-10T23:30:00+02:00',
        '2030-03-11T00:10:00+02:00',
      );
      const [row] = await db().select().from(appointments);
      expect(row?.localDate).toBe('2030-03-10');
      expect(row?.startAt).toBeInstanceOf(Date);
      expect(row?.startAt.toISOString()).toBe('2030-03-10T21:30:00.000Z');
    });
  });
  describe('schedule constraints', () => {
    let caregiverId: number;
    beforeEach(async () => {
      await seedDemoClinic(db());
      const [row] = await db()
        .select({ id: caregivers.id })
        .from(caregivers)
        .where(eq(caregivers.clinicId, DEMO_SETUP_CLINIC_ID))
        .limit(1);
      if (!row) throw new Error('seed incomplete');
      caregiverId = row.id;
    });

    const hours = (weekDay: number, startTime: string, endTime: string) =>
      db().insert(caregiverWorkingHours).values({ caregiverId, weekDay, startTime, endTime });

    it('checks working hours: start before end, whole minutes, a real week day', async () => {
      expect(await sqlStateOf(hours(0, '10:00', '10:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(hours(0, '12:00', '10:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(hours(0, '10:00:30', '11:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(hours(7, '10:00', '11:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(hours(-1, '10:00', '11:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(hours(6, '10:00', '11:00'))).toBeUndefined();
    });

    it('refuses overlapping intervals on one day, allows touching ones and other days', async () => {
      await hours(0, '08:00', '12:00');
      expect(await sqlStateOf(hours(0, '11:00', '13:00'))).toBe(EXCLUSION_VIOLATION);
      expect(await sqlStateOf(hours(0, '12:00', '16:00'))).toBeUndefined();
      expect(await sqlStateOf(hours(1, '11:00', '13:00'))).toBeUndefined();
    });

    it('checks breaks and exceptions', async () => {
      const breakRow = (weekDay: number | null, startTime: string, endTime: string) =>
        db().insert(caregiverBreaks).values({ caregiverId, weekDay, startTime, endTime });
      expect(await sqlStateOf(breakRow(null, '13:00', '12:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(breakRow(8, '12:00', '13:00'))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(breakRow(null, '12:00', '13:00'))).toBeUndefined();

      const [dayOff] = await db()
        .insert(caregiverScheduleExceptions)
        .values({ caregiverId, date: '2030-01-01' })
        .returning({ id: caregiverScheduleExceptions.id });
      const again = db()
        .insert(caregiverScheduleExceptions)
        .values({ caregiverId, date: '2030-01-01' });
      expect(await sqlStateOf(again)).toBe(UNIQUE_VIOLATION);
      const exceptionHours = (startTime: string, endTime: string) =>
        db()
          .insert(caregiverScheduleExceptionHours)
          .values({ exceptionId: dayOff?.id ?? -1, startTime, endTime });
      expect(await sqlStateOf(exceptionHours('09:00', '11:00'))).toBeUndefined();
      expect(await sqlStateOf(exceptionHours('10:00', '12:00'))).toBe(EXCLUSION_VIOLATION);
      expect(await sqlStateOf(exceptionHours('12:00', '11:00'))).toBe(CHECK_VIOLATION);
    });

    it('checks booking rule ranges; null inherits', async () => {
      const set = (values: Partial<typeof caregivers.$inferInsert>) =>
        db().update(caregivers).set(values).where(eq(caregivers.id, caregiverId));
      expect(await sqlStateOf(set({ slotStepMinutes: 4 }))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(set({ slotStepMinutes: 241 }))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(set({ minNoticeMinutes: -1 }))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(set({ bookingHorizonDays: 0 }))).toBe(CHECK_VIOLATION);
      expect(await sqlStateOf(set({ bookingHorizonDays: 366 }))).toBe(CHECK_VIOLATION);
      expect(
        await sqlStateOf(set({ slotStepMinutes: 5, minNoticeMinutes: 0, bookingHorizonDays: 365 })),
      ).toBeUndefined();
      expect(
        await sqlStateOf(
          set({ slotStepMinutes: null, minNoticeMinutes: null, bookingHorizonDays: null }),
        ),
      ).toBeUndefined();
      const clinicDefault = db()
        .update(clinics)
        .set({ defaultSlotStepMinutes: 241 })
        .where(eq(clinics.id, DEMO_SETUP_CLINIC_ID));
      expect(await sqlStateOf(clinicDefault)).toBe(CHECK_VIOLATION);
    });

    it("deletes a caregiver's schedule with the caregiver", async () => {
      await hours(2, '08:00', '12:00');
      await db().delete(caregivers).where(eq(caregivers.id, caregiverId));
      const left = await db()
        .select()
        .from(caregiverWorkingHours)
        .where(eq(caregiverWorkingHours.caregiverId, caregiverId));
      expect(left).toEqual([]);
    });
  });
});
