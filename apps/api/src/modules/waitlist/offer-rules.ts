import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import type { Interval } from '../availability/availability-engine.js';
import type { OfferRow } from './waitlist-repository.js';

export const MINUTE = 60_000;

/** The outbox topic of an offer run for one caregiver. */
export const WAITLIST_OFFER_TOPIC = 'waitlist.offer';
/** The outbox topic of an offer made by hand in quiet hours: its message, once they end. */
export const WAITLIST_HAND_OFFER_TOPIC = 'waitlist.hand-offer';
/** Entries one freed slot is offered to at once. */
export const OFFERS_AT_ONCE = 3;
/** How long the entries offered a slot have it to themselves before the next ones are told. */
export const OFFER_WINDOW_MS = 30 * MINUTE;
/** The audit actor of the offers the waitlist makes by itself. */
export const WAITLIST_ACTOR = 'waitlist';

const intervalSchema = z.object({ start: z.number(), end: z.number() });

export const offerPayloadSchema = z.object({
  clinicId: z.number().int(),
  caregiverId: z.number().int(),
  /** The time a cancellation or a move freed, epoch ms: offered as such when it fits an entry. */
  freed: intervalSchema.optional(),
});

export const handOfferPayloadSchema = z.object({
  clinicId: z.number().int(),
  entryId: z.number().int(),
  caregiverId: z.number().int(),
  start: z.number(),
  end: z.number(),
});
export type HandOfferPayload = z.infer<typeof handOfferPayloadSchema>;

/** 409 of an entry no longer waiting: booked, left, or its dates are over. */
export const entryClosed = () =>
  new AppError(
    'conflict',
    409,
    'The entry is no longer waiting (booked, left, or its dates are over)',
    { reason: 'entry_closed' },
  );

/** 409 of a time this entry was offered already. */
export const alreadyOffered = () =>
  new AppError('conflict', 409, 'This time was offered to this entry already', {
    reason: 'already_offered',
  });

export const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/**
 * The slot to offer one entry, of `slots` (already in its range and part of day) it was never
 * offered and that fewer than `atOnce` open offers hold. Without a freed time: the earliest. With
 * one inside the entry's range and part of day: that time only (taken, or held by others: none
 * this run). With one outside them: the free time nearest to it (the earlier of two as near).
 * null for none.
 */
export function chooseSlot(
  slots: readonly Interval[],
  offeredStarts: ReadonlySet<number>,
  open: readonly Interval[],
  atOnce: number,
  freed?: { start: number; inRange: boolean },
): Interval | null {
  const candidates = slots.filter(
    (slot) =>
      !offeredStarts.has(slot.start) && open.filter((o) => overlaps(o, slot)).length < atOnce,
  );
  if (!freed) return candidates[0] ?? null;
  if (freed.inRange) return candidates.find((slot) => slot.start === freed.start) ?? null;
  const distance = (slot: Interval) => Math.abs(slot.start - freed.start);
  let best: Interval | null = null;
  for (const slot of candidates) if (!best || distance(slot) < distance(best)) best = slot;
  return best;
}

export const asInterval = (offer: OfferRow): Interval & { entryId: number } => ({
  entryId: offer.entryId,
  start: offer.startAt.getTime(),
  end: offer.endAt.getTime(),
});
