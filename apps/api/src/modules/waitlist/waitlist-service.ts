import type { Executor } from '../../platform/db/client.js';
import { clinicEntries, clinicSummary } from './clinic-waitlist.js';
import { clinicSlots, handleHandOffer, offerByHand } from './hand-offers.js';
import { handleOfferRun, queueOffers } from './offer-runs.js';
import { joinWaitlist, leaveWaitlist, listEntries } from './patient-entries.js';
import { waitlistContext, type WaitlistServiceDeps } from './waitlist-context.js';
import type { WaitlistRepository } from './waitlist-repository.js';

/**
 * The waitlist (docs/booking.md "Waitlist"): patients join, list and leave; a freed or added slot
 * of a caregiver is offered by message to its waiting entries in the order they joined, a few at
 * a time. An offer reserves nothing: the slot is booked through the normal booking, first come.
 * One file a use case; this one puts them together.
 */
export function createWaitlistService(deps: WaitlistServiceDeps) {
  const ctx = waitlistContext(deps);
  return {
    // The patient's (`/api/waitlist`).
    join: joinWaitlist(ctx),
    list: listEntries(ctx),
    leave: leaveWaitlist(ctx),
    // The automatic offers: queued with whatever frees or opens time, run by the outbox.
    queueOffers: queueOffers(ctx),
    handleOfferRun: handleOfferRun(ctx),
    /** In a booking's transaction: the patient's entries this booking answers are done. */
    async markBooked(
      ex: Executor,
      booking: Parameters<WaitlistRepository['markBooked']>[1],
    ): Promise<void> {
      await ctx.repository.markBooked(ex, booking);
    },
    kick(): void {
      ctx.outbox.kick('default');
    },
    // The clinic's (`/api/integration/waitlist`).
    clinicSummary: clinicSummary(ctx),
    clinicEntries: clinicEntries(ctx),
    clinicSlots: clinicSlots(ctx),
    offerByHand: offerByHand(ctx),
    handleHandOffer: handleHandOffer(ctx),
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
