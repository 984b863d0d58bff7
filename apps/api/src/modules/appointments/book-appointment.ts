import {
  MAX_IDENTITIES_PER_PHONE,
  PHONE_HINT_DIGITS,
  type AppointmentSource,
  type BookAppointmentBody,
  type BookedAppointment,
  type ClinicBookingBody,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Transaction } from '../../platform/db/client.js';
import { invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { limits } from '../../platform/limits.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import { tooManyIdentities } from '../patient-auth/patient-auth-service.js';
import {
  existingAppointment,
  MINUTE,
  patientSubject,
  slotTaken,
  tooManyUpcoming,
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
  detailsMessage,
  loadSlot,
  prepareBooking,
  type PreparedBooking,
} from './booking-steps.js';

/**
 * The booking itself, in the booking transaction after the caregiver's lock: the refusals
 * answered without an error from the database (the constraints still have the last word), the
 * row, its reminders, details message, webhook and waitlist settlement. Patient and clinic
 * bookings both come through here.
 */
async function writeBooking(
  ctx: AppointmentsContext,
  tx: Transaction,
  booking: PreparedBooking & {
    patient: { id: number; phone: string };
    language: MessageLanguage;
    source: AppointmentSource;
    /** false: the clinic books over its busy times on purpose. */
    checkBusy: boolean;
    /** The patient's cap of upcoming appointments; null: none (the clinic books). */
    maxUpcoming: number | null;
    now: number;
    /** Who books: the message caps' audit actor. */
    actor: string;
    /** The details message was counted by the message caps already (the clinic asked for it). */
    capTaken: boolean;
    /** The clinic's `send_sms` (false: the patient is not told of this booking); see notices. */
    requested?: boolean;
  },
): Promise<{ id: number; detailsSent: boolean }> {
  const { repository, busy, reminders, calendar, messaging, notices, webhooks, waitlist } = ctx;
  const { clinic, caregiver, type, start, end, localDate, patient } = booking;
  if (await repository.findBookingOnDate(tx, clinic.id, patient.id, localDate)) {
    throw existingAppointment();
  }
  if (await repository.findOverlapping(tx, caregiver.id, new Date(start), new Date(end))) {
    throw slotTaken();
  }
  if (
    booking.checkBusy &&
    (await busy.overlapsExternalBusy(tx, caregiver.id, new Date(start), new Date(end)))
  ) {
    throw slotTaken();
  }
  if (
    booking.maxUpcoming !== null &&
    ((await repository.countUpcoming(tx, patient.id, new Date(booking.now))) >=
      booking.maxUpcoming ||
      // Per phone too: identities signed up on one phone share its cap (ADR 027).
      (await repository.lockAndCountUpcomingOfPhone(
        tx,
        clinic.id,
        patient.phone,
        new Date(booking.now),
      )) >= booking.maxUpcoming)
  ) {
    throw tooManyUpcoming(booking.maxUpcoming);
  }
  // The details sent automatically count toward the message caps; refused, the booking stands
  // without them (audited as message.refused).
  const sms =
    booking.sms !== null &&
    (booking.capTaken ||
      (await takeMessageCap(tx, {
        clinicId: clinic.id,
        to: patient.phone,
        kind: 'appointment_booked',
        actor: booking.actor,
        now: booking.now,
      })) === null)
      ? booking.sms
      : null;
  const row = await repository.insertAppointment(tx, {
    clinicId: clinic.id,
    caregiverId: caregiver.id,
    patientId: patient.id,
    appointmentTypeId: type.id,
    startAt: new Date(start),
    endAt: new Date(end),
    localDate,
    detailsSmsCount: sms === null ? 0 : 1,
    language: booking.language,
    source: booking.source,
  });
  await reminders.plan(tx, { id: row.id, clinicId: clinic.id, startAt: new Date(start) });
  await calendar.queueWrite(tx, row.id);
  // In the booking's transaction: the patient's message goes out once, and only if it commits.
  // The details name everything the booking notice does: one or the other, never both.
  if (sms !== null) {
    await messaging.queueMessage(tx, {
      clinicId: clinic.id,
      to: patient.phone,
      body: sms,
      expiresAt: new Date(end),
      kind: 'appointment_details',
    });
  } else if (booking.sms === null) {
    await notices.queue(tx, {
      appointmentId: row.id,
      change: { kind: 'booked' },
      actor: booking.actor,
      now: booking.now,
      requested: booking.requested,
    });
  }
  // Its data is the row as written: `source` tells the clinic's own bookings apart.
  await webhooks.emitAppointment(tx, 'appointment.booked', { id: row.id, clinicId: clinic.id });
  await waitlist.markBooked(tx, {
    patientId: patient.id,
    caregiverId: caregiver.id,
    appointmentTypeId: type.id,
    localDate,
    at: new Date(booking.now),
  });
  return { id: row.id, detailsSent: sms !== null };
}

/**
 * The patient of a clinic booking: found by ID number (the phone must be the one on file, as
 * at login; the names on file stay), or signed up with the body's details as a verified
 * sign-up would be. In the booking's transaction: a refused booking signs nobody up.
 */
async function findOrSignUp(
  ctx: AppointmentsContext,
  tx: Transaction,
  clinicId: number,
  details: ClinicBookingBody['patient'],
): Promise<{ id: number; phone: string; created: boolean }> {
  const { patients } = ctx;
  const known = await patients.findPatient(tx, clinicId, details.id_number);
  // A new ID number on the phone counts against its identities as a patient's own sign-up
  // does, under the same lock (held to the end of the booking), so a race cannot overshoot.
  if (
    !known &&
    (await patients.lockAndCountIdentities(tx, clinicId, details.phone)) >= MAX_IDENTITIES_PER_PHONE
  ) {
    throw tooManyIdentities();
  }
  const inserted = known
    ? null
    : await patients.insertPatient(tx, {
        clinicId,
        idNumber: details.id_number,
        firstName: details.first_name,
        lastName: details.last_name,
        phone: details.phone,
      });
  // A concurrent sign-up of the same ID number won: it is a known patient now.
  const row = known ?? inserted ?? (await patients.findPatient(tx, clinicId, details.id_number));
  if (!row) throw new Error('findOrSignUp: the patient vanished');
  if (row.phone !== details.phone) {
    throw invalidField(
      'patient.phone',
      `This ID number is registered with another phone (ending ${row.phone.slice(-PHONE_HINT_DIGITS)}); the patient logs in with that one`,
    );
  }
  return { id: row.id, phone: row.phone, created: inserted !== null };
}

/**
 * `POST /api/appointment`. `language`: what the patient booked in; the appointment's messages
 * speak it.
 */
export function bookAppointment(ctx: AppointmentsContext) {
  return async function book(
    patient: SessionPatient,
    body: BookAppointmentBody,
    language: MessageLanguage = 'he',
  ): Promise<BookedAppointment> {
    const prepared = await prepareBooking(ctx, patient, body, language);
    const { clinic, caregiver, type, start, end } = prepared;
    await checkCalendar(ctx, caregiver.id, start, end);
    const { id, detailsSent } = await inBookingTransaction(ctx, async (tx) => {
      const now = ctx.clock();
      await ctx.repository.lockCaregiverBookings(tx, caregiver.id);
      // Serialises the patient's bookings (the lock of the limit), so the cap below holds in a
      // race too; a refused booking rolls its count back.
      await ctx.takeLimit(tx, limits.book, patientSubject(patient), now);
      return writeBooking(ctx, tx, {
        ...prepared,
        patient,
        language,
        source: 'patient',
        checkBusy: true,
        maxUpcoming: clinic.maxUpcomingAppointments,
        now,
        actor: patientSubject(patient),
        capTaken: false,
      });
    });
    afterChange(ctx, clinic.id, { freedTime: false });
    return bookedView(id, { clinic, caregiver, type, start, end, detailsSent });
  };
}

/**
 * `POST /api/integration/appointments`: the clinic books a patient (found by ID number or
 * signed up). Through the same transaction as a patient's booking, so the same constraints,
 * reminders, webhook and waitlist rules apply; without the patient's online limits (the
 * upcoming cap, the booking rate), which guard self-service. Audited as `clinicActor.actor`.
 */
export function bookForClinic(ctx: AppointmentsContext) {
  return async function bookForClinic(
    clinicActor: ClinicActor,
    body: ClinicBookingBody,
  ): Promise<{ id: number; patientCreated: boolean }> {
    const start = Date.parse(body.start_date);
    const slot = await loadSlot(
      ctx,
      {
        clinicId: clinicActor.clinicId,
        caregiverId: body.caregiver_id,
        appointmentTypeId: body.appointment_type_id,
        start,
      },
      { type: 'appointment_type_id', start: 'start_date' },
    );
    const end = start + slot.type.durationMinutes * MINUTE;
    if (start <= ctx.clock()) throw invalidField('start_date', 'The start has passed');
    await checkClinicSlot(ctx, slot, start, end, body);
    const language = body.language ?? 'he';
    const sms = body.send_sms === true ? detailsMessage(slot, start, language) : null;

    type Outcome = { refused: MessageCapRefusal } | { id: number; patientCreated: boolean };
    const outcome = await inBookingTransaction(ctx, async (tx): Promise<Outcome> => {
      const now = ctx.clock();
      await ctx.repository.lockCaregiverBookings(tx, slot.caregiver.id);
      // The details message asked for counts against the clinic's message caps: refused, the
      // booking is not made either (nothing but the refusal's audit entry is committed); the
      // clinic may book again without send_sms. After the caregiver's lock, as every booking
      // takes the caps' lock (one order: no deadlock).
      if (sms !== null) {
        const refused = await takeMessageCap(tx, {
          clinicId: slot.clinic.id,
          to: body.patient.phone,
          kind: 'clinic_booking',
          actor: clinicActor.actor,
          now,
        });
        if (refused) return { refused };
      }
      const patient = await findOrSignUp(ctx, tx, slot.clinic.id, body.patient);
      const { id } = await writeBooking(ctx, tx, {
        ...slot,
        start,
        end,
        sms,
        patient,
        language,
        source: 'clinic',
        checkBusy: body.ignore_busy_times !== true,
        maxUpcoming: null,
        now,
        actor: clinicActor.actor,
        capTaken: true,
        requested: body.send_sms,
      });
      await audit(tx, {
        clinicId: slot.clinic.id,
        actor: clinicActor.actor,
        action: 'appointment.book',
        targetType: 'appointment',
        targetId: id,
        details: {
          caregiver_id: slot.caregiver.id,
          appointment_type_id: slot.type.id,
          start_at: new Date(start).toISOString(),
          patient_id: patient.id,
          patient_created: patient.created,
          outside_working_hours: body.outside_working_hours === true,
          ignore_busy_times: body.ignore_busy_times === true,
          send_sms: sms !== null,
        },
        at: new Date(now),
      });
      return { id, patientCreated: patient.created };
    });
    if ('refused' in outcome) throw messageCapError(outcome.refused);
    afterChange(ctx, slot.clinic.id, { freedTime: false });
    return outcome;
  };
}
