import type { OpeningHours } from '@marpe/shared';
import type { Database } from '../src/platform/db/client.js';
import {
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
} from '../src/platform/db/schema.js';

/** Opening hours of a clinic that is closed all week: the smallest valid value for test rows. */
export const closedWeek: OpeningHours['days'] = {
  sunday: null,
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
};

/** The columns a test clinic needs (closed all week); spread it and add what the test is about. */
export function clinicRow(name: string) {
  return {
    name,
    phone: '03-5550000',
    street: 'הרצל',
    homeNumber: '12',
    city: 'תל אביב-יפו',
    openingHours: { title: null, days: closedWeek },
  };
}

type Ids<T extends readonly unknown[]> = { [K in keyof T]: number };

function idsOf(rows: readonly { id: number }[], count: number, what: string): number[] {
  if (rows.length !== count) throw new Error(`fixture: ${what}`);
  return rows.map((row) => row.id);
}

/** Test clinics (closed all week) by name: their ids in the same order. */
export async function insertClinics<const T extends readonly string[]>(
  db: Database,
  names: T,
): Promise<Ids<T>> {
  const rows = await db
    .insert(clinics)
    .values(names.map((name) => clinicRow(name)))
    .returning({ id: clinics.id });
  return idsOf(rows, names.length, 'clinics') as Ids<T>;
}

/** Appointment types: their ids in the same order. */
export async function insertTypes<
  const T extends readonly { clinicId: number; name: string; durationMinutes: number }[],
>(db: Database, types: T): Promise<Ids<T>> {
  const rows = await db
    .insert(appointmentTypes)
    .values([...types])
    .returning({ id: appointmentTypes.id });
  return idsOf(rows, types.length, 'appointment types') as Ids<T>;
}

/**
 * A caregiver who takes 30-minute steps, an hour's notice and 30 days ahead, offers `typeIds` and
 * works `hours` each week (`weekDay` 0 is Sunday): its id.
 */
export async function insertCaregiver(
  db: Database,
  caregiver: {
    clinicId: number;
    name: string;
    licenseNumber: string;
    typeIds: readonly number[];
    hours: readonly { weekDay: number; startTime: string; endTime: string }[];
  },
): Promise<number> {
  const [row] = await db
    .insert(caregivers)
    .values({
      clinicId: caregiver.clinicId,
      name: caregiver.name,
      licenseNumber: caregiver.licenseNumber,
      slotStepMinutes: 30,
      minNoticeMinutes: 60,
      bookingHorizonDays: 30,
    })
    .returning({ id: caregivers.id });
  if (!row) throw new Error('fixture: caregiver');
  if (caregiver.typeIds.length > 0) {
    await db
      .insert(caregiverAppointmentTypes)
      .values(
        caregiver.typeIds.map((appointmentTypeId) => ({ caregiverId: row.id, appointmentTypeId })),
      );
  }
  if (caregiver.hours.length > 0) {
    await db
      .insert(caregiverWorkingHours)
      .values(caregiver.hours.map((hours) => ({ caregiverId: row.id, ...hours })));
  }
  return row.id;
}
