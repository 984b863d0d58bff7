/** The database's own refusals of a booking, told apart (inBookingTransaction answers them). */

// drizzle/0001_booking-constraints.sql
const NO_OVERLAP_CONSTRAINT = 'appointments_no_overlap';
const ONE_PER_DATE_INDEX = 'appointments_one_per_patient_date';

/** The driver's error under drizzle's wrapper: SQLSTATE and constraint name. */
function sqlErrorOf(error: unknown): { code: string; constraint?: string } | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
  }
  return null;
}

/**
 * Which booking rule the database refused: the caregiver's EXCLUDE constraint (the interval
 * overlaps a booked one) or the patient's one-booking-per-date index. null for anything else.
 */
export function bookingConflictOf(error: unknown): 'slot_taken' | 'existingAppointment' | null {
  const sqlError = sqlErrorOf(error);
  if (sqlError?.code === '23P01' && sqlError.constraint === NO_OVERLAP_CONSTRAINT) {
    return 'slot_taken';
  }
  if (sqlError?.code === '23505' && sqlError.constraint === ONE_PER_DATE_INDEX) {
    return 'existingAppointment';
  }
  return null;
}

/**
 * A deadlock (40P01) or serialization failure (40001): the transaction was chosen to give way and
 * may simply be run again. Exclusion constraints can deadlock two concurrent inserters that each
 * wait for the other's conflicting row (PostgreSQL's execIndexing.c says so).
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = sqlErrorOf(error)?.code;
  return code === '40P01' || code === '40001';
}
