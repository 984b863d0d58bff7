import {
  defaultReminderSettings,
  isInPartOfDay,
  WAITLIST_MAX_ACTIVE,
  WAITLIST_ENTRIES_MAX_LIMIT,
  type IntegrationWaitlistEntry,
  type IntegrationWaitlistRow,
  type WaitlistEntriesQuery,
  type WaitlistFilterQuery,
  type JoinWaitlistBody,
  type WaitlistEntry,
  type WaitlistOffer,
  type WaitlistOfferBody,
  type WaitlistSlots,
  type WaitlistSlotsQuery,
} from '@marpe/shared';
import { z } from 'zod';
import type { Executor } from '../../platform/db/client.js';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { limits, takeLimit } from '../../platform/limits.js';
import type { AppOutbox, Messaging } from '../messaging/messaging.js';
import type { AppointmentsRepository } from '../appointments/appointments-repository.js';
import { audit } from '../../platform/audit.js';
import type { Writer } from '../integration/integration-auth.js';
import {
  auditMessageRefusal,
  lockMessageCaps,
  messageCapError,
  peekMessageCap,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import type { Interval } from '../availability/availability-engine.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import {
  addDaysToLocalDate,
  formatZonedIso,
  formatZonedLocal,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';
import { nextAllowedAt, type ReminderPolicy } from '../reminders/reminder-schedule.js';
import { offerMessage, type OfferDetails } from './offer-message.js';
import type { OfferRow, WaitlistRepository } from './waitlist-repository.js';

const MINUTE = 60_000;

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
/** Entries one run looks at: a caregiver's queue is short; this bounds a run all the same. */
const ENTRIES_PER_RUN = 100;
/** How far ahead a range may start. */
const MAX_LEAD_DAYS = 365;

const intervalSchema = z.object({ start: z.number(), end: z.number() });

const offerPayloadSchema = z.object({
  clinicId: z.number().int(),
  caregiverId: z.number().int(),
  /** The time a cancellation or a move freed, epoch ms: offered as such when it fits an entry. */
  freed: intervalSchema.optional(),
});

const handOfferPayloadSchema = z.object({
  clinicId: z.number().int(),
  entryId: z.number().int(),
  caregiverId: z.number().int(),
  start: z.number(),
  end: z.number(),
});
type HandOfferPayload = z.infer<typeof handOfferPayloadSchema>;

/** 409 of an entry no longer waiting: booked, left, or its dates are over. */
const entryClosed = () =>
  new AppError(
    'conflict',
    409,
    'The entry is no longer waiting (booked, left, or its dates are over)',
    { reason: 'entry_closed' },
  );

/** 409 of a time this entry was offered already. */
const alreadyOffered = () =>
  new AppError('conflict', 409, 'This time was offered to this entry already', {
    reason: 'already_offered',
  });

export interface WaitlistServiceDeps {
  repository: WaitlistRepository;
  /** Whether the clinic, caregiver and type exist and fit, as a booking checks it. */
  subjects: Pick<AppointmentsRepository, 'findBookingSubject'>;
  availability: Pick<AvailabilityService, 'slotsOnDates' | 'isOfferedSlot'>;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  outbox: Pick<AppOutbox, 'enqueue' | 'kick'>;
  publicOrigin: string;
  /** Epoch milliseconds. */
  clock: () => number;
  /** The per-patient limits' counter (platform/limits.ts). */
  takeLimit?: typeof takeLimit;
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

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

/** The quiet time offers keep out of: the clinic's reminders' (their defaults if never set). */
function quietPolicy(caregiver: {
  timezone: string;
  cancelNoticeMinutes: number;
  quietStart: string | null;
  quietEnd: string | null;
  observeRestDays: boolean | null;
}): ReminderPolicy {
  return {
    leadMinutes: [],
    quietStart: caregiver.quietStart ?? defaultReminderSettings.quiet_hours.start,
    quietEnd: caregiver.quietEnd ?? defaultReminderSettings.quiet_hours.end,
    observeRestDays:
      caregiver.observeRestDays ?? defaultReminderSettings.observe_shabbat_and_holidays,
    timezone: caregiver.timezone,
    cancelNoticeMinutes: caregiver.cancelNoticeMinutes,
  };
}

const asInterval = (offer: OfferRow): Interval & { entryId: number } => ({
  entryId: offer.entryId,
  start: offer.startAt.getTime(),
  end: offer.endAt.getTime(),
});

/**
 * The waitlist (docs/booking.md "Waitlist"): patients join, list and leave; a freed or added slot
 * of a caregiver is offered by message to its waiting entries in the order they joined, a few at
 * a time. An offer reserves nothing: the slot is booked through the normal booking, first come.
 */
export function createWaitlistService(deps: WaitlistServiceDeps) {
  const { repository, subjects, availability, messaging, outbox, clock, publicOrigin } = deps;
  const { db } = repository;
  const take = deps.takeLimit ?? takeLimit;

  /** A clinic's filter of its waitlist: 404 for another clinic's caregiver. */
  async function clinicFilter(clinicId: number, query: WaitlistFilterQuery) {
    if (
      query.caregiver_id !== undefined &&
      !(await repository.isClinicCaregiver(clinicId, query.caregiver_id))
    ) {
      throw new AppError('caregiver_not_found', 404, `No caregiver ${query.caregiver_id} here`);
    }
    return { date: query.date, caregiverId: query.caregiver_id };
  }

  async function todayOf(clinicId: number, now: number): Promise<string> {
    const timezone = await repository.findClinicTimezone(clinicId);
    if (!timezone) throw clinicNotFound(clinicId);
    return zonedDate(now, timezone);
  }

  function toEntry(row: Awaited<ReturnType<WaitlistRepository['listActive']>>[number]) {
    return {
      id: row.id,
      caregiver_id: row.caregiverId,
      appointment_type_id: row.appointmentTypeId,
      caregiver_name: row.caregiverName,
      type_name: row.typeName,
      from_date: row.fromDate,
      to_date: row.toDate,
      part_of_day: row.partOfDay,
      joined_at: row.createdAt.toISOString(),
    } satisfies WaitlistEntry;
  }

  /**
   * The offer's message to the patient, in the transaction that records it: the one path of both
   * the automatic offers and the ones made by hand. Not sent once the time has begun.
   */
  async function queueOfferMessage(
    ex: Executor,
    to: { phone: string; language: MessageLanguage },
    details: Omit<OfferDetails, 'publicOrigin'>,
  ): Promise<void> {
    await messaging.queueMessage(ex, {
      clinicId: details.clinicId,
      to: to.phone,
      body: offerMessage({ publicOrigin, ...details }, to.language),
      // An offer for a time already begun is pointless.
      expiresAt: new Date(details.start),
      kind: 'waitlist_offer',
    });
  }

  /** Is [start, end) one of the caregiver's free slots now (as the booking page offers them)? */
  async function isFreeSlot(
    clinicId: number,
    caregiverId: number,
    timezone: string,
    start: number,
    end: number,
  ): Promise<boolean> {
    const date = zonedDate(start, timezone);
    const { slots } = await availability.slotsOnDates({
      clinicId,
      caregiverId,
      durationMinutes: (end - start) / MINUTE,
      fromDate: date,
      toDate: date,
    });
    return slots.some((slot) => slot.start === start && slot.end === end);
  }

  /**
   * The clinic's entry still waiting, and the caregiver to offer it with (the entry's, or
   * `caregiverId` when it offers the entry's type): 404 for another clinic's, 409 closed.
   */
  async function loadOfferSubject(clinicId: number, entryId: number, caregiverId?: number) {
    const entry = await repository.findClinicEntry(clinicId, entryId);
    if (!entry) {
      throw new AppError('waitlist_entry_not_found', 404, `No waitlist entry ${entryId} here`);
    }
    const now = clock();
    const today = await todayOf(clinicId, now);
    if (entry.status !== 'waiting' || entry.toDate < today) throw entryClosed();
    const chosen = caregiverId ?? entry.caregiverId;
    const subject = await subjects.findBookingSubject(clinicId, chosen, entry.appointmentTypeId);
    if (!subject) throw clinicNotFound(clinicId);
    if (!subject.caregiver?.isActive) {
      throw new AppError('caregiver_not_found', 404, `No active caregiver ${chosen} here`);
    }
    if (!subject.type || !subject.offersType) {
      throw invalidField(
        'caregiver_id',
        "The caregiver does not offer the entry's appointment type",
      );
    }
    const caregiver = await repository.findCaregiver(chosen);
    if (!caregiver) throw new AppError('caregiver_not_found', 404, `No caregiver ${chosen} here`);
    return { entry, caregiverId: chosen, caregiver, now };
  }

  /** One caregiver's offer run: see docs/booking.md "Waitlist" for the rules. */
  async function offer(clinicId: number, caregiverId: number, freed?: Interval): Promise<void> {
    const now = clock();
    const caregiver = await repository.findCaregiver(caregiverId);
    if (!caregiver || caregiver.clinicId !== clinicId || !caregiver.isActive) return;
    // The patient's night, Shabbat and holidays as the clinic's reminders keep them: the run
    // waits for them to end (the slot may be gone by then; the offer goes only if it is not).
    const policy = quietPolicy(caregiver);
    const allowed = nextAllowedAt(now, policy);
    if (allowed > now) {
      await queueRun(db, clinicId, caregiverId, new Date(allowed), freed);
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
        await queueRun(db, clinicId, caregiverId, new Date(next), freed);
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
        await queueOfferMessage(tx, entry, {
          clinicId,
          clinicName: caregiver.clinicName,
          caregiverId,
          caregiverName: caregiver.caregiverName,
          appointmentTypeId: entry.appointmentTypeId,
          typeName: entry.typeName,
          timezone: caregiver.timezone,
          start: slot.start,
          // Said as such when the time offered is not the one freed.
          freedStart: freed && freed.start !== slot.start ? freed.start : undefined,
        });
      }
      // The next entries' turn, if these do not book within the window.
      if (count > 0) {
        await queueRun(tx, clinicId, caregiverId, new Date(now + OFFER_WINDOW_MS), freed);
      } else if (heldForTomorrow || retryAt !== null) {
        const next = Math.min(heldForTomorrow ? tomorrow : Infinity, retryAt ?? Infinity);
        await queueRun(tx, clinicId, caregiverId, new Date(next), freed);
      }
      return count;
    });
    if (made > 0) messaging.kick();
  }

  async function queueRun(
    ex: Executor,
    clinicId: number,
    caregiverId: number,
    notBefore?: Date,
    freed?: Interval,
  ) {
    await outbox.enqueue(ex, {
      topic: WAITLIST_OFFER_TOPIC,
      payload: { clinicId, caregiverId, ...(freed ? { freed } : {}) },
      lane: 'default',
      notBefore,
    });
  }

  return {
    /** `POST /api/waitlist`: the entry, and whether it is new (a repeated join finds the first). */
    async join(
      patient: SessionPatient,
      body: JoinWaitlistBody,
      language: MessageLanguage,
    ): Promise<{ entry: WaitlistEntry; created: boolean }> {
      if (body.clinicId !== patient.clinicId) {
        throw new AppError('forbidden', 403, "The waitlist is the patient's own clinic's only");
      }
      const subject = await subjects.findBookingSubject(
        body.clinicId,
        body.caregiverId,
        body.appointmentTypeId,
      );
      if (!subject) throw clinicNotFound(body.clinicId);
      if (!subject.caregiver?.isActive) {
        throw new AppError('caregiver_not_found', 404, `Caregiver ${body.caregiverId} not found`);
      }
      if (!subject.type || !subject.offersType) {
        throw new AppError(
          'appointment_type_not_found',
          404,
          `Appointment type ${body.appointmentTypeId} is not one this caregiver offers`,
        );
      }
      const now = clock();
      const today = zonedDate(now, subject.clinic.timezone);
      if (body.fromDate < today) {
        throw invalidField('fromDate', `Before today (${today} in the clinic's time zone)`);
      }
      if (body.fromDate > addDaysToLocalDate(today, MAX_LEAD_DAYS)) {
        throw invalidField('fromDate', `More than ${MAX_LEAD_DAYS} days ahead`);
      }
      const values = {
        clinicId: body.clinicId,
        patientId: patient.id,
        caregiverId: body.caregiverId,
        appointmentTypeId: body.appointmentTypeId,
        fromDate: body.fromDate,
        toDate: body.toDate,
        partOfDay: body.partOfDay,
        language,
        createdAt: new Date(now),
      };
      const { id, created } = await db.transaction(async (tx) => {
        // Also serialises the patient's joins, so the cap holds in a race.
        await take(tx, limits.waitlistJoin, `patient:${patient.id}`, now);
        const same = await repository.findSameActive(tx, values, today);
        if (same) return { id: same.id, created: false };
        if ((await repository.countActive(tx, patient.id, today)) >= WAITLIST_MAX_ACTIVE) {
          throw new AppError(
            'waitlist_full',
            409,
            `A patient may wait for ${WAITLIST_MAX_ACTIVE} times at once; leave one first`,
            { max: WAITLIST_MAX_ACTIVE },
          );
        }
        return { id: await repository.insertEntry(tx, values), created: true };
      });
      const [row] = await repository.listActive(db, patient.id, today, id);
      if (!row) throw new Error('join: the entry is gone');
      return { entry: toEntry(row), created };
    },

    /** `GET /api/waitlist`: the patient's active entries, in the order they joined. */
    async list(patient: SessionPatient): Promise<WaitlistEntry[]> {
      const today = await todayOf(patient.clinicId, clock());
      return (await repository.listActive(db, patient.id, today)).map(toEntry);
    },

    /** `DELETE /api/waitlist/:id`. */
    async leave(patient: SessionPatient, entryId: number): Promise<void> {
      if (!(await repository.leave(patient.id, entryId, new Date(clock())))) {
        throw new AppError('waitlist_entry_not_found', 404, 'No such waitlist entry of yours');
      }
    },

    /**
     * In the transaction that frees or adds time of a caregiver (a cancellation, a move, new
     * hours): its waiting entries get offers once that commits. Kick after the commit.
     */
    async queueOffers(
      ex: Executor,
      target: {
        clinicId: number;
        caregiverId: number;
        /** The time a cancellation or a move freed: offered as itself (issue 25). */
        freed?: { startAt: Date; endAt: Date };
      },
    ) {
      const freed = target.freed && {
        start: target.freed.startAt.getTime(),
        end: target.freed.endAt.getTime(),
      };
      await queueRun(ex, target.clinicId, target.caregiverId, undefined, freed);
    },

    /** In a booking's transaction: the patient's entries this booking answers are done. */
    async markBooked(
      ex: Executor,
      booking: {
        patientId: number;
        caregiverId: number;
        appointmentTypeId: number;
        localDate: string;
        at: Date;
      },
    ): Promise<void> {
      await repository.markBooked(ex, booking);
    },

    kick(): void {
      outbox.kick('default');
    },

    /** The outbox handler of WAITLIST_OFFER_TOPIC. */
    async handleOfferRun(payload: unknown): Promise<void> {
      const { clinicId, caregiverId, freed } = offerPayloadSchema.parse(payload);
      await offer(clinicId, caregiverId, freed);
    },

    /**
     * `GET /api/integration/waitlist/entries`: who waits, on a date, with a caregiver, or one
     * patient; a page of the queue after an entry.
     */
    async clinicEntries(
      clinicId: number,
      query: Partial<WaitlistEntriesQuery> = {},
    ): Promise<IntegrationWaitlistEntry[]> {
      const filter = await clinicFilter(clinicId, query);
      const today = await todayOf(clinicId, clock());
      let after: { createdAt: Date; id: number } | undefined;
      if (query.after !== undefined) {
        after = (await repository.findEntryCursor(clinicId, query.after)) ?? undefined;
        if (!after) throw invalidField('after', 'No waitlist entry of this clinic has this id');
      }
      const rows = await repository.listClinicEntries(clinicId, today, filter, {
        patientIdNumber: query.patient_id_number,
        after,
        limit: query.limit ?? WAITLIST_ENTRIES_MAX_LIMIT,
      });
      return rows.map((row) => ({
        id: row.id,
        patient: {
          id: row.patientId,
          id_number: row.idNumber,
          first_name: row.firstName,
          last_name: row.lastName,
          phone: row.phone,
        },
        caregiver: { id: row.caregiverId, name: row.caregiverName },
        appointment_type: { id: row.appointmentTypeId, name: row.typeName },
        from_date: row.fromDate,
        to_date: row.toDate,
        part_of_day: row.partOfDay,
        joined_at: row.createdAt.toISOString(),
      }));
    },

    /**
     * `GET /api/integration/waitlist/entries/:id/slots`: the free times on the entry's dates for
     * its type, with its caregiver (or another who offers the type), as the automatic offers
     * find them; each says whether it fits the part of the day and whether it was offered.
     */
    async clinicSlots(
      clinicId: number,
      entryId: number,
      query: WaitlistSlotsQuery = {},
    ): Promise<WaitlistSlots> {
      const { entry, caregiverId, caregiver } = await loadOfferSubject(
        clinicId,
        entryId,
        query.caregiver_id,
      );
      const { slots } = await availability.slotsOnDates({
        clinicId,
        caregiverId,
        durationMinutes: entry.durationMinutes,
        fromDate: entry.fromDate,
        toDate: entry.toDate,
      });
      const offered = new Set(
        (await repository.listOffers(db, [entry.id])).map((o) => o.startAt.getTime()),
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
    },

    /**
     * `POST /api/integration/waitlist/entries/:id/offer`: the clinic offers the patient a free
     * time by hand. Recorded as an offer (the automatic ones count it), told by the automatic
     * offers' message, counted by the clinic's message caps, and kept out of quiet hours as they
     * are: then the message waits for them to end, and goes only if the time is still free.
     */
    async offerByHand(
      writer: Writer,
      entryId: number,
      body: WaitlistOfferBody,
    ): Promise<WaitlistOffer> {
      const { clinicId } = writer;
      const { entry, caregiverId, caregiver, now } = await loadOfferSubject(
        clinicId,
        entryId,
        body.caregiver_id,
      );
      const start = Date.parse(body.start_date);
      const end = start + entry.durationMinutes * MINUTE;
      if (start <= now) throw invalidField('start_date', 'The start has passed');
      const { offered } = await availability.isOfferedSlot({
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
      if (!(await isFreeSlot(clinicId, caregiverId, caregiver.timezone, start, end))) {
        throw new AppError('slot_taken', 409, 'The time is not free any more');
      }
      const previous = await repository.listOffers(db, [entry.id]);
      if (previous.some((o) => o.startAt.getTime() === start)) throw alreadyOffered();
      const sendAt = nextAllowedAt(now, quietPolicy(caregiver));
      if (sendAt >= start) {
        throw invalidField(
          'start_date',
          `The clinic's quiet hours last until ${formatZonedIso(sendAt, caregiver.timezone)}: the patient could not be told before the time`,
        );
      }
      const deferred = sendAt > now;
      const details = {
        clinicId,
        clinicName: caregiver.clinicName,
        caregiverId,
        caregiverName: caregiver.caregiverName,
        appointmentTypeId: entry.appointmentTypeId,
        typeName: entry.typeName,
        timezone: caregiver.timezone,
        start,
      };

      type Outcome = { refused: MessageCapRefusal } | { made: true };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        // Refused, nothing but the refusal's audit entry is committed.
        const refused = await takeMessageCap(tx, {
          clinicId,
          to: entry.phone,
          kind: 'waitlist_offer',
          actor: writer.actor,
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
          await queueOfferMessage(tx, entry, details);
        }
        await audit(tx, {
          clinicId,
          actor: writer.actor,
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
      else messaging.kick();
      return {
        entry_id: entry.id,
        caregiver_id: caregiverId,
        start_date: formatZonedIso(start, caregiver.timezone),
        end_date: formatZonedIso(end, caregiver.timezone),
        offered_at: new Date(sendAt).toISOString(),
        quiet_until: deferred ? new Date(sendAt).toISOString() : null,
      };
    },

    /**
     * The outbox handler of WAITLIST_HAND_OFFER_TOPIC: a hand offer's message once quiet hours
     * are over, if the entry still waits and the time is still free (as an automatic run does).
     */
    async handleHandOffer(payload: unknown): Promise<void> {
      const offer = handOfferPayloadSchema.parse(payload);
      const now = clock();
      if (offer.start <= now) return;
      const entry = await repository.findClinicEntry(offer.clinicId, offer.entryId);
      if (!entry || entry.status !== 'waiting') return;
      const caregiver = await repository.findCaregiver(offer.caregiverId);
      if (!caregiver || caregiver.clinicId !== offer.clinicId || !caregiver.isActive) return;
      const allowed = nextAllowedAt(now, quietPolicy(caregiver));
      if (allowed > now) {
        // Quiet hours changed meanwhile: later, if still before the time.
        if (allowed < offer.start) {
          await outbox.enqueue(db, {
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
        offer.clinicId,
        offer.caregiverId,
        caregiver.timezone,
        offer.start,
        offer.end,
      );
      if (!free) return;
      await queueOfferMessage(db, entry, {
        clinicId: offer.clinicId,
        clinicName: caregiver.clinicName,
        caregiverId: offer.caregiverId,
        caregiverName: caregiver.caregiverName,
        appointmentTypeId: entry.appointmentTypeId,
        typeName: entry.typeName,
        timezone: caregiver.timezone,
        start: offer.start,
      });
      messaging.kick();
    },

    /** `GET /api/integration/waitlist`. */
    async clinicSummary(
      clinicId: number,
      query: WaitlistFilterQuery = {},
    ): Promise<IntegrationWaitlistRow[]> {
      const filter = await clinicFilter(clinicId, query);
      const today = await todayOf(clinicId, clock());
      const rows = await repository.countWaitingByCaregiver(clinicId, today, filter);
      return rows.map((row) => ({
        caregiver_id: row.caregiverId,
        name: row.name,
        waiting: row.waiting,
        oldest_joined_at: (row.oldest ?? new Date(0)).toISOString(),
      }));
    },
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
