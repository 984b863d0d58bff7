import { and, eq } from 'drizzle-orm';
import type { Executor } from './db/client.js';
import { caregivers, clinics, isStoredId } from './db/schema.js';
import { AppError } from './errors.js';

/** A caregiver id that names none of the clinic's caregivers (another clinic's is not told apart). */
export function caregiverNotFound(caregiverId: number): AppError {
  return new AppError('caregiver_not_found', 404, `No caregiver ${caregiverId} in this clinic`);
}

/** The clinic's caregiver, active or not, with the clinic's zone; null when not the clinic's. */
export async function findClinicCaregiver(ex: Executor, clinicId: number, caregiverId: number) {
  if (!isStoredId(caregiverId)) return null;
  const [row] = await ex
    .select({ id: caregivers.id, isActive: caregivers.isActive, timezone: clinics.timezone })
    .from(caregivers)
    .innerJoin(clinics, eq(clinics.id, caregivers.clinicId))
    .where(and(eq(caregivers.id, caregiverId), eq(caregivers.clinicId, clinicId)));
  return row ?? null;
}

/** The clinic's caregiver, as findClinicCaregiver; 404 caregiver_not_found when not the clinic's. */
export async function requireClinicCaregiver(ex: Executor, clinicId: number, caregiverId: number) {
  const caregiver = await findClinicCaregiver(ex, clinicId, caregiverId);
  if (!caregiver) throw caregiverNotFound(caregiverId);
  return caregiver;
}
