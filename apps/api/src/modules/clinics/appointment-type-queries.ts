import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  isStoredId,
} from '../../platform/db/schema.js';

/** The setup's appointment-type reads and writes, with the caregivers who give each type. */
export const appointmentTypeQueries = {
  async replaceTypeCaregivers(tx: Executor, typeId: number, caregiverIds: readonly number[]) {
    await tx
      .delete(caregiverAppointmentTypes)
      .where(eq(caregiverAppointmentTypes.appointmentTypeId, typeId));
    if (caregiverIds.length > 0) {
      await tx
        .insert(caregiverAppointmentTypes)
        .values(caregiverIds.map((caregiverId) => ({ caregiverId, appointmentTypeId: typeId })));
    }
  },

  /** Which of these ids are the clinic's appointment types. */
  async findClinicTypeIds(ex: Executor, clinicId: number, ids: readonly number[]) {
    const stored = ids.filter(isStoredId);
    if (stored.length === 0) return new Set<number>();
    const rows = await ex
      .select({ id: appointmentTypes.id })
      .from(appointmentTypes)
      .where(and(eq(appointmentTypes.clinicId, clinicId), inArray(appointmentTypes.id, stored)));
    return new Set(rows.map((r) => r.id));
  },

  /** The clinic's appointment types, or the one asked for, with the caregivers offering each. */
  async listTypes(ex: Executor, clinicId: number, typeId?: number) {
    if (typeId !== undefined && !isStoredId(typeId)) return [];
    const where: SQL | undefined =
      typeId === undefined
        ? eq(appointmentTypes.clinicId, clinicId)
        : and(eq(appointmentTypes.clinicId, clinicId), eq(appointmentTypes.id, typeId));
    const [types, links] = await Promise.all([
      ex
        .select({
          id: appointmentTypes.id,
          name: appointmentTypes.name,
          durationMinutes: appointmentTypes.durationMinutes,
        })
        .from(appointmentTypes)
        .where(where)
        .orderBy(asc(appointmentTypes.id)),
      ex
        .select({
          typeId: caregiverAppointmentTypes.appointmentTypeId,
          caregiverId: caregiverAppointmentTypes.caregiverId,
        })
        .from(caregiverAppointmentTypes)
        .innerJoin(
          appointmentTypes,
          eq(appointmentTypes.id, caregiverAppointmentTypes.appointmentTypeId),
        )
        .where(where)
        .orderBy(asc(caregiverAppointmentTypes.caregiverId)),
    ]);
    return types.map((t) => ({
      ...t,
      caregiverIds: links.filter((l) => l.typeId === t.id).map((l) => l.caregiverId),
    }));
  },

  /**
   * The clinic's appointment type, or null when it is not the clinic's. With `lock`, no booking
   * can take the type until the transaction ends (a booking references the row).
   */
  async findType(ex: Executor, clinicId: number, typeId: number, lock = false) {
    if (!isStoredId(typeId)) return null;
    const query = ex
      .select({ id: appointmentTypes.id })
      .from(appointmentTypes)
      .where(and(eq(appointmentTypes.id, typeId), eq(appointmentTypes.clinicId, clinicId)));
    const [row] = await (lock ? query.for('update') : query);
    return row ?? null;
  },

  async insertType(
    tx: Executor,
    clinicId: number,
    values: { name: string; durationMinutes: number },
  ): Promise<number> {
    const [row] = await tx
      .insert(appointmentTypes)
      .values({ ...values, clinicId })
      .returning({ id: appointmentTypes.id });
    if (!row) throw new Error('insertType: no row returned');
    return row.id;
  },

  async updateType(
    tx: Executor,
    typeId: number,
    values: Partial<{ name: string; durationMinutes: number }>,
  ) {
    await tx.update(appointmentTypes).set(values).where(eq(appointmentTypes.id, typeId));
  },

  async isTypeBooked(ex: Executor, typeId: number): Promise<boolean> {
    const [row] = await ex
      .select({ id: appointments.id })
      .from(appointments)
      .where(eq(appointments.appointmentTypeId, typeId))
      .limit(1);
    return row !== undefined;
  },

  /** The caregivers' links to it go too (ON DELETE CASCADE). */
  async deleteType(tx: Executor, typeId: number) {
    await tx.delete(appointmentTypes).where(eq(appointmentTypes.id, typeId));
  },
};
