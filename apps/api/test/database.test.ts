import { asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
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

      const allClinics = await db().select().from(clinics);
      expect(allClinics).toHaveLength(1);
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
      expect(other?.id).toBeGreaterThan(1);
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
      const [a, b] = await db()
        .select({ id: caregivers.id })
        .from(caregivers)
        .orderBy(asc(caregivers.sortOrder));
      const [type] = await db().select({ id: appointmentTypes.id }).from(appointmentTypes);
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
});
