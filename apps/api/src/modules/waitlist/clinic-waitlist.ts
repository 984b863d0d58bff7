import {
  WAITLIST_ENTRIES_MAX_LIMIT,
  type IntegrationWaitlistEntry,
  type IntegrationWaitlistRow,
  type WaitlistEntriesQuery,
  type WaitlistFilterQuery,
} from '@marpe/shared';
import { requireClinicCaregiver } from '../../platform/clinic-caregiver.js';
import { invalidField } from '../../platform/errors.js';
import { todayOf, type WaitlistContext } from './waitlist-context.js';

/** A clinic's filter of its waitlist: 404 for another clinic's caregiver. */
async function clinicFilter(ctx: WaitlistContext, clinicId: number, query: WaitlistFilterQuery) {
  if (query.caregiver_id !== undefined) {
    await requireClinicCaregiver(ctx.db, clinicId, query.caregiver_id);
  }
  return { date: query.date, caregiverId: query.caregiver_id };
}

/**
 * `GET /api/integration/waitlist/entries`: who waits, on a date, with a caregiver, or one
 * patient; a page of the queue after an entry.
 */
export function clinicEntries(ctx: WaitlistContext) {
  return async function clinicEntries(
    clinicId: number,
    query: Partial<WaitlistEntriesQuery> = {},
  ): Promise<IntegrationWaitlistEntry[]> {
    const { repository } = ctx;
    const filter = await clinicFilter(ctx, clinicId, query);
    const today = await todayOf(ctx, clinicId, ctx.clock());
    let after: { createdAt: Date; id: number } | undefined;
    if (query.after !== undefined) {
      after = (await repository.findEntryCursor(clinicId, query.after)) ?? undefined;
      if (!after) throw invalidField('after', 'No waitlist entry of this clinic has this id');
    }
    const rows = await repository.listClinicEntries(clinicId, today, filter, {
      patientIdNumber: query.patient_id_number,
      after,
      limit: query.limit ?? WAITLIST_ENTRIES_MAX_LIMIT,
    });
    return rows.map((row) => ({
      id: row.id,
      patient: {
        id: row.patientId,
        id_number: row.idNumber,
        first_name: row.firstName,
        last_name: row.lastName,
        phone: row.phone,
      },
      caregiver: { id: row.caregiverId, name: row.caregiverName },
      appointment_type: { id: row.appointmentTypeId, name: row.typeName },
      from_date: row.fromDate,
      to_date: row.toDate,
      part_of_day: row.partOfDay,
      joined_at: row.createdAt.toISOString(),
    }));
  };
}

/** `GET /api/integration/waitlist`. */
export function clinicSummary(ctx: WaitlistContext) {
  return async function clinicSummary(
    clinicId: number,
    query: WaitlistFilterQuery = {},
  ): Promise<IntegrationWaitlistRow[]> {
    const filter = await clinicFilter(ctx, clinicId, query);
    const today = await todayOf(ctx, clinicId, ctx.clock());
    const rows = await ctx.repository.countWaitingByCaregiver(clinicId, today, filter);
    return rows.map((row) => ({
      caregiver_id: row.caregiverId,
      name: row.name,
      waiting: row.waiting,
      oldest_joined_at: (row.oldest ?? new Date(0)).toISOString(),
    }));
  };
}
