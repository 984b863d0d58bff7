import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from '../../platform/db/client.js';
import { isAppError } from '../../platform/errors.js';
import { takeLimit } from '../../platform/limits.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import type { CalendarSync } from '../calendar-sync/calendar-sync-service.js';
import type { ClinicDataCache } from '../clinics/clinic-data-cache.js';
import type { Messaging } from '../messaging/messaging.js';
import type { PatientAuthRepository } from '../patient-auth/patient-auth-repository.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { existingAppointment, slotTaken } from './appointment-rules.js';
import type { AppointmentsRepository } from './appointments-repository.js';
import { bookingConflictOf, isRetryableConflict } from './booking-conflicts.js';
import type { ChangeNotices } from './change-notices.js';

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

/** The deps with their defaults: what every use case of the service is built from. */
export type AppointmentsContext = Omit<
  AppointmentsServiceDeps,
  'maxBookingAttempts' | 'takeLimit'
> & {
  maxBookingAttempts: number;
  takeLimit: typeof takeLimit;
};

export function appointmentsContext(deps: AppointmentsServiceDeps): AppointmentsContext {
  return {
    ...deps,
    maxBookingAttempts: deps.maxBookingAttempts ?? 5,
    takeLimit: deps.takeLimit ?? takeLimit,
  };
}

/** Runs the booking transaction, answering the database's refusals as 409s. */
export async function inBookingTransaction<T>(
  ctx: AppointmentsContext,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.repository.db.transaction(work);
    } catch (error) {
      if (isAppError(error)) throw error;
      const conflict = bookingConflictOf(error);
      if (conflict === 'slot_taken') throw slotTaken();
      if (conflict === 'existingAppointment') throw existingAppointment();
      if (!isRetryableConflict(error)) throw error;
      // Chosen as a deadlock victim by a concurrent booking of an overlapping interval: the next
      // run sees that booking if it committed. Still contended after several runs: it is taken.
      if (attempt >= ctx.maxBookingAttempts) throw slotTaken();
      await sleep(Math.round(attempt * (5 + Math.random() * 20)));
    }
  }
}

/**
 * After a change commits: the clinic page's cache is dropped and the workers of what the change
 * queued are woken (the waitlist's when it freed a time).
 */
export function afterChange(
  ctx: AppointmentsContext,
  clinicId: number,
  { freedTime }: { freedTime: boolean },
): void {
  ctx.cache.invalidate(clinicId);
  ctx.messaging.kick();
  ctx.webhooks.kick();
  if (freedTime) ctx.waitlist.kick();
}
