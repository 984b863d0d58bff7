import { and, eq, gte } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  clinics,
  isStoredId,
  whatsappConnections,
} from '../../platform/db/schema.js';
import { appointmentTypeQueries } from './appointment-type-queries.js';
import { caregiverQueries } from './caregiver-queries.js';

export type ClinicRow = typeof clinics.$inferSelect;
export type ClinicValues = Partial<Omit<typeof clinics.$inferInsert, 'id'>>;
export type NewClinic = Omit<typeof clinics.$inferInsert, 'id'>;

/** The clinic setup's repository: the clinic's own row here, its caregivers and types beside. */
export function createClinicRepository(db: Database) {
  return {
    db,
    ...caregiverQueries,
    ...appointmentTypeQueries,

    async findClinic(ex: Executor, clinicId: number): Promise<ClinicRow | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await ex.select().from(clinics).where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    /**
     * The clinic, locked until the transaction ends: the integration writes of a clinic happen
     * one at a time. NO KEY UPDATE lets bookings (which only reference the row) go on.
     */
    async lockClinic(tx: Executor, clinicId: number): Promise<ClinicRow | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await tx
        .select()
        .from(clinics)
        .where(eq(clinics.id, clinicId))
        .for('no key update');
      return row ?? null;
    },

    async insertClinic(tx: Executor, values: NewClinic): Promise<number> {
      const [row] = await tx.insert(clinics).values(values).returning({ id: clinics.id });
      if (!row) throw new Error('insertClinic: no row returned');
      return row.id;
    },

    async updateClinic(tx: Executor, clinicId: number, values: ClinicValues): Promise<void> {
      await tx.update(clinics).set(values).where(eq(clinics.id, clinicId));
    },

    async hasWhatsappConnection(ex: Executor, clinicId: number): Promise<boolean> {
      const [row] = await ex
        .select({ clinicId: whatsappConnections.clinicId })
        .from(whatsappConnections)
        .where(eq(whatsappConnections.clinicId, clinicId));
      return row !== undefined;
    },

    /** The clinic's booked appointments starting at `since` or later. */
    async listBookedSince(tx: Executor, clinicId: number, since: Date) {
      return tx
        .select({ id: appointments.id, startAt: appointments.startAt })
        .from(appointments)
        .where(
          and(
            eq(appointments.clinicId, clinicId),
            eq(appointments.status, 'booked'),
            gte(appointments.startAt, since),
          ),
        );
    },

    async setLocalDate(tx: Executor, appointmentId: number, localDate: string): Promise<void> {
      await tx.update(appointments).set({ localDate }).where(eq(appointments.id, appointmentId));
    },
  };
}

export type ClinicRepository = ReturnType<typeof createClinicRepository>;
