import {
  defaultReminderSettings,
  isInPartOfDay,
  WAITLIST_MAX_ACTIVE,
  type IntegrationWaitlistEntry,
  type IntegrationWaitlistRow,
  type WaitlistFilterQuery,
  type JoinWaitlistBody,
  type WaitlistEntry,
} from '@marpe/shared';
import { z } from 'zod';
import type { Executor } from '../../platform/db/client.js';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { limits, takeLimit } from '../../platform/limits.js';
import type { AppOutbox, Messaging } from '../messaging/messaging.js';
import type { AppointmentsRepository } from '../appointments/appointments-repository.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import type { Interval } from '../availability/availability-engine.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import {
  addDaysToLocalDate,
  formatZonedLocal,
  zonedDate,
  zonedDateMinutesToEpoch,
} from '../../platform/zoned-time.js';
import { nextAllowedAt, type ReminderPolicy } from '../reminders/reminder-schedule.js';
import { offerMessage } from './offer-message.js';
import type { OfferRow, WaitlistRepository } from './waitlist-repository.js';

const MINUTE = 60_000;

/** The outbox topic of an offer run for one caregiver. */
export const WAITLIST_OFFER_TOPIC = 'waitlist.offer';
/** Entries one freed slot is offered to at once. */
export const OFFERS_AT_ONCE = 3;
/** How long the entries offered a slot have it to themselves before the next ones are told. */
export const OFFER_WINDOW_MS = 30 * MINUTE;
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

export interface WaitlistServiceDeps {
  repository: WaitlistRepository;
  /** Whether the clinic, caregiver and type exist and fit, as a booking checks it. */
  subjects: Pick<AppointmentsRepository, 'findBookingSubject'>;
  availability: Pick<AvailabilityService, 'slotsOnDates'>;
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
      plan.push({ entry, slot });
      open.push({ entryId: entry.id, ...slot });
    }
    // Entries held back by the daily cap get their turn tomorrow, out of quiet time.
    const tomorrow = nextAllowedAt(
      zonedDateMinutesToEpoch(addDaysToLocalDate(today, 1), 0, caregiver.timezone),
      policy,
    );
    if (plan.length === 0) {
      if (heldForTomorrow) {
        await queueRun(db, clinicId, caregiverId, new Date(tomorrow), freed);
        outbox.kick('default');
      }
      return;
    }

    const made = await db.transaction(async (tx) => {
      await repository.lockCaregiver(tx, caregiverId);
      // Another run may have offered meanwhile: its offers count before this run's.
      const held = (await repository.listOpenOffers(tx, caregiverId, since)).map(asInterval);
      let count = 0;
      for (const { entry, slot } of plan) {
        if (held.some((o) => o.entryId === entry.id)) continue;
        if (held.filter((o) => overlaps(o, slot)).length >= OFFERS_AT_ONCE) continue;
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
        await messaging.queueMessage(tx, {
          clinicId,
          to: entry.phone,
          body: offerMessage(
            {
              publicOrigin,
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
            },
            entry.language,
          ),
          // An offer for a time already begun is pointless.
          expiresAt: new Date(slot.start),
        });
      }
      // The next entries' turn, if these do not book within the window.
      if (count > 0) {
        await queueRun(tx, clinicId, caregiverId, new Date(now + OFFER_WINDOW_MS), freed);
      } else if (heldForTomorrow) {
        await queueRun(tx, clinicId, caregiverId, new Date(tomorrow), freed);
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

    /** `GET /api/integration/waitlist/entries`: who waits, on a date, with a caregiver. */
    async clinicEntries(
      clinicId: number,
      query: WaitlistFilterQuery = {},
    ): Promise<IntegrationWaitlistEntry[]> {
      const filter = await clinicFilter(clinicId, query);
      const today = await todayOf(clinicId, clock());
      const rows = await repository.listClinicEntries(clinicId, today, filter);
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
