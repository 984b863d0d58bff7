import { setTimeout as sleep } from 'node:timers/promises';
import {
  APPOINTMENT_SMS_LIMIT,
  MAX_IDENTITIES_PER_PHONE,
  PHONE_HINT_DIGITS,
  type AppointmentSource,
  type BookAppointmentBody,
  type ClinicBookingBody,
  type ClinicRescheduleBody,
  type BookedAppointment,
  type PatientAppointment,
  type SendAppointmentSmsBody,
  type UpcomingCap,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Transaction } from '../../platform/db/client.js';
import { AppError, clinicNotFound, invalidField, isAppError } from '../../platform/errors.js';
import { limits, takeLimit } from '../../platform/limits.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import type { CalendarSync } from '../calendar-sync/calendar-sync-service.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import { formatZonedIso, zonedDate } from '../../platform/zoned-time.js';
import type { ClinicDataCache } from '../clinics/clinic-data-cache.js';
import type { Messaging } from '../messaging/messaging.js';
import type {
  PatientAuthRepository,
  SessionPatient,
} from '../patient-auth/patient-auth-repository.js';
import type { Writer } from '../integration/integration-auth.js';
import { tooManyIdentities } from '../patient-auth/patient-auth-service.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { appointmentSmsMessage } from './appointment-sms.js';
import type { ChangeNotices } from './change-notices.js';
import {
  bookingConflictOf,
  isRetryableConflict,
  type AppointmentsRepository,
} from './appointments-repository.js';

const MINUTE = 60_000;

export interface AppointmentsServiceDeps {
  repository: Pick<
    AppointmentsRepository,
    | 'db'
    | 'findBookingSubject'
    | 'findBookingOnDate'
    | 'countUpcoming'
    | 'lockAndCountUpcomingOfPhone'
    | 'countUpcomingOfPhone'
    | 'findMaxUpcoming'
    | 'lockCaregiverBookings'
    | 'findOverlapping'
    | 'insertAppointment'
    | 'moveAppointment'
    | 'listUpcoming'
    | 'lockOwnAppointment'
    | 'lockClinicAppointment'
    | 'findNoticeSubject'
    | 'findCaregiverName'
    | 'cancelAppointment'
    | 'findOwnUpcoming'
    | 'takeSmsAllowance'
  >;
  availability: Pick<AvailabilityService, 'isOfferedSlot'>;
  /** What blocks a caregiver besides appointments (the clinic's busy times), checked in the transaction. */
  busy: Pick<AvailabilityRepository, 'overlapsExternalBusy'>;
  /** Clinic bookings find the patient by ID number, or sign them up as the login flow does. */
  patients: Pick<PatientAuthRepository, 'findPatient' | 'insertPatient' | 'lockAndCountIdentities'>;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  /** Every booking, move and cancellation is told to the patient, in its transaction. */
  notices: Pick<ChangeNotices, 'queue'>;
  /** appointment.booked, .cancelled and .rescheduled, emitted in the change's transaction. */
  webhooks: Pick<Webhooks, 'emitAppointment' | 'emitAppointmentRescheduled' | 'kick'>;
  /** Planned with a booking or a move, withdrawn with a cancellation, in its transaction. */
  reminders: Pick<Reminders, 'plan' | 'withdraw'>;
  /** Freed slots are offered to waiting patients; a booking settles the patient's own entries. */
  waitlist: Pick<WaitlistService, 'queueOffers' | 'markBooked' | 'kick'>;
  /** The clinic page's first available slots change with every booking and cancellation. */
  cache: Pick<ClinicDataCache, 'invalidate'>;
  /**
   * The caregiver's synced Google Calendar: asked once more just before a booking (its mirror is
   * checked in the transaction with the busy times), and told of every change (the write-back).
   */
  calendar: Pick<CalendarSync, 'lastCheck' | 'queueWrite'>;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Runs of a booking transaction that lost a deadlock before answering slot_taken (default 5). */
  maxBookingAttempts?: number;
  /** The per-patient limits' counter (platform/limits.ts); a unit test without SQL replaces it. */
  takeLimit?: typeof takeLimit;
}

/** The clinic's cancellation notice has not begun: start − now ≥ notice. */
export function isCancellable(startMs: number, cancelNoticeMinutes: number, now: number): boolean {
  return startMs - now >= cancelNoticeMinutes * MINUTE;
}

const otherClinic = () =>
  new AppError('forbidden', 403, "Appointments are booked at the patient's own clinic only");

const slotTaken = () =>
  new AppError('slot_taken', 409, 'The slot was taken meanwhile; choose another one');

const existingAppointment = () =>
  new AppError(
    'existingAppointment',
    409,
    'It is not possible to book more than one appointment on the same date',
  );

const tooManyUpcoming = (max: number) =>
  new AppError(
    'too_many_upcoming',
    409,
    `A patient may hold ${max} upcoming appointments at this clinic; cancel one or contact the clinic`,
    { max },
  );

/** The subject of a patient's per-patient limits (platform/limits.ts). */
const patientSubject = (patient: SessionPatient) => `patient:${patient.id}`;

const appointmentNotFound = () =>
  new AppError('appointment_not_found', 404, 'Appointment not found');

/**
 * Booking, the patient's upcoming appointments, cancellation and the details SMS. Whether a slot
 * is free is decided inside the booking transaction and, in a race, by the database: the
 * caregiver's EXCLUDE constraint and the one-booking-per-date index (drizzle/0001).
 */
export function createAppointmentsService(deps: AppointmentsServiceDeps) {
  const { repository, availability, busy, patients, messaging, webhooks, reminders, waitlist } =
    deps;
  const { cache, calendar, clock, notices } = deps;
  const maxAttempts = deps.maxBookingAttempts ?? 5;
  const take = deps.takeLimit ?? takeLimit;

  /** Runs the booking transaction, answering the database's refusals as 409s. */
  async function inBookingTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await repository.db.transaction(work);
      } catch (error) {
        if (isAppError(error)) throw error;
        const conflict = bookingConflictOf(error);
        if (conflict === 'slot_taken') throw slotTaken();
        if (conflict === 'existingAppointment') throw existingAppointment();
        if (!isRetryableConflict(error)) throw error;
        // Chosen as a deadlock victim by a concurrent booking of an overlapping interval: the next
        // run sees that booking if it committed. Still contended after several runs: it is taken.
        if (attempt >= maxAttempts) throw slotTaken();
        await sleep(Math.round(attempt * (5 + Math.random() * 20)));
      }
    }
  }

  /**
   * The clinic, caregiver and type a booking names exist and fit, and the interval has the
   * type's length. `fields` names the body's fields in the 400s (the patient's and the clinic's
   * bodies spell them differently).
   */
  async function loadSlot(
    wanted: { clinicId: number; caregiverId: number; appointmentTypeId: number; start: number },
    fields: { type: string; start: string },
  ) {
    const subject = await repository.findBookingSubject(
      wanted.clinicId,
      wanted.caregiverId,
      wanted.appointmentTypeId,
    );
    if (!subject) throw clinicNotFound(wanted.clinicId);
    const { clinic, caregiver, type } = subject;
    if (!caregiver?.isActive) {
      throw new AppError(
        'caregiver_not_found',
        404,
        `Caregiver ${wanted.caregiverId} not found in clinic ${clinic.id}`,
      );
    }
    if (!type) {
      throw new AppError(
        'appointment_type_not_found',
        404,
        `Appointment type ${wanted.appointmentTypeId} not found in clinic ${clinic.id}`,
      );
    }
    if (!subject.offersType) {
      throw invalidField(fields.type, 'The caregiver does not offer this appointment type');
    }
    const localDate = zonedDate(wanted.start, clinic.timezone);
    return { clinic, caregiver, type, localDate };
  }

  /** Whether the engine offers exactly [start, end) now: 400 naming `field` otherwise. */
  async function checkOffered(
    slot: Pick<Awaited<ReturnType<typeof loadSlot>>, 'clinic' | 'caregiver' | 'type'>,
    start: number,
    end: number,
    field: string,
    hint: string,
  ) {
    const { offered } = await availability.isOfferedSlot({
      clinicId: slot.clinic.id,
      caregiverId: slot.caregiver.id,
      durationMinutes: slot.type.durationMinutes,
      start,
      end,
    });
    if (!offered) throw invalidField(field, `Not a slot the caregiver offers now; ${hint}`);
  }

  /** The details SMS of a booking, in the patient's language. */
  function detailsMessage(
    slot: Pick<Awaited<ReturnType<typeof loadSlot>>, 'clinic' | 'caregiver' | 'type'>,
    start: number,
    language: MessageLanguage,
  ): string {
    const { clinic, caregiver, type } = slot;
    return appointmentSmsMessage(
      {
        clinicName: clinic.name,
        street: clinic.street,
        homeNumber: clinic.homeNumber,
        city: clinic.city,
        timezone: clinic.timezone,
        caregiverName: caregiver.name,
        typeName: type.name,
        start,
      },
      language,
    );
  }

  /**
   * Everything about a patient's wanted slot that needs no lock: the clinic, caregiver and type
   * exist and fit, the interval is one the engine offers now, and the details SMS text when the
   * clinic sends it.
   */
  async function prepareBooking(
    patient: SessionPatient,
    body: BookAppointmentBody,
    language: MessageLanguage,
  ) {
    if (body.clinicId !== patient.clinicId) throw otherClinic();
    const start = Date.parse(body.startDate);
    const end = Date.parse(body.endDate);
    const slot = await loadSlot(
      {
        clinicId: body.clinicId,
        caregiverId: body.caregiverId,
        appointmentTypeId: body.appointmentTypeId,
        start,
      },
      { type: 'appointmentTypeId', start: 'startDate' },
    );
    if (end - start !== slot.type.durationMinutes * MINUTE) {
      throw invalidField(
        'endDate',
        `This appointment type lasts ${slot.type.durationMinutes} minutes: endDate must be startDate plus that`,
      );
    }
    await checkOffered(slot, start, end, 'startDate', 'choose one from available-slots');
    const sms = slot.clinic.isAutoSmsEnabled ? detailsMessage(slot, start, language) : null;
    return { ...slot, start, end, sms };
  }

  type PreparedBooking = Awaited<ReturnType<typeof loadSlot>> & {
    start: number;
    end: number;
    sms: string | null;
  };

  /**
   * The last check before a booking: the clinic's diary may have given the time away since the
   * mirror last heard from the calendar (a phone booking a moment ago), so the calendar is asked
   * itself, briefly; no answer in time books on the mirror (checked in the transaction).
   */
  async function checkCalendar(caregiverId: number, start: number, end: number): Promise<void> {
    if ((await calendar.lastCheck(caregiverId, start, end)) === 'busy') throw slotTaken();
  }

  /**
   * The booking itself, in the booking transaction after the caregiver's lock: the refusals
   * answered without an error from the database (the constraints still have the last word), the
   * row, its reminders, details message, webhook and waitlist settlement. Patient and clinic
   * bookings both come through here.
   */
  async function writeBooking(
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
        // Per phone too: identities signed up on one phone share its cap (issue 25).
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
    tx: Transaction,
    clinicId: number,
    details: ClinicBookingBody['patient'],
  ): Promise<{ id: number; phone: string; created: boolean }> {
    const known = await patients.findPatient(tx, clinicId, details.id_number);
    // A new ID number on the phone counts against its identities as a patient's own sign-up
    // does, under the same lock (held to the end of the booking), so a race cannot overshoot.
    if (
      !known &&
      (await patients.lockAndCountIdentities(tx, clinicId, details.phone)) >=
        MAX_IDENTITIES_PER_PHONE
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
   * The patient's own booked appointment, locked, while its cancellation notice has not begun:
   * what may be cancelled or moved online. 404 when it is not theirs, 409 otherwise.
   */
  async function lockChangeable(
    tx: Transaction,
    patient: SessionPatient,
    appointmentId: number,
    now: number,
    change: 'cancelled' | 'changed',
  ) {
    const row = await repository.lockOwnAppointment(tx, appointmentId, patient.id);
    if (!row) throw appointmentNotFound();
    if (row.status !== 'booked') {
      throw new AppError('not_cancellable', 409, 'The appointment is already cancelled');
    }
    if (!isCancellable(row.startAt.getTime(), row.cancelNoticeMinutes, now)) {
      throw new AppError(
        'not_cancellable',
        409,
        `The appointment can no longer be ${change} online; please contact the clinic`,
      );
    }
    return row;
  }

  function bookedView(
    id: number,
    slot: Pick<PreparedBooking, 'clinic' | 'caregiver' | 'type'> & {
      start: number;
      end: number;
      /** The appointment's details went to the patient's phone with the change. */
      detailsSent: boolean;
    },
  ): BookedAppointment {
    return {
      id,
      clinic_id: slot.clinic.id,
      caregiver_id: slot.caregiver.id,
      appointment_type_id: slot.type.id,
      start_date: formatZonedIso(slot.start, slot.clinic.timezone),
      end_date: formatZonedIso(slot.end, slot.clinic.timezone),
      sms_sent: slot.detailsSent,
    };
  }

  return {
    /** `POST /api/appointment`. */
    /** `language`: what the patient booked in; the appointment's messages speak it. */
    async book(
      patient: SessionPatient,
      body: BookAppointmentBody,
      language: MessageLanguage = 'he',
    ): Promise<BookedAppointment> {
      const prepared = await prepareBooking(patient, body, language);
      const { clinic, caregiver, type, start, end } = prepared;
      await checkCalendar(caregiver.id, start, end);
      const { id, detailsSent } = await inBookingTransaction(async (tx) => {
        const now = clock();
        await repository.lockCaregiverBookings(tx, caregiver.id);
        // Serialises the patient's bookings (the lock of the limit), so the cap below holds in a
        // race too; a refused booking rolls its count back.
        await take(tx, limits.book, patientSubject(patient), now);
        return writeBooking(tx, {
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
      cache.invalidate(clinic.id);
      messaging.kick();
      webhooks.kick();
      return bookedView(id, { clinic, caregiver, type, start, end, detailsSent });
    },

    /**
     * `POST /api/appointment/patient-appointments/:id/reschedule`: moves the patient's own
     * cancellable appointment to the slot of `body` in one transaction (an UPDATE of the row): the
     * old slot is freed and the new one taken together, or nothing changes. The one-per-date rule
     * counts the moved appointment as itself.
     */
    async reschedule(
      patient: SessionPatient,
      appointmentId: number,
      body: BookAppointmentBody,
      language: MessageLanguage = 'he',
    ): Promise<BookedAppointment> {
      const { clinic, caregiver, type, start, end, localDate, sms } = await prepareBooking(
        patient,
        body,
        language,
      );
      await checkCalendar(caregiver.id, start, end);

      const detailsSent = await inBookingTransaction(async (tx) => {
        const now = clock();
        const row = await lockChangeable(tx, patient, appointmentId, now, 'changed');
        if (
          row.caregiverId === caregiver.id &&
          row.appointmentTypeId === type.id &&
          row.startAt.getTime() === start
        ) {
          throw invalidField('startDate', 'This is the appointment’s time already');
        }
        // Both caregivers' queues, in id order so two opposite moves cannot deadlock.
        for (const id of [...new Set([row.caregiverId, caregiver.id])].sort((a, b) => a - b)) {
          await repository.lockCaregiverBookings(tx, id);
        }
        await take(tx, limits.book, patientSubject(patient), now);
        const onDate = await repository.findBookingOnDate(tx, clinic.id, patient.id, localDate);
        if (onDate && onDate.id !== row.id) throw existingAppointment();
        const startAt = new Date(start);
        if (await repository.findOverlapping(tx, caregiver.id, startAt, new Date(end), row.id)) {
          throw slotTaken();
        }
        if (await busy.overlapsExternalBusy(tx, caregiver.id, startAt, new Date(end))) {
          throw slotTaken();
        }
        await repository.moveAppointment(tx, row.id, {
          caregiverId: caregiver.id,
          appointmentTypeId: type.id,
          startAt,
          endAt: new Date(end),
          localDate,
          language,
          // The details allowance starts again for the new time.
          detailsSmsCount: 0,
        });
        // The old time's reminders are withdrawn, the new time's planned.
        await reminders.plan(tx, { id: row.id, clinicId: clinic.id, startAt });
        await calendar.queueWrite(tx, row.id);
        const actor = patientSubject(patient);
        const told = await notices.queue(tx, {
          appointmentId: row.id,
          change: {
            kind: 'moved',
            previousStart: row.startAt,
            previousCaregiverId: row.caregiverId,
          },
          actor,
          now,
        });
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
          await repository.takeSmsAllowance(tx, row.id, APPOINTMENT_SMS_LIMIT);
          await messaging.queueMessage(tx, {
            clinicId: clinic.id,
            to: patient.phone,
            body: sms,
            expiresAt: new Date(end),
            kind: 'appointment_details',
          });
        }
        await waitlist.markBooked(tx, {
          patientId: patient.id,
          caregiverId: caregiver.id,
          appointmentTypeId: type.id,
          localDate,
          at: new Date(now),
        });
        // The old slot is free for those waiting.
        await waitlist.queueOffers(tx, {
          clinicId: clinic.id,
          caregiverId: row.caregiverId,
          freed: { startAt: row.startAt, endAt: row.endAt },
        });
        await webhooks.emitAppointmentRescheduled(
          tx,
          { id: row.id, clinicId: clinic.id },
          {
            caregiver_id: row.caregiverId,
            appointment_type_id: row.appointmentTypeId,
            start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
            end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
          },
        );
        return details;
      });
      cache.invalidate(clinic.id);
      messaging.kick();
      webhooks.kick();
      waitlist.kick();
      return bookedView(appointmentId, { clinic, caregiver, type, start, end, detailsSent });
    },

    /**
     * `POST /api/integration/appointments`: the clinic books a patient (found by ID number or
     * signed up). Through the same transaction as a patient's booking, so the same constraints,
     * reminders, webhook and waitlist rules apply; without the patient's online limits (the
     * upcoming cap, the booking rate), which guard self-service. Audited as `writer.actor`.
     */
    async bookForClinic(
      writer: Writer,
      body: ClinicBookingBody,
    ): Promise<{ id: number; patientCreated: boolean }> {
      const start = Date.parse(body.start_date);
      const slot = await loadSlot(
        {
          clinicId: writer.clinicId,
          caregiverId: body.caregiver_id,
          appointmentTypeId: body.appointment_type_id,
          start,
        },
        { type: 'appointment_type_id', start: 'start_date' },
      );
      const end = start + slot.type.durationMinutes * MINUTE;
      if (start <= clock()) throw invalidField('start_date', 'The start has passed');
      if (body.outside_working_hours !== true) {
        await checkOffered(
          slot,
          start,
          end,
          'start_date',
          'choose one from available-slots, or send outside_working_hours: true',
        );
      }
      if (body.ignore_busy_times !== true) await checkCalendar(slot.caregiver.id, start, end);
      const language = body.language ?? 'he';
      const sms = body.send_sms === true ? detailsMessage(slot, start, language) : null;

      type Outcome = { refused: MessageCapRefusal } | { id: number; patientCreated: boolean };
      const outcome = await inBookingTransaction(async (tx): Promise<Outcome> => {
        const now = clock();
        await repository.lockCaregiverBookings(tx, slot.caregiver.id);
        // The details message asked for counts against the clinic's message caps: refused, the
        // booking is not made either (nothing but the refusal's audit entry is committed); the
        // clinic may book again without send_sms. After the caregiver's lock, as every booking
        // takes the caps' lock (one order: no deadlock).
        if (sms !== null) {
          const refused = await takeMessageCap(tx, {
            clinicId: slot.clinic.id,
            to: body.patient.phone,
            kind: 'clinic_booking',
            actor: writer.actor,
            now,
          });
          if (refused) return { refused };
        }
        const patient = await findOrSignUp(tx, slot.clinic.id, body.patient);
        const { id } = await writeBooking(tx, {
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
          actor: writer.actor,
          capTaken: true,
          requested: body.send_sms,
        });
        await audit(tx, {
          clinicId: slot.clinic.id,
          actor: writer.actor,
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
      cache.invalidate(slot.clinic.id);
      messaging.kick();
      webhooks.kick();
      return outcome;
    },

    /** `GET /api/appointment/patient-appointments`: booked, not yet ended, by start. */
    async listUpcoming(patient: SessionPatient): Promise<PatientAppointment[]> {
      const now = clock();
      const rows = await repository.listUpcoming(patient.id, patient.clinicId, new Date(now));
      return rows.map((row) => ({
        id: row.id,
        caregiver_id: row.caregiverId,
        appointment_type_id: row.appointmentTypeId,
        caregiver_name: row.caregiverName,
        type_name: row.typeName,
        start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
        end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
        is_marpe_cancellable: isCancellable(row.startAt.getTime(), row.cancelNoticeMinutes, now),
      }));
    },

    /**
     * `GET /api/appointment/upcoming-cap`: the count the booking's cap check compares (the
     * patient's own, or the phone's when more), without its lock: the booking still decides.
     */
    async upcomingCap(patient: SessionPatient): Promise<UpcomingCap> {
      const now = new Date(clock());
      const [max, own, ofPhone] = await Promise.all([
        repository.findMaxUpcoming(patient.clinicId),
        repository.countUpcoming(repository.db, patient.id, now),
        repository.countUpcomingOfPhone(repository.db, patient.clinicId, patient.phone, now),
      ]);
      if (max === null) throw clinicNotFound(patient.clinicId);
      return { max, held: Math.max(own, ofPhone) };
    },

    /** `PUT /api/appointment/patient-appointments`: the slot is free again once this returns. */
    async cancel(patient: SessionPatient, appointmentId: number): Promise<void> {
      const now = clock();
      const clinicId = await repository.db.transaction(async (tx) => {
        const row = await lockChangeable(tx, patient, appointmentId, now, 'cancelled');
        await take(tx, limits.cancel, patientSubject(patient), now);
        await repository.cancelAppointment(tx, row.id, new Date(now));
        await reminders.withdraw(tx, row.id);
        await calendar.queueWrite(tx, row.id);
        await notices.queue(tx, {
          appointmentId: row.id,
          change: { kind: 'cancelled' },
          actor: patientSubject(patient),
          now,
        });
        await webhooks.emitAppointment(tx, 'appointment.cancelled', {
          id: row.id,
          clinicId: row.clinicId,
        });
        await waitlist.queueOffers(tx, {
          clinicId: row.clinicId,
          caregiverId: row.caregiverId,
          freed: { startAt: row.startAt, endAt: row.endAt },
        });
        return row.clinicId;
      });
      cache.invalidate(clinicId);
      messaging.kick();
      webhooks.kick();
      waitlist.kick();
    },

    /**
     * `POST /api/integration/appointments/:id/reschedule`: the clinic moves one of its booked
     * appointments (same patient, same type) to `start_date`, with another caregiver if it names
     * one. As the patient's reschedule: one transaction (an UPDATE of the row), the same locks and
     * constraints, reminders planned again, the calendar written back, the freed time offered to
     * the waitlist, appointment.rescheduled raised; as a clinic booking: any time the caregiver is
     * free with outside_working_hours, over busy times with ignore_busy_times. The patient is told
     * by the move's notice when the clinic tells moves, or as send_sms says for this move (true:
     * told, counted by the message caps first: refused, 429 and nothing moves; false: not told).
     * Audited as `writer.actor`.
     */
    async rescheduleForClinic(
      writer: Writer,
      appointmentId: number,
      body: ClinicRescheduleBody,
    ): Promise<void> {
      const current = await repository.lockClinicAppointment(
        repository.db,
        appointmentId,
        writer.clinicId,
        false,
      );
      if (!current) throw appointmentNotFound();
      if (current.status !== 'booked') {
        throw new AppError('not_cancellable', 409, 'The appointment is cancelled: book a new one');
      }
      const start = Date.parse(body.start_date);
      const slot = await loadSlot(
        {
          clinicId: writer.clinicId,
          caregiverId: body.caregiver_id ?? current.caregiverId,
          appointmentTypeId: current.appointmentTypeId,
          start,
        },
        { type: 'caregiver_id', start: 'start_date' },
      );
      const end = start + slot.type.durationMinutes * MINUTE;
      if (start <= clock()) throw invalidField('start_date', 'The start has passed');
      if (slot.caregiver.id === current.caregiverId && start === current.startAt.getTime()) {
        throw invalidField('start_date', 'This is the appointment’s time already');
      }
      if (body.outside_working_hours !== true) {
        await checkOffered(
          slot,
          start,
          end,
          'start_date',
          'choose one from available-slots, or send outside_working_hours: true',
        );
      }
      if (body.ignore_busy_times !== true) await checkCalendar(slot.caregiver.id, start, end);
      const asked = body.send_sms === true;
      const { localDate } = slot;

      type Outcome = { refused: MessageCapRefusal } | { moved: true };
      const outcome = await inBookingTransaction(async (tx): Promise<Outcome> => {
        const now = clock();
        const row = await repository.lockClinicAppointment(tx, appointmentId, writer.clinicId);
        if (!row) throw appointmentNotFound();
        if (row.status !== 'booked') {
          throw new AppError(
            'not_cancellable',
            409,
            'The appointment is cancelled: book a new one',
          );
        }
        // Both caregivers' queues, in id order so two opposite moves cannot deadlock.
        for (const id of [...new Set([row.caregiverId, slot.caregiver.id])].sort((a, b) => a - b)) {
          await repository.lockCaregiverBookings(tx, id);
        }
        // Asked for (send_sms), the patient's message counts against the caps before anything
        // moves: refused, nothing does (429).
        if (asked) {
          const refused = await takeMessageCap(tx, {
            clinicId: writer.clinicId,
            to: row.phone,
            kind: 'clinic_booking',
            actor: writer.actor,
            now,
          });
          if (refused) return { refused };
        }
        const onDate = await repository.findBookingOnDate(
          tx,
          writer.clinicId,
          row.patientId,
          localDate,
        );
        if (onDate && onDate.id !== row.id) throw existingAppointment();
        const startAt = new Date(start);
        const endAt = new Date(end);
        if (await repository.findOverlapping(tx, slot.caregiver.id, startAt, endAt, row.id)) {
          throw slotTaken();
        }
        if (
          body.ignore_busy_times !== true &&
          (await busy.overlapsExternalBusy(tx, slot.caregiver.id, startAt, endAt))
        ) {
          throw slotTaken();
        }
        await repository.moveAppointment(tx, row.id, {
          caregiverId: slot.caregiver.id,
          appointmentTypeId: row.appointmentTypeId,
          startAt,
          endAt,
          localDate,
          language: row.language,
          // The details allowance starts again for the new time.
          detailsSmsCount: 0,
        });
        // The old time's reminders are withdrawn, the new time's planned.
        await reminders.plan(tx, { id: row.id, clinicId: writer.clinicId, startAt });
        await calendar.queueWrite(tx, row.id);
        // The move's notice names the new time (and the old): told when the clinic tells moves,
        // or as send_sms says for this one.
        await notices.queue(tx, {
          appointmentId: row.id,
          change: {
            kind: 'moved',
            previousStart: row.startAt,
            previousCaregiverId: row.caregiverId,
          },
          actor: writer.actor,
          now,
          requested: body.send_sms,
          capTaken: asked,
        });
        await waitlist.markBooked(tx, {
          patientId: row.patientId,
          caregiverId: slot.caregiver.id,
          appointmentTypeId: row.appointmentTypeId,
          localDate,
          at: new Date(now),
        });
        // The old time is free for those waiting.
        await waitlist.queueOffers(tx, {
          clinicId: writer.clinicId,
          caregiverId: row.caregiverId,
          freed: { startAt: row.startAt, endAt: row.endAt },
        });
        const previous = {
          caregiver_id: row.caregiverId,
          appointment_type_id: row.appointmentTypeId,
          start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
          end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
        };
        await webhooks.emitAppointmentRescheduled(
          tx,
          { id: row.id, clinicId: writer.clinicId },
          previous,
        );
        await audit(tx, {
          clinicId: writer.clinicId,
          actor: writer.actor,
          action: 'appointment.reschedule',
          targetType: 'appointment',
          targetId: row.id,
          details: {
            from: { caregiver_id: row.caregiverId, start_at: row.startAt.toISOString() },
            to: { caregiver_id: slot.caregiver.id, start_at: startAt.toISOString() },
            outside_working_hours: body.outside_working_hours === true,
            ignore_busy_times: body.ignore_busy_times === true,
            send_sms: asked,
          },
          at: new Date(now),
        });
        return { moved: true };
      });
      if ('refused' in outcome) throw messageCapError(outcome.refused);
      cache.invalidate(writer.clinicId);
      messaging.kick();
      webhooks.kick();
      waitlist.kick();
    },

    /**
     * `POST /api/integration/appointments/:id/cancel`: the clinic cancels one of its booked
     * appointments, whatever the patient's online cancellation notice. `reason` is kept on the
     * appointment (for the clinic's eyes). The patient is told (change-notices.ts) when the clinic
     * tells cancellations, or as `sendSms` says for this one (true: told, counted by the message caps
     * first: refused, nothing is cancelled; false: not told). Audited as `actor`.
     */
    async cancelForClinic(
      clinicId: number,
      appointmentId: number,
      actor: string,
      options: { reason?: string | null; sendSms?: boolean } = {},
    ): Promise<void> {
      const now = clock();
      const reason = options.reason?.trim() ? options.reason.trim() : null;
      const refused = await repository.db.transaction(async (tx) => {
        const row = await repository.lockClinicAppointment(tx, appointmentId, clinicId);
        if (!row) throw appointmentNotFound();
        if (row.status !== 'booked') {
          throw new AppError('not_cancellable', 409, 'The appointment is already cancelled');
        }
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
        await repository.cancelAppointment(tx, row.id, new Date(now), reason);
        await reminders.withdraw(tx, row.id);
        await calendar.queueWrite(tx, row.id);
        // Never the clinic's reason (kept for its eyes).
        await notices.queue(tx, {
          appointmentId: row.id,
          change: { kind: 'cancelled' },
          actor,
          now,
          requested: options.sendSms,
          capTaken: options.sendSms === true,
        });
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
        await webhooks.emitAppointment(tx, 'appointment.cancelled', { id: row.id, clinicId });
        await waitlist.queueOffers(tx, {
          clinicId,
          caregiverId: row.caregiverId,
          freed: { startAt: row.startAt, endAt: row.endAt },
        });
        return null;
      });
      if (refused) throw messageCapError(refused);
      cache.invalidate(clinicId);
      messaging.kick();
      webhooks.kick();
      waitlist.kick();
    },

    /** `POST /api/appointment/send-sms`: the details of the patient's own upcoming appointment. */
    async sendSms(patient: SessionPatient, body: SendAppointmentSmsBody): Promise<void> {
      if (body.clinicId !== patient.clinicId) throw otherClinic();
      const now = clock();
      const appointment = await repository.findOwnUpcoming(
        patient.id,
        {
          clinicId: body.clinicId,
          caregiverId: body.caregiverId,
          appointmentTypeId: body.appointmentTypeId,
          start: new Date(Date.parse(body.startDate)),
          end: new Date(Date.parse(body.endDate)),
        },
        new Date(now),
      );
      if (!appointment) throw appointmentNotFound();
      const message = appointmentSmsMessage(
        { ...appointment, start: appointment.startAt.getTime() },
        appointment.language,
      );
      const refused = await repository.db.transaction(async (tx) => {
        // Counted by the clinic's message caps like every message to a patient; refused, only
        // the refusal's audit entry is committed.
        const cap = await takeMessageCap(tx, {
          clinicId: patient.clinicId,
          to: patient.phone,
          kind: 'appointment_details',
          actor: patientSubject(patient),
          now,
        });
        if (cap) return cap;
        await take(tx, limits.detailsMessage, patientSubject(patient), now);
        if (!(await repository.takeSmsAllowance(tx, appointment.id, APPOINTMENT_SMS_LIMIT))) {
          throw new AppError(
            'too_many_requests',
            429,
            `The details of this appointment were sent ${APPOINTMENT_SMS_LIMIT} times already`,
          );
        }
        await messaging.queueMessage(tx, {
          clinicId: patient.clinicId,
          to: patient.phone,
          body: message,
          expiresAt: appointment.endAt,
          kind: 'appointment_details',
        });
        return null;
      });
      if (refused) throw messageCapError(refused);
      messaging.kick();
    },
  };
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
