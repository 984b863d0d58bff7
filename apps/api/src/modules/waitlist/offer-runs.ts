import { isInPartOfDay } from '@marpe/shared';
import type { Executor } from '../../platform/db/client.js';
import {
  addDaysToLocalDate,
  formatZonedLocal,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';
import type { Interval } from '../availability/availability-engine.js';
import type { FreedTime, FreedTimeOffers } from '../availability/freed-time.js';
import {
  auditMessageRefusal,
  lockMessageCaps,
  peekMessageCap,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import { clinicQuietTime, nextAllowedAt } from '../messaging/quiet-time.js';
import {
  asInterval,
  chooseSlot,
  OFFER_WINDOW_MS,
  offerPayloadSchema,
  OFFERS_AT_ONCE,
  overlaps,
  WAITLIST_ACTOR,
  WAITLIST_OFFER_TOPIC,
} from './offer-rules.js';
import { queueOfferMessage, type WaitlistContext } from './waitlist-context.js';

/** Entries one run looks at: a caregiver's queue is short; this bounds a run all the same. */
const ENTRIES_PER_RUN = 100;

async function queueRun(
  ctx: WaitlistContext,
  ex: Executor,
  clinicId: number,
  caregiverId: number,
  notBefore?: Date,
  freed?: Interval,
) {
  await ctx.outbox.enqueue(ex, {
    topic: WAITLIST_OFFER_TOPIC,
    payload: { clinicId, caregiverId, ...(freed ? { freed } : {}) },
    lane: 'default',
    notBefore,
  });
}

/** One caregiver's offer run: see docs/booking.md "Waitlist" for the rules. */
async function offer(
  ctx: WaitlistContext,
  clinicId: number,
  caregiverId: number,
  freed?: Interval,
): Promise<void> {
  const { repository, availability, db, outbox } = ctx;
  const now = ctx.clock();
  const caregiver = await repository.findOfferCaregiver(caregiverId);
  if (!caregiver || caregiver.clinicId !== clinicId || !caregiver.isActive) return;
  // The patient's night, Shabbat and holidays as the clinic's reminders keep them: the run
  // waits for them to end (the slot may be gone by then; the offer goes only if it is not).
  const policy = clinicQuietTime(caregiver);
  const allowed = nextAllowedAt(now, policy);
  if (allowed > now) {
    await queueRun(ctx, db, clinicId, caregiverId, new Date(allowed), freed);
    outbox.kick('default');
    return;
  }
  const today = zonedDate(now, caregiver.timezone);
  const entries = await repository.listWaiting(caregiverId, today, ENTRIES_PER_RUN);
  if (entries.length === 0) return;
  const since = new Date(now - OFFER_WINDOW_MS);
  const offers = await repository.listOffers(
    db,
    entries.map((e) => e.id),
  );
  const open = offers.filter((o) => o.offeredAt > since).map(asInterval);
  // At most the clinic's number of offers per entry per clinic day (default 1).
  const dayStart = zonedDateMinutesToEpoch(today, 0, caregiver.timezone);
  const offeredToday = (entryId: number) =>
    offers.filter((o) => o.entryId === entryId && o.offeredAt.getTime() >= dayStart).length;
  let heldForTomorrow = false;

  // Worked out before the transaction: the engine reads outside it (one PGlite connection).
  const plan: { entry: (typeof entries)[number]; slot: Interval }[] = [];
  // Entries whose number the clinic's message caps would refuse now: skipped, so that the time
  // goes to the next in line; they keep their place for a later run.
  const capped: { entry: (typeof entries)[number]; refusal: MessageCapRefusal }[] = [];
  for (const entry of entries) {
    if (open.some((o) => o.entryId === entry.id)) continue;
    if (offeredToday(entry.id) >= caregiver.offersPerEntryPerDay) {
      heldForTomorrow = true;
      continue;
    }
    const { slots } = await availability.slotsOnDates({
      clinicId,
      caregiverId,
      durationMinutes: entry.durationMinutes,
      fromDate: entry.fromDate,
      toDate: entry.toDate,
    });
    const fitting = slots.filter((s) =>
      isInPartOfDay(formatZonedLocal(s.start, caregiver.timezone).slice(11), entry.partOfDay),
    );
    const offered = new Set(
      offers.filter((o) => o.entryId === entry.id).map((o) => o.startAt.getTime()),
    );
    let freedFit: { start: number; inRange: boolean } | undefined;
    if (freed) {
      const local = formatZonedLocal(freed.start, caregiver.timezone);
      const date = local.slice(0, 10);
      freedFit = {
        start: freed.start,
        inRange:
          date >= entry.fromDate &&
          date <= entry.toDate &&
          isInPartOfDay(local.slice(11), entry.partOfDay),
      };
    }
    const slot = chooseSlot(fitting, offered, open, OFFERS_AT_ONCE, freedFit);
    if (!slot) continue;
    const refusal = await peekMessageCap(db, { clinicId, to: entry.phone, now });
    if (refusal) {
      capped.push({ entry, refusal });
      continue;
    }
    plan.push({ entry, slot });
    open.push({ entryId: entry.id, ...slot });
  }
  // Entries held back by the daily cap get their turn tomorrow, out of quiet time.
  const tomorrow = nextAllowedAt(
    zonedDateMinutesToEpoch(addDaysToLocalDate(today, 1), 0, caregiver.timezone),
    policy,
  );
  const refusedEntry = (entry: (typeof entries)[number]) => ({
    clinicId,
    to: entry.phone,
    kind: 'waitlist_offer' as const,
    actor: WAITLIST_ACTOR,
    now,
  });
  // When the first capped entry may be told: a run then, unless one is due sooner anyway.
  let retryAt =
    capped.length === 0
      ? null
      : now + Math.min(...capped.map((c) => c.refusal.retryAfterSeconds)) * 1000;
  if (plan.length === 0) {
    for (const { entry, refusal } of capped) {
      await auditMessageRefusal(db, refusedEntry(entry), refusal);
    }
    if (heldForTomorrow || retryAt !== null) {
      const next = Math.min(heldForTomorrow ? tomorrow : Infinity, retryAt ?? Infinity);
      await queueRun(ctx, db, clinicId, caregiverId, new Date(next), freed);
      outbox.kick('default');
    }
    return;
  }

  const made = await db.transaction(async (tx) => {
    // The caps' lock before the caregiver's, in the order a hand offer takes them.
    await lockMessageCaps(tx, clinicId);
    await repository.lockCaregiver(tx, caregiverId);
    // Another run may have offered meanwhile: its offers count before this run's.
    const held = (await repository.listOpenOffers(tx, caregiverId, since)).map(asInterval);
    for (const { entry, refusal } of capped) {
      await auditMessageRefusal(tx, refusedEntry(entry), refusal);
    }
    let count = 0;
    for (const { entry, slot } of plan) {
      if (held.some((o) => o.entryId === entry.id)) continue;
      if (held.filter((o) => overlaps(o, slot)).length >= OFFERS_AT_ONCE) continue;
      // Counted as every message to a patient; another send may have filled a cap since the
      // plan was made: no offer then (audited), the entry keeps its place.
      const refused = await takeMessageCap(tx, refusedEntry(entry));
      if (refused) {
        retryAt = Math.min(retryAt ?? Infinity, now + refused.retryAfterSeconds * 1000);
        continue;
      }
      const inserted = await repository.insertOffer(tx, {
        entryId: entry.id,
        caregiverId,
        startAt: new Date(slot.start),
        endAt: new Date(slot.end),
        offeredAt: new Date(now),
      });
      if (!inserted) continue;
      held.push({ entryId: entry.id, ...slot });
      count += 1;
      await queueOfferMessage(ctx, tx, entry, caregiver, {
        clinicId,
        caregiverId,
        start: slot.start,
        // Said as such when the time offered is not the one freed.
        freedStart: freed && freed.start !== slot.start ? freed.start : undefined,
      });
    }
    // The next entries' turn, if these do not book within the window.
    if (count > 0) {
      await queueRun(ctx, tx, clinicId, caregiverId, new Date(now + OFFER_WINDOW_MS), freed);
    } else if (heldForTomorrow || retryAt !== null) {
      const next = Math.min(heldForTomorrow ? tomorrow : Infinity, retryAt ?? Infinity);
      await queueRun(ctx, tx, clinicId, caregiverId, new Date(next), freed);
    }
    return count;
  });
  if (made > 0) ctx.messaging.kick();
}

/**
 * In the transaction that frees or adds time of a caregiver (a cancellation, a move, new hours):
 * its waiting entries get offers once that commits. Kick after the commit.
 */
export function queueOffers(ctx: WaitlistContext): FreedTimeOffers['queueOffers'] {
  return async function queueOffers(ex: Executor, target: FreedTime): Promise<void> {
    const freed = target.freed && {
      start: target.freed.startAt.getTime(),
      end: target.freed.endAt.getTime(),
    };
    await queueRun(ctx, ex, target.clinicId, target.caregiverId, undefined, freed);
  };
}

/** The outbox handler of WAITLIST_OFFER_TOPIC. */
export function handleOfferRun(ctx: WaitlistContext) {
  return async function handleOfferRun(payload: unknown): Promise<void> {
    const { clinicId, caregiverId, freed } = offerPayloadSchema.parse(payload);
    await offer(ctx, clinicId, caregiverId, freed);
  };
}
