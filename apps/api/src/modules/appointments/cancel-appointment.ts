import { audit } from '../../platform/audit.js';
import type { Transaction } from '../../platform/db/client.js';
import { limits } from '../../platform/limits.js';
import { messageCapError, takeMessageCap } from '../integration/message-caps.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import { alreadyCancelled, appointmentNotFound, patientSubject } from './appointment-rules.js';
import { afterChange, type AppointmentsContext } from './appointments-context.js';
import { lockChangeable } from './booking-steps.js';
import type { NoticeRequest } from './change-notices.js';

interface Cancellation {
  row: { id: number; caregiverId: number; startAt: Date; endAt: Date };
  clinicId: number;
  /** The clinic's reason, kept on the appointment for its eyes; null: none (or the patient's). */
  reason: string | null;
  /** Who cancels and what the request said of telling the patient (change-notices.ts). */
  notice: Omit<NoticeRequest, 'appointmentId' | 'change'>;
}

/** The cancellation itself: the row, its reminders withdrawn, the write-back and the notice. */
async function writeCancellation(
  ctx: AppointmentsContext,
  tx: Transaction,
  { row, reason, notice }: Cancellation,
): Promise<void> {
  await ctx.repository.cancelAppointment(tx, row.id, new Date(notice.now), reason);
  await ctx.reminders.withdraw(tx, row.id);
  await ctx.calendar.queueWrite(tx, row.id);
  // Never the clinic's reason (kept for its eyes).
  await ctx.notices.queue(tx, { appointmentId: row.id, change: { kind: 'cancelled' }, ...notice });
}

/** appointment.cancelled, and the freed time offered to those waiting. */
async function settleCancellation(
  ctx: AppointmentsContext,
  tx: Transaction,
  { row, clinicId }: Cancellation,
): Promise<void> {
  await ctx.webhooks.emitAppointment(tx, 'appointment.cancelled', { id: row.id, clinicId });
  await ctx.waitlist.queueOffers(tx, {
    clinicId,
    caregiverId: row.caregiverId,
    freed: { startAt: row.startAt, endAt: row.endAt },
  });
}

/** `PUT /api/appointment/patient-appointments`: the slot is free again once this returns. */
export function cancelAppointment(ctx: AppointmentsContext) {
  return async function cancel(patient: SessionPatient, appointmentId: number): Promise<void> {
    const now = ctx.clock();
    const clinicId = await ctx.repository.db.transaction(async (tx) => {
      const row = await lockChangeable(ctx, tx, patient, appointmentId, now, 'cancelled');
      await ctx.takeLimit(tx, limits.cancel, patientSubject(patient), now);
      const cancellation: Cancellation = {
        row,
        clinicId: row.clinicId,
        reason: null,
        notice: { actor: patientSubject(patient), now },
      };
      await writeCancellation(ctx, tx, cancellation);
      await settleCancellation(ctx, tx, cancellation);
      return row.clinicId;
    });
    afterChange(ctx, clinicId, { freedTime: true });
  };
}

/**
 * `POST /api/integration/appointments/:id/cancel`: the clinic cancels one of its booked
 * appointments, whatever the patient's online cancellation notice. `reason` is kept on the
 * appointment (for the clinic's eyes). The patient is told (change-notices.ts) when the clinic
 * tells cancellations, or as `sendSms` says for this one (true: told, counted by the message caps
 * first: refused, nothing is cancelled; false: not told). Audited as `actor`.
 */
export function cancelForClinic(ctx: AppointmentsContext) {
  return async function cancelForClinic(
    clinicId: number,
    appointmentId: number,
    actor: string,
    options: { reason?: string | null; sendSms?: boolean } = {},
  ): Promise<void> {
    const now = ctx.clock();
    const reason = options.reason?.trim() ? options.reason.trim() : null;
    const refused = await ctx.repository.db.transaction(async (tx) => {
      const row = await ctx.repository.lockClinicAppointment(tx, appointmentId, clinicId);
      if (!row) throw appointmentNotFound();
      if (row.status !== 'booked') throw alreadyCancelled();
      // Asked for (send_sms), the message counts against the caps first: refused, nothing is
      // cancelled (429). Otherwise the clinic's setting decides, and a refusal only goes untold.
      if (options.sendSms === true) {
        const cap = await takeMessageCap(tx, {
          clinicId,
          to: row.phone,
          kind: 'clinic_cancellation',
          actor,
          now,
        });
        if (cap) return cap;
      }
      const cancellation: Cancellation = {
        row,
        clinicId,
        reason,
        notice: { actor, now, requested: options.sendSms, capTaken: options.sendSms === true },
      };
      await writeCancellation(ctx, tx, cancellation);
      await audit(tx, {
        clinicId,
        actor,
        action: 'appointment.cancel',
        targetType: 'appointment',
        targetId: row.id,
        details: {
          caregiver_id: row.caregiverId,
          start_at: row.startAt.toISOString(),
          ...(reason !== null ? { reason } : {}),
          ...(options.sendSms !== undefined ? { send_sms: options.sendSms } : {}),
        },
        at: new Date(now),
      });
      await settleCancellation(ctx, tx, cancellation);
      return null;
    });
    if (refused) throw messageCapError(refused);
    afterChange(ctx, clinicId, { freedTime: true });
  };
}
