import { and, asc, eq } from 'drizzle-orm';
import type { ClinicSummary } from '@marpe/shared';
import type { Database } from '../../platform/db/client.js';
import {
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  clinics,
  isStoredId,
} from '../../platform/db/schema.js';

export type ClinicRow = typeof clinics.$inferSelect;

export function createClinicsRepository(db: Database) {
  return {
    async listSummaries(): Promise<ClinicSummary[]> {
      return db
        .select({
          id: clinics.id,
          name: clinics.name,
          city: clinics.city,
          logo_url: clinics.logoUrl,
        })
        .from(clinics)
        .orderBy(asc(clinics.name), asc(clinics.id));
    },

    async findClinic(clinicId: number): Promise<ClinicRow | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db.select().from(clinics).where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    /** Active caregivers in page order. */
    async listActiveCaregivers(clinicId: number) {
      return db
        .select({
          id: caregivers.id,
          name: caregivers.name,
          image: caregivers.image,
          licenseNumber: caregivers.licenseNumber,
          googleCalendarSyncCalendarId: caregivers.googleCalendarSyncCalendarId,
          slotStepMinutes: caregivers.slotStepMinutes,
          minNoticeMinutes: caregivers.minNoticeMinutes,
          bookingHorizonDays: caregivers.bookingHorizonDays,
        })
        .from(caregivers)
        .where(and(eq(caregivers.clinicId, clinicId), eq(caregivers.isActive, true)))
        .orderBy(asc(caregivers.sortOrder), asc(caregivers.id));
    },

    async listAppointmentTypes(clinicId: number) {
      return db
        .select({
          id: appointmentTypes.id,
          name: appointmentTypes.name,
          durationMinutes: appointmentTypes.durationMinutes,
        })
        .from(appointmentTypes)
        .where(eq(appointmentTypes.clinicId, clinicId))
        .orderBy(asc(appointmentTypes.id));
    },

    /** Which of the clinic's own types each active caregiver offers. */
    async listOfferedTypes(clinicId: number) {
      return db
        .select({
          caregiverId: caregiverAppointmentTypes.caregiverId,
          appointmentTypeId: caregiverAppointmentTypes.appointmentTypeId,
        })
        .from(caregiverAppointmentTypes)
        .innerJoin(caregivers, eq(caregivers.id, caregiverAppointmentTypes.caregiverId))
        .innerJoin(
          appointmentTypes,
          eq(appointmentTypes.id, caregiverAppointmentTypes.appointmentTypeId),
        )
        .where(
          and(
            eq(caregivers.clinicId, clinicId),
            eq(caregivers.isActive, true),
            eq(appointmentTypes.clinicId, clinicId),
          ),
        )
        .orderBy(
          asc(caregiverAppointmentTypes.caregiverId),
          asc(caregiverAppointmentTypes.appointmentTypeId),
        );
    },
  };
}

export type ClinicsRepository = ReturnType<typeof createClinicsRepository>;
