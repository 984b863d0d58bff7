import type { Database, Executor } from '../../platform/db/client.js';
import { clinicNotFound } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { takeLimit } from '../../platform/limits.js';
import { zonedDate } from '../../platform/zoned-time.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import type { BookingSubjects } from '../availability/booking-subject.js';
import type { AppOutbox, Messaging } from '../messaging/messaging.js';
import { offerMessage, type OfferDetails } from './offer-message.js';
import { MINUTE } from './offer-rules.js';
import type { WaitlistRepository } from './waitlist-repository.js';

export interface WaitlistServiceDeps {
  repository: WaitlistRepository;
  /** Whether the clinic, caregiver and type exist and fit, as a booking checks it. */
  subjects: Pick<BookingSubjects, 'findBookingSubject'>;
  availability: Pick<AvailabilityService, 'slotsOnDates' | 'isOfferedSlot'>;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  outbox: Pick<AppOutbox, 'enqueue' | 'kick'>;
  publicOrigin: string;
  /** Epoch milliseconds. */
  clock: () => number;
  /** The per-patient limits' counter (platform/limits.ts). */
  takeLimit?: typeof takeLimit;
}

/** The deps with their defaults: what every use case of the waitlist is built from. */
export type WaitlistContext = Omit<WaitlistServiceDeps, 'takeLimit'> & {
  db: Database;
  takeLimit: typeof takeLimit;
};

export function waitlistContext(deps: WaitlistServiceDeps): WaitlistContext {
  return { ...deps, db: deps.repository.db, takeLimit: deps.takeLimit ?? takeLimit };
}

/** Today's date in the clinic's zone; 404 for no clinic. */
export async function todayOf(ctx: WaitlistContext, clinicId: number, now: number) {
  const timezone = await ctx.repository.findClinicTimezone(clinicId);
  if (!timezone) throw clinicNotFound(clinicId);
  return zonedDate(now, timezone);
}

/**
 * The offer's message to the patient, in the transaction that records it: the one path of both
 * the automatic offers and the ones made by hand. Not sent once the time has begun.
 */
export async function queueOfferMessage(
  ctx: WaitlistContext,
  ex: Executor,
  entry: { phone: string; language: MessageLanguage; appointmentTypeId: number; typeName: string },
  caregiver: { clinicName: string; caregiverName: string; timezone: string },
  offered: Pick<OfferDetails, 'clinicId' | 'caregiverId' | 'start' | 'freedStart'>,
): Promise<void> {
  const details: OfferDetails = {
    publicOrigin: ctx.publicOrigin,
    clinicId: offered.clinicId,
    clinicName: caregiver.clinicName,
    caregiverId: offered.caregiverId,
    caregiverName: caregiver.caregiverName,
    appointmentTypeId: entry.appointmentTypeId,
    typeName: entry.typeName,
    timezone: caregiver.timezone,
    start: offered.start,
    freedStart: offered.freedStart,
  };
  await ctx.messaging.queueMessage(ex, {
    clinicId: details.clinicId,
    to: entry.phone,
    body: offerMessage(details, entry.language),
    // An offer for a time already begun is pointless.
    expiresAt: new Date(details.start),
    kind: 'waitlist_offer',
  });
}

/** Is [start, end) one of the caregiver's free slots now (as the booking page offers them)? */
export async function isFreeSlot(
  ctx: WaitlistContext,
  clinicId: number,
  caregiverId: number,
  timezone: string,
  start: number,
  end: number,
): Promise<boolean> {
  const date = zonedDate(start, timezone);
  const { slots } = await ctx.availability.slotsOnDates({
    clinicId,
    caregiverId,
    durationMinutes: (end - start) / MINUTE,
    fromDate: date,
    toDate: date,
  });
  return slots.some((slot) => slot.start === start && slot.end === end);
}
