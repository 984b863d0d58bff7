import { and, eq } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.js';
import {
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  clinics,
  isStoredId,
} from '../../platform/db/schema.js';

/** The clinic, caregiver and type a booking names; each null when not found in that clinic. */
export interface BookingSubject {
  clinic: {
    id: number;
    name: string;
    street: string;
    homeNumber: string;
    city: string;
    timezone: string;
    isAutoSmsEnabled: boolean;
    maxUpcomingAppointments: number;
  };
  caregiver: { id: number; name: string; isActive: boolean } | null;
  type: { id: number; name: string; durationMinutes: number } | null;
  /** The caregiver offers the type (caregiver_appointment_types). */
  offersType: boolean;
}

/**
 * Who may book whom for what: booking asks it of every booking and move, the waitlist of every
 * entry and offer, read-only and the same way.
 */
export function createBookingSubjects(db: Database) {
  return {
    /** One query; null when the clinic does not exist. */
    async findBookingSubject(
      clinicId: number,
      caregiverId: number,
      appointmentTypeId: number,
    ): Promise<BookingSubject | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db
        .select({
          id: clinics.id,
          name: clinics.name,
          street: clinics.street,
          homeNumber: clinics.homeNumber,
          city: clinics.city,
          timezone: clinics.timezone,
          isAutoSmsEnabled: clinics.isAutoSmsEnabled,
          maxUpcomingAppointments: clinics.maxUpcomingAppointments,
          caregiverId: caregivers.id,
          caregiverName: caregivers.name,
          caregiverActive: caregivers.isActive,
          typeId: appointmentTypes.id,
          typeName: appointmentTypes.name,
          durationMinutes: appointmentTypes.durationMinutes,
          offeredBy: caregiverAppointmentTypes.caregiverId,
        })
        .from(clinics)
        .leftJoin(
          caregivers,
          and(
            eq(caregivers.clinicId, clinics.id),
            eq(caregivers.id, isStoredId(caregiverId) ? caregiverId : 0),
          ),
        )
        .leftJoin(
          appointmentTypes,
          and(
            eq(appointmentTypes.clinicId, clinics.id),
            eq(appointmentTypes.id, isStoredId(appointmentTypeId) ? appointmentTypeId : 0),
          ),
        )
        .leftJoin(
          caregiverAppointmentTypes,
          and(
            eq(caregiverAppointmentTypes.caregiverId, caregivers.id),
            eq(caregiverAppointmentTypes.appointmentTypeId, appointmentTypes.id),
          ),
        )
        .where(eq(clinics.id, clinicId));
      if (!row) return null;
      return {
        clinic: {
          id: row.id,
          name: row.name,
          street: row.street,
          homeNumber: row.homeNumber,
          city: row.city,
          timezone: row.timezone,
          isAutoSmsEnabled: row.isAutoSmsEnabled,
          maxUpcomingAppointments: row.maxUpcomingAppointments,
        },
        caregiver:
          row.caregiverId === null
            ? null
            : {
                id: row.caregiverId,
                name: row.caregiverName ?? '',
                isActive: row.caregiverActive ?? false,
              },
        type:
          row.typeId === null
            ? null
            : {
                id: row.typeId,
                name: row.typeName ?? '',
                durationMinutes: row.durationMinutes ?? 0,
              },
        offersType: row.offeredBy !== null,
      };
    },
  };
}

export type BookingSubjects = ReturnType<typeof createBookingSubjects>;
