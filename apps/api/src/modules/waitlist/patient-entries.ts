import { WAITLIST_MAX_ACTIVE, type JoinWaitlistBody, type WaitlistEntry } from '@marpe/shared';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { limits } from '../../platform/limits.js';
import { addDaysToLocalDate, zonedDate } from '../../platform/zoned-time.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import { todayOf, type WaitlistContext } from './waitlist-context.js';
import type { WaitlistRepository } from './waitlist-repository.js';

/** How far ahead a range may start. */
const MAX_LEAD_DAYS = 365;

function toEntry(row: Awaited<ReturnType<WaitlistRepository['listActive']>>[number]) {
  return {
    id: row.id,
    caregiver_id: row.caregiverId,
    appointment_type_id: row.appointmentTypeId,
    caregiver_name: row.caregiverName,
    type_name: row.typeName,
    from_date: row.fromDate,
    to_date: row.toDate,
    part_of_day: row.partOfDay,
    joined_at: row.createdAt.toISOString(),
  } satisfies WaitlistEntry;
}

/** `POST /api/waitlist`: the entry, and whether it is new (a repeated join finds the first). */
export function joinWaitlist(ctx: WaitlistContext) {
  return async function join(
    patient: SessionPatient,
    body: JoinWaitlistBody,
    language: MessageLanguage,
  ): Promise<{ entry: WaitlistEntry; created: boolean }> {
    const { repository, db } = ctx;
    if (body.clinicId !== patient.clinicId) {
      throw new AppError('forbidden', 403, "The waitlist is the patient's own clinic's only");
    }
    const subject = await ctx.subjects.findBookingSubject(
      body.clinicId,
      body.caregiverId,
      body.appointmentTypeId,
    );
    if (!subject) throw clinicNotFound(body.clinicId);
    if (!subject.caregiver?.isActive) {
      throw new AppError('caregiver_not_found', 404, `Caregiver ${body.caregiverId} not found`);
    }
    if (!subject.type || !subject.offersType) {
      throw new AppError(
        'appointment_type_not_found',
        404,
        `Appointment type ${body.appointmentTypeId} is not one this caregiver offers`,
      );
    }
    const now = ctx.clock();
    const today = zonedDate(now, subject.clinic.timezone);
    if (body.fromDate < today) {
      throw invalidField('fromDate', `Before today (${today} in the clinic's time zone)`);
    }
    if (body.fromDate > addDaysToLocalDate(today, MAX_LEAD_DAYS)) {
      throw invalidField('fromDate', `More than ${MAX_LEAD_DAYS} days ahead`);
    }
    const values = {
      clinicId: body.clinicId,
      patientId: patient.id,
      caregiverId: body.caregiverId,
      appointmentTypeId: body.appointmentTypeId,
      fromDate: body.fromDate,
      toDate: body.toDate,
      partOfDay: body.partOfDay,
      language,
      createdAt: new Date(now),
    };
    const { id, created } = await db.transaction(async (tx) => {
      // Also serialises the patient's joins, so the cap holds in a race.
      await ctx.takeLimit(tx, limits.waitlistJoin, `patient:${patient.id}`, now);
      const same = await repository.findSameActive(tx, values, today);
      if (same) return { id: same.id, created: false };
      if ((await repository.countActive(tx, patient.id, today)) >= WAITLIST_MAX_ACTIVE) {
        throw new AppError(
          'waitlist_full',
          409,
          `A patient may wait for ${WAITLIST_MAX_ACTIVE} times at once; leave one first`,
          { max: WAITLIST_MAX_ACTIVE },
        );
      }
      return { id: await repository.insertEntry(tx, values), created: true };
    });
    const [row] = await repository.listActive(db, patient.id, today, id);
    if (!row) throw new Error('join: the entry is gone');
    return { entry: toEntry(row), created };
  };
}

/** `GET /api/waitlist`: the patient's active entries, in the order they joined. */
export function listEntries(ctx: WaitlistContext) {
  return async function list(patient: SessionPatient): Promise<WaitlistEntry[]> {
    const today = await todayOf(ctx, patient.clinicId, ctx.clock());
    return (await ctx.repository.listActive(ctx.db, patient.id, today)).map(toEntry);
  };
}

/** `DELETE /api/waitlist/:id`. */
export function leaveWaitlist(ctx: WaitlistContext) {
  return async function leave(patient: SessionPatient, entryId: number): Promise<void> {
    if (!(await ctx.repository.leave(patient.id, entryId, new Date(ctx.clock())))) {
      throw new AppError('waitlist_entry_not_found', 404, 'No such waitlist entry of yours');
    }
  };
}
