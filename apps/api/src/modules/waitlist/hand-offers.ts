import {
  isInPartOfDay,
  type WaitlistOffer,
  type WaitlistOfferBody,
  type WaitlistSlots,
  type WaitlistSlotsQuery,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import { formatZonedIso, formatZonedLocal } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import { clinicQuietTime, nextAllowedAt } from '../messaging/quiet-time.js';
import {
  alreadyOffered,
  entryClosed,
  handOfferPayloadSchema,
  MINUTE,
  WAITLIST_HAND_OFFER_TOPIC,
  type HandOfferPayload,
} from './offer-rules.js';
import {
  isFreeSlot,
  queueOfferMessage,
  todayOf,
  type WaitlistContext,
} from './waitlist-context.js';

/**
 * The clinic's entry still waiting, and the caregiver to offer it with (the entry's, or
 * `caregiverId` when it offers the entry's type): 404 for another clinic's, 409 closed.
 */
async function loadOfferSubject(
  ctx: WaitlistContext,
  clinicId: number,
  entryId: number,
  caregiverId?: number,
) {
  const entry = await ctx.repository.findClinicEntry(clinicId, entryId);
  if (!entry) {
    throw new AppError('waitlist_entry_not_found', 404, `No waitlist entry ${entryId} here`);
  }
  const now = ctx.clock();
  const today = await todayOf(ctx, clinicId, now);
  if (entry.status !== 'waiting' || entry.toDate < today) throw entryClosed();
  const chosen = caregiverId ?? entry.caregiverId;
  const subject = await ctx.subjects.findBookingSubject(clinicId, chosen, entry.appointmentTypeId);
  if (!subject) throw clinicNotFound(clinicId);
  if (!subject.caregiver?.isActive) {
    throw new AppError('caregiver_not_found', 404, `No active caregiver ${chosen} here`);
  }
  if (!subject.type || !subject.offersType) {
    throw invalidField('caregiver_id', "The caregiver does not offer the entry's appointment type");
  }
  const caregiver = await ctx.repository.findOfferCaregiver(chosen);
  if (!caregiver) throw new AppError('caregiver_not_found', 404, `No caregiver ${chosen} here`);
  return { entry, caregiverId: chosen, caregiver, now };
}

/**
 * `GET /api/integration/waitlist/entries/:id/slots`: the free times on the entry's dates for
 * its type, with its caregiver (or another who offers the type), as the automatic offers
 * find them; each says whether it fits the part of the day and whether it was offered.
 */
export function clinicSlots(ctx: WaitlistContext) {
  return async function clinicSlots(
    clinicId: number,
    entryId: number,
    query: WaitlistSlotsQuery = {},
  ): Promise<WaitlistSlots> {
    const { entry, caregiverId, caregiver } = await loadOfferSubject(
      ctx,
      clinicId,
      entryId,
      query.caregiver_id,
    );
    const { slots } = await ctx.availability.slotsOnDates({
      clinicId,
      caregiverId,
      durationMinutes: entry.durationMinutes,
      fromDate: entry.fromDate,
      toDate: entry.toDate,
    });
    const offered = new Set(
      (await ctx.repository.listOffers(ctx.db, [entry.id])).map((o) => o.startAt.getTime()),
    );
    const zone = caregiver.timezone;
    return {
      entry_id: entry.id,
      caregiver_id: caregiverId,
      slots: slots.map((slot) => ({
        start: formatZonedIso(slot.start, zone),
        end: formatZonedIso(slot.end, zone),
        in_part_of_day: isInPartOfDay(
          formatZonedLocal(slot.start, zone).slice(11),
          entry.partOfDay,
        ),
        offered: offered.has(slot.start),
      })),
    };
  };
}

/**
 * `POST /api/integration/waitlist/entries/:id/offer`: the clinic offers the patient a free
 * time by hand. Recorded as an offer (the automatic ones count it), told by the automatic
 * offers' message, counted by the clinic's message caps, and kept out of quiet hours as they
 * are: then the message waits for them to end, and goes only if the time is still free.
 */
export function offerByHand(ctx: WaitlistContext) {
  return async function offerByHand(
    clinicActor: ClinicActor,
    entryId: number,
    body: WaitlistOfferBody,
  ): Promise<WaitlistOffer> {
    const { repository, db, outbox } = ctx;
    const { clinicId } = clinicActor;
    const { entry, caregiverId, caregiver, now } = await loadOfferSubject(
      ctx,
      clinicId,
      entryId,
      body.caregiver_id,
    );
    const start = Date.parse(body.start_date);
    const end = start + entry.durationMinutes * MINUTE;
    if (start <= now) throw invalidField('start_date', 'The start has passed');
    const { offered } = await ctx.availability.isOfferedSlot({
      clinicId,
      caregiverId,
      durationMinutes: entry.durationMinutes,
      start,
      end,
    });
    if (!offered) {
      throw invalidField(
        'start_date',
        'Not a time the caregiver offers now (hours, slot grid, notice, horizon); choose one from /waitlist/entries/:id/slots',
      );
    }
    if (!(await isFreeSlot(ctx, clinicId, caregiverId, caregiver.timezone, start, end))) {
      throw new AppError('slot_taken', 409, 'The time is not free any more');
    }
    const previous = await repository.listOffers(db, [entry.id]);
    if (previous.some((o) => o.startAt.getTime() === start)) throw alreadyOffered();
    const sendAt = nextAllowedAt(now, clinicQuietTime(caregiver));
    if (sendAt >= start) {
      throw invalidField(
        'start_date',
        `The clinic's quiet hours last until ${formatZonedIso(sendAt, caregiver.timezone)}: the patient could not be told before the time`,
      );
    }
    const deferred = sendAt > now;

    type Outcome = { refused: MessageCapRefusal } | { made: true };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      // Refused, nothing but the refusal's audit entry is committed.
      const refused = await takeMessageCap(tx, {
        clinicId,
        to: entry.phone,
        kind: 'waitlist_offer',
        actor: clinicActor.actor,
        now,
      });
      if (refused) return { refused };
      await repository.lockCaregiver(tx, caregiverId);
      const inserted = await repository.insertOffer(tx, {
        entryId: entry.id,
        caregiverId,
        startAt: new Date(start),
        endAt: new Date(end),
        // When the patient is told: the automatic offers leave the time to them for the window.
        offeredAt: new Date(sendAt),
      });
      if (!inserted) throw alreadyOffered();
      if (deferred) {
        const payload: HandOfferPayload = {
          clinicId,
          entryId: entry.id,
          caregiverId,
          start,
          end,
        };
        await outbox.enqueue(tx, {
          topic: WAITLIST_HAND_OFFER_TOPIC,
          payload,
          lane: 'default',
          notBefore: new Date(sendAt),
          expiresAt: new Date(start),
        });
      } else {
        await queueOfferMessage(ctx, tx, entry, caregiver, { clinicId, caregiverId, start });
      }
      await audit(tx, {
        clinicId,
        actor: clinicActor.actor,
        action: 'waitlist.offer',
        targetType: 'waitlist_entry',
        targetId: entry.id,
        details: {
          patient_id: entry.patientId,
          caregiver_id: caregiverId,
          appointment_type_id: entry.appointmentTypeId,
          start_at: new Date(start).toISOString(),
          quiet_until: deferred ? new Date(sendAt).toISOString() : null,
        },
        at: new Date(now),
      });
      return { made: true };
    });
    if ('refused' in outcome) throw messageCapError(outcome.refused);
    if (deferred) outbox.kick('default');
    else ctx.messaging.kick();
    return {
      entry_id: entry.id,
      caregiver_id: caregiverId,
      start_date: formatZonedIso(start, caregiver.timezone),
      end_date: formatZonedIso(end, caregiver.timezone),
      offered_at: new Date(sendAt).toISOString(),
      quiet_until: deferred ? new Date(sendAt).toISOString() : null,
    };
  };
}

/**
 * The outbox handler of WAITLIST_HAND_OFFER_TOPIC: a hand offer's message once quiet hours
 * are over, if the entry still waits and the time is still free (as an automatic run does).
 */
export function handleHandOffer(ctx: WaitlistContext) {
  return async function handleHandOffer(payload: unknown): Promise<void> {
    const { repository, outbox } = ctx;
    const offer = handOfferPayloadSchema.parse(payload);
    const now = ctx.clock();
    if (offer.start <= now) return;
    const entry = await repository.findClinicEntry(offer.clinicId, offer.entryId);
    if (!entry || entry.status !== 'waiting') return;
    const caregiver = await repository.findOfferCaregiver(offer.caregiverId);
    if (!caregiver || caregiver.clinicId !== offer.clinicId || !caregiver.isActive) return;
    const allowed = nextAllowedAt(now, clinicQuietTime(caregiver));
    if (allowed > now) {
      // Quiet hours changed meanwhile: later, if still before the time.
      if (allowed < offer.start) {
        await outbox.enqueue(ctx.db, {
          topic: WAITLIST_HAND_OFFER_TOPIC,
          payload: offer,
          lane: 'default',
          notBefore: new Date(allowed),
          expiresAt: new Date(offer.start),
        });
        outbox.kick('default');
      }
      return;
    }
    const free = await isFreeSlot(
      ctx,
      offer.clinicId,
      offer.caregiverId,
      caregiver.timezone,
      offer.start,
      offer.end,
    );
    if (!free) return;
    await queueOfferMessage(ctx, ctx.db, entry, caregiver, {
      clinicId: offer.clinicId,
      caregiverId: offer.caregiverId,
      start: offer.start,
    });
    ctx.messaging.kick();
  };
}
