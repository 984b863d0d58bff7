import { eq, sql } from 'drizzle-orm';
import type { Database } from '../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  clinics,
  patients,
} from '../platform/db/schema.js';
import { DEMO_CLINIC_ID, demoAppointmentTypes, demoCaregivers, demoClinic } from './demo-clinic.js';

// Serialises concurrent seeders (several instances starting against one PostgreSQL server).
const SEED_LOCK_KEY = '7170923282';

/**
 * (Re)creates demo clinic 1 and only its rows, in one transaction. With `onlyIfEmpty` it does
 * nothing when any clinic exists. Returns whether it seeded.
 */
export async function seedDemoClinic(
  db: Database,
  options: { onlyIfEmpty?: boolean } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (options.onlyIfEmpty) {
      const [existing] = await tx.select({ id: clinics.id }).from(clinics).limit(1);
      if (existing) return false;
    }

    await tx.delete(appointments).where(eq(appointments.clinicId, DEMO_CLINIC_ID));
    await tx.delete(patients).where(eq(patients.clinicId, DEMO_CLINIC_ID));
    // caregiver_appointment_types rows go with their caregivers (ON DELETE CASCADE).
    await tx.delete(caregivers).where(eq(caregivers.clinicId, DEMO_CLINIC_ID));
    await tx.delete(appointmentTypes).where(eq(appointmentTypes.clinicId, DEMO_CLINIC_ID));
    await tx.delete(clinics).where(eq(clinics.id, DEMO_CLINIC_ID));

    await tx.insert(clinics).values(demoClinic);
    // The explicit id does not move the identity sequence: put it past every existing id.
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence('clinics', 'id'), (SELECT GREATEST(MAX(id), 1) FROM clinics))`,
    );

    const types = await tx
      .insert(appointmentTypes)
      .values(
        demoAppointmentTypes.map((t) => ({
          clinicId: DEMO_CLINIC_ID,
          name: t.name,
          durationMinutes: t.durationMinutes,
        })),
      )
      .returning({ id: appointmentTypes.id });
    const typeIdByKey = new Map(demoAppointmentTypes.map((t, i) => [t.key, types[i]?.id]));

    const inserted = await tx
      .insert(caregivers)
      .values(
        demoCaregivers.map((c, i) => ({
          clinicId: DEMO_CLINIC_ID,
          name: c.name,
          image: c.image,
          licenseNumber: c.licenseNumber,
          googleCalendarSyncCalendarId: c.googleCalendarSyncCalendarId,
          sortOrder: i,
        })),
      )
      .returning({ id: caregivers.id });

    const links = demoCaregivers.flatMap((c, i) =>
      c.appointmentTypes.map((key) => {
        const caregiverId = inserted[i]?.id;
        const appointmentTypeId = typeIdByKey.get(key);
        if (caregiverId === undefined || appointmentTypeId === undefined) {
          throw new Error(`demo data: cannot link caregiver ${i} to ${key}`);
        }
        return { caregiverId, appointmentTypeId };
      }),
    );
    await tx.insert(caregiverAppointmentTypes).values(links);
    return true;
  });
}
