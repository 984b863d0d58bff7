import type { Executor } from '../../platform/db/client.js';

/** Time of a caregiver that a change freed or opened: the waitlist offers it to those waiting. */
export interface FreedTime {
  clinicId: number;
  caregiverId: number;
  /** The time a cancellation or a move freed: offered as itself (ADR 027). */
  freed?: { startAt: Date; endAt: Date };
}

/**
 * What the writers of a caregiver's diary tell the waitlist (waitlist/offer-runs.ts does it).
 * Declared here, below them all, so that availability's busy times need not reach up to it.
 */
export interface FreedTimeOffers {
  /** In the transaction that frees or adds the time: offers go once it commits. */
  queueOffers(ex: Executor, target: FreedTime): Promise<void>;
  /** After the commit. */
  kick(): void;
}
