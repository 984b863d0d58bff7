import {
  APPOINTMENT_SMS_LIMIT,
  type BookAppointmentBody,
  type BookedAppointment,
  type ClinicRescheduleBody,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Transaction } from '../../platform/db/client.js';
import { AppError, invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { limits } from '../../platform/limits.js';
import { formatZonedIso } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import {
  appointmentNotFound,
  existingAppointment,
  MINUTE,
  patientSubject,
  slotTaken,
} from './appointment-rules.js';
import {
  afterChange,
  inBookingTransaction,
  type AppointmentsContext,
} from './appointments-context.js';
import {
  bookedView,
  checkCalendar,
  checkClinicSlot,
  loadSlot,
  lockChangeable,
  prepareBooking,
} from './booking-steps.js';
import type { NoticeOutcome, NoticeRequest } from './change-notices.js';

/** The booked appointment a move starts from, as it stood before the move. */
interface MovedRow {
  id: number;
  caregiverId: number;
  appointmentTypeId: number;
  startAt: Date;
  endAt: Date;
  timezone: string;
}

interface Move {
  row: MovedRow;
  clinicId: number;
  patientId: number;
  caregiverId: number;
  appointmentTypeId: number;
  start: number;
  end: number;
  localDate: string;
  language: MessageLanguage;
  /** false: the clinic moves over its busy times on purpose. */
  checkBusy: boolean;
  /** Who moves and what the request said of telling the patient (change-notices.ts). */
  notice: Omit<NoticeRequest, 'appointmentId' | 'change'>;
}

/** Both caregivers' queues, in id order so two opposite moves cannot deadlock. */
async function lockCaregivers(ctx: AppointmentsContext, tx: Transaction, ids: number[]) {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    await ctx.repository.lockCaregiverBookings(tx, id);
  }
}

/**
 * The move itself (an UPDATE of the row), after the caregivers' locks: the refusals answered
 * without an error from the database, the row, its reminders, the calendar write-back and the
 * move's notice (its outcome returned).
 */
async function writeMove(
  ctx: AppointmentsContext,
  tx: Transaction,
  move: Move,
): Promise<NoticeOutcome> {
  const { repository, busy, reminders, calendar, notices } = ctx;
  const { row } = move;
  const onDate = await repository.findBookingOnDate(
    tx,
    move.clinicId,
    move.patientId,
    move.localDate,
  );
  if (onDate && onDate.id !== row.id) throw existingAppointment();
  const startAt = new Date(move.start);
  const endAt = new Date(move.end);
  if (await repository.findOverlapping(tx, move.caregiverId, startAt, endAt, row.id)) {
    throw slotTaken();
  }
  if (move.checkBusy && (await busy.overlapsExternalBusy(tx, move.caregiverId, startAt, endAt))) {
    throw slotTaken();
  }
  await repository.moveAppointment(tx, row.id, {
    caregiverId: move.caregiverId,
    appointmentTypeId: move.appointmentTypeId,
    startAt,
    endAt,
    localDate: move.localDate,
    language: move.language,
    // The details allowance starts again for the new time.
    detailsSmsCount: 0,
  });
  // The old time's reminders are withdrawn, the new time's planned.
  await reminders.plan(tx, { id: row.id, clinicId: move.clinicId, startAt });
  await calendar.queueWrite(tx, row.id);
  // The move's notice names the new time (and the old).
  return notices.queue(tx, {
    appointmentId: row.id,
    change: { kind: 'moved', previousStart: row.startAt, previousCaregiverId: row.caregiverId },
    ...move.notice,
  });
}

/**
 * After the move's messages: the patient's waiting entries it answers are settled, the old time
 * is offered to those waiting, and appointment.rescheduled names where it was.
 */
async function settleMove(ctx: AppointmentsContext, tx: Transaction, move: Move): Promise<void> {
  const { row } = move;
  await ctx.waitlist.markBooked(tx, {
    patientId: move.patientId,
    caregiverId: move.caregiverId,
    appointmentTypeId: move.appointmentTypeId,
    localDate: move.localDate,
    at: new Date(move.notice.now),
  });
  // The old time is free for those waiting.
  await ctx.waitlist.queueOffers(tx, {
    clinicId: move.clinicId,
    caregiverId: row.caregiverId,
    freed: { startAt: row.startAt, endAt: row.endAt },
  });
  await ctx.webhooks.emitAppointmentRescheduled(
    tx,
    { id: row.id, clinicId: move.clinicId },
    {
      caregiver_id: row.caregiverId,
      appointment_type_id: row.appointmentTypeId,
      start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
      end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
    },
  );
}

/**
 * `POST /api/appointment/patient-appointments/:id/reschedule`: moves the patient's own
 * cancellable appointment to the slot of `body` in one transaction (an UPDATE of the row): the
 * old slot is freed and the new one taken together, or nothing changes. The one-per-date rule
 * counts the moved appointment as itself.
 */
export function rescheduleAppointment(ctx: AppointmentsContext) {
  return async function reschedule(
    patient: SessionPatient,
    appointmentId: number,
    body: BookAppointmentBody,
    language: MessageLanguage = 'he',
  ): Promise<BookedAppointment> {
    const { clinic, caregiver, type, start, end, localDate, sms } = await prepareBooking(
      ctx,
      patient,
      body,
      language,
    );
    await checkCalendar(ctx, caregiver.id, start, end);

    const detailsSent = await inBookingTransaction(ctx, async (tx) => {
      const now = ctx.clock();
      const row = await lockChangeable(ctx, tx, patient, appointmentId, now, 'changed');
      if (
        row.caregiverId === caregiver.id &&
        row.appointmentTypeId === type.id &&
        row.startAt.getTime() === start
      ) {
        throw invalidField('startDate', 'This is the appointment’s time already');
      }
      await lockCaregivers(ctx, tx, [row.caregiverId, caregiver.id]);
      await ctx.takeLimit(tx, limits.book, patientSubject(patient), now);
      const actor = patientSubject(patient);
      const move: Move = {
        row,
        clinicId: clinic.id,
        patientId: patient.id,
        caregiverId: caregiver.id,
        appointmentTypeId: type.id,
        start,
        end,
        localDate,
        language,
        checkBusy: true,
        notice: { actor, now },
      };
      const told = await writeMove(ctx, tx, move);
      // The move's notice names the new time; the clinic's automatic details go only instead.
      const details =
        told === 'off' &&
        sms !== null &&
        (await takeMessageCap(tx, {
          clinicId: clinic.id,
          to: patient.phone,
          kind: 'appointment_moved',
          actor,
          now,
        })) === null;
      if (details && sms !== null) {
        await ctx.repository.takeSmsAllowance(tx, row.id, APPOINTMENT_SMS_LIMIT);
        await ctx.messaging.queueMessage(tx, {
          clinicId: clinic.id,
          to: patient.phone,
          body: sms,
          expiresAt: new Date(end),
          kind: 'appointment_details',
        });
      }
      await settleMove(ctx, tx, move);
      return details;
    });
    afterChange(ctx, clinic.id, { freedTime: true });
    return bookedView(appointmentId, { clinic, caregiver, type, start, end, detailsSent });
  };
}

const cancelledAlready = () =>
  new AppError('not_cancellable', 409, 'The appointment is cancelled: book a new one');

/**
 * `POST /api/integration/appointments/:id/reschedule`: the clinic moves one of its booked
 * appointments (same patient, same type) to `start_date`, with another caregiver if it names
 * one. As the patient's reschedule: one transaction (an UPDATE of the row), the same locks and
 * constraints, reminders planned again, the calendar written back, the freed time offered to
 * the waitlist, appointment.rescheduled raised; as a clinic booking: any time the caregiver is
 * free with outside_working_hours, over busy times with ignore_busy_times. The patient is told
 * by the move's notice when the clinic tells moves, or as send_sms says for this move (true:
 * told, counted by the message caps first: refused, 429 and nothing moves; false: not told).
 * Audited as `clinicActor.actor`.
 */
export function rescheduleForClinic(ctx: AppointmentsContext) {
  return async function rescheduleForClinic(
    clinicActor: ClinicActor,
    appointmentId: number,
    body: ClinicRescheduleBody,
  ): Promise<void> {
    const { repository } = ctx;
    const current = await repository.lockClinicAppointment(
      repository.db,
      appointmentId,
      clinicActor.clinicId,
      false,
    );
    if (!current) throw appointmentNotFound();
    if (current.status !== 'booked') throw cancelledAlready();
    const start = Date.parse(body.start_date);
    const slot = await loadSlot(
      ctx,
      {
        clinicId: clinicActor.clinicId,
        caregiverId: body.caregiver_id ?? current.caregiverId,
        appointmentTypeId: current.appointmentTypeId,
        start,
      },
      { type: 'caregiver_id', start: 'start_date' },
    );
    const end = start + slot.type.durationMinutes * MINUTE;
    if (start <= ctx.clock()) throw invalidField('start_date', 'The start has passed');
    if (slot.caregiver.id === current.caregiverId && start === current.startAt.getTime()) {
      throw invalidField('start_date', 'This is the appointment’s time already');
    }
    await checkClinicSlot(ctx, slot, start, end, body);
    const asked = body.send_sms === true;
    const { localDate } = slot;

    type Outcome = { refused: MessageCapRefusal } | { moved: true };
    const outcome = await inBookingTransaction(ctx, async (tx): Promise<Outcome> => {
      const now = ctx.clock();
      const row = await repository.lockClinicAppointment(tx, appointmentId, clinicActor.clinicId);
      if (!row) throw appointmentNotFound();
      if (row.status !== 'booked') throw cancelledAlready();
      await lockCaregivers(ctx, tx, [row.caregiverId, slot.caregiver.id]);
      // Asked for (send_sms), the patient's message counts against the caps before anything
      // moves: refused, nothing does (429).
      if (asked) {
        const refused = await takeMessageCap(tx, {
          clinicId: clinicActor.clinicId,
          to: row.phone,
          kind: 'clinic_booking',
          actor: clinicActor.actor,
          now,
        });
        if (refused) return { refused };
      }
      const move: Move = {
        row,
        clinicId: clinicActor.clinicId,
        patientId: row.patientId,
        caregiverId: slot.caregiver.id,
        appointmentTypeId: row.appointmentTypeId,
        start,
        end,
        localDate,
        language: row.language,
        checkBusy: body.ignore_busy_times !== true,
        // Told when the clinic tells moves, or as send_sms says for this one.
        notice: { actor: clinicActor.actor, now, requested: body.send_sms, capTaken: asked },
      };
      await writeMove(ctx, tx, move);
      await settleMove(ctx, tx, move);
      await audit(tx, {
        clinicId: clinicActor.clinicId,
        actor: clinicActor.actor,
        action: 'appointment.reschedule',
        targetType: 'appointment',
        targetId: row.id,
        details: {
          from: { caregiver_id: row.caregiverId, start_at: row.startAt.toISOString() },
          to: { caregiver_id: slot.caregiver.id, start_at: new Date(start).toISOString() },
          outside_working_hours: body.outside_working_hours === true,
          ignore_busy_times: body.ignore_busy_times === true,
          send_sms: asked,
        },
        at: new Date(now),
      });
      return { moved: true };
    });
    if ('refused' in outcome) throw messageCapError(outcome.refused);
    afterChange(ctx, clinicActor.clinicId, { freedTime: true });
  };
}
