import type { AvailableDatesQuery, AvailableSlotsQuery, MarpeRules, Slot } from '@marpe/shared';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import {
  availableDates,
  availableSlots,
  bookingWindow,
  firstAvailableSlot,
  type Interval,
} from './availability-engine.js';
import type { AvailabilityRepository } from './availability-repository.js';
import { effectiveMarpeRules, emptySchedule } from './marpe-rules.js';
import {
  addDaysToLocalDate,
  formatZonedIso,
  startOfZonedDay,
  zonedDate,
  zonedToEpoch,
} from '../../platform/zoned-time.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The first available slot is nearly always days away: read two weeks of bookings first, and the
 * rest of the booking window only for caregivers still undecided.
 */
const FIRST_SLOT_LOOKAHEAD_MS = 14 * DAY;

export interface AvailabilityServiceDeps {
  availability: Pick<AvailabilityRepository, 'findBookingContext' | 'listSchedules' | 'listBusy'>;
  clock: () => number;
}

export interface FirstSlotQuery {
  caregiverId: number;
  rules: MarpeRules;
  /** The appointment length to look for; null finds nothing (the caregiver offers no type). */
  durationMinutes: number | null;
}

function caregiverNotFound(clinicId: number, caregiverId: number): AppError {
  return new AppError(
    'caregiver_not_found',
    404,
    `Caregiver ${caregiverId} not found in clinic ${clinicId}`,
  );
}

/** A 400 shaped like the schema validation ones, for rules the query schema cannot check alone. */
function hasWorkingHours(rules: MarpeRules): boolean {
  return (
    Object.values(rules.weekly_hours).some((day) => day.length > 0) ||
    rules.exceptions.some((e) => e.hours.length > 0)
  );
}

export function createAvailabilityService({ availability, clock }: AvailabilityServiceDeps) {
  /** The clinic's zone and the caregiver's effective rules; 404 unless an active caregiver of it. */
  async function loadCaregiver(clinicId: number, caregiverId: number, now: number) {
    const context = await availability.findBookingContext(clinicId, caregiverId);
    if (!context) throw clinicNotFound(clinicId);
    if (!context.caregiver?.isActive) throw caregiverNotFound(clinicId, caregiverId);
    const { timezone, defaults } = context.clinic;
    const today = zonedDate(now, timezone);
    const schedules = await availability.listSchedules({ caregiverId }, today);
    const rules = effectiveMarpeRules(
      defaults,
      context.caregiver.rules,
      schedules.get(caregiverId) ?? emptySchedule,
      today,
    );
    return { timezone, rules };
  }

  return {
    /** Dates with at least one slot, from today to the last bookable date (clinic time). */
    async availableDates(query: AvailableDatesQuery): Promise<string[]> {
      const now = clock();
      const { timezone, rules } = await loadCaregiver(query.clinicId, query.caregiverId, now);
      const window = bookingWindow({ timezone, rules, now });
      const busy = await availability.listBusy([query.caregiverId], {
        from: now,
        // A slot starting late on the last date may end after it.
        to: window.endsAt + query.duration * MINUTE,
      });
      return availableDates(
        {
          timezone,
          rules,
          busy: busy.get(query.caregiverId) ?? [],
          durationMinutes: query.duration,
          now,
        },
        { fromDate: window.firstDate, toDate: window.lastDate },
      );
    },

    /** Slots starting within [startDate, endDate] (clinic wall time), ISO with the zone's offset. */
    async availableSlots(query: AvailableSlotsQuery): Promise<Slot[]> {
      const now = clock();
      const { timezone, rules } = await loadCaregiver(query.clinicId, query.caregiverId, now);
      const startDate = query.startDate ?? `${zonedDate(now, timezone)} 00:00`;
      const endDate = query.endDate ?? `${startDate.slice(0, 10)} 23:59`;
      // 'YYYY-MM-DD HH:mm' strings compare in time order.
      if (startDate > endDate) {
        throw invalidField('endDate', 'endDate must not be before startDate');
      }
      const window = bookingWindow({ timezone, rules, now });
      if (endDate.slice(0, 10) > window.lastDate) {
        throw invalidField(
          'endDate',
          `endDate is past the booking horizon: the last bookable date is ${window.lastDate}`,
        );
      }
      const from = zonedToEpoch(startDate, timezone);
      const to = zonedToEpoch(endDate, timezone);
      // Nothing starts in the past: no need to read the bookings.
      if (to < now) return [];
      const busy = await availability.listBusy([query.caregiverId], {
        from: Math.max(from, now),
        to: to + query.duration * MINUTE,
      });
      const slots = availableSlots(
        {
          timezone,
          rules,
          busy: busy.get(query.caregiverId) ?? [],
          durationMinutes: query.duration,
          now,
        },
        { from, to },
      );
      return slots.map((slot) => ({
        start: formatZonedIso(slot.start, timezone),
        end: formatZonedIso(slot.end, timezone),
      }));
    },

    /**
     * The slots offered now for this length on the dates [fromDate, toDate] (clinic time), cut to
     * the booking window: what the waitlist offers from (modules/waitlist). Same reading of hours,
     * rules and bookings as available-slots; 404 as the other calls.
     */
    async slotsOnDates(query: {
      clinicId: number;
      caregiverId: number;
      durationMinutes: number;
      fromDate: string;
      toDate: string;
    }): Promise<{ timezone: string; slots: Interval[] }> {
      const now = clock();
      const { timezone, rules } = await loadCaregiver(query.clinicId, query.caregiverId, now);
      const window = bookingWindow({ timezone, rules, now });
      const fromDate = query.fromDate > window.firstDate ? query.fromDate : window.firstDate;
      const toDate = query.toDate < window.lastDate ? query.toDate : window.lastDate;
      if (fromDate > toDate) return { timezone, slots: [] };
      const from = Math.max(startOfZonedDay(fromDate, timezone), now);
      const to = startOfZonedDay(addDaysToLocalDate(toDate, 1), timezone) - 1;
      const busy = await availability.listBusy([query.caregiverId], {
        from,
        to: to + query.durationMinutes * MINUTE,
      });
      const slots = availableSlots(
        {
          timezone,
          rules,
          busy: busy.get(query.caregiverId) ?? [],
          durationMinutes: query.durationMinutes,
          now,
        },
        { from, to },
      );
      return { timezone, slots };
    },

    /**
     * Would the engine offer exactly [start, end) (epoch ms) for this length now, were the
     * caregiver free? On the slot grid, within working hours, past the minimum notice and within
     * the horizon. Bookings are left out on purpose: whether the interval is still free is decided
     * by the booking's own transaction and the database's constraints. 404 as the other calls.
     */
    async isOfferedSlot(query: {
      clinicId: number;
      caregiverId: number;
      durationMinutes: number;
      start: number;
      end: number;
    }): Promise<{ offered: boolean; timezone: string }> {
      const now = clock();
      const { timezone, rules } = await loadCaregiver(query.clinicId, query.caregiverId, now);
      if (query.end - query.start !== query.durationMinutes * MINUTE) {
        return { offered: false, timezone };
      }
      const slots = availableSlots(
        { timezone, rules, busy: [], durationMinutes: query.durationMinutes, now },
        { from: query.start, to: query.start },
      );
      const offered = slots.some((s) => s.start === query.start && s.end === query.end);
      return { offered, timezone };
    },

    /**
     * Each caregiver's earliest bookable slot at `now`, reading bookings in at most two queries for
     * them all. A slot found with bookings read up to `to` is right when it ends by `to`: every
     * booking that could overlap it was read. No slot with fewer bookings than the truth means no
     * slot at all.
     */
    async firstAvailableSlots(
      timezone: string,
      queries: readonly FirstSlotQuery[],
      now: number,
    ): Promise<Map<number, Interval | null>> {
      const result = new Map<number, Interval | null>();
      let pending: (FirstSlotQuery & { durationMinutes: number; endsAt: number })[] = [];
      for (const query of queries) {
        if (query.durationMinutes === null || !hasWorkingHours(query.rules)) {
          result.set(query.caregiverId, null);
          continue;
        }
        const { endsAt } = bookingWindow({ timezone, rules: query.rules, now });
        pending.push({ ...query, durationMinutes: query.durationMinutes, endsAt });
      }
      if (pending.length === 0) return result;

      // Slots end at most a day (the longest appointment is 8 hours) after the window.
      const fullTo = Math.max(...pending.map((p) => p.endsAt)) + DAY;
      const passes = now + FIRST_SLOT_LOOKAHEAD_MS < fullTo ? [now + FIRST_SLOT_LOOKAHEAD_MS] : [];
      passes.push(fullTo);
      for (const to of passes) {
        const busy = await availability.listBusy(
          pending.map((p) => p.caregiverId),
          { from: now, to },
        );
        const undecided: typeof pending = [];
        for (const query of pending) {
          const slot = firstAvailableSlot({
            timezone,
            rules: query.rules,
            busy: busy.get(query.caregiverId) ?? [],
            durationMinutes: query.durationMinutes,
            now,
          });
          if (slot === null || slot.end <= to || to === fullTo) result.set(query.caregiverId, slot);
          else undecided.push(query);
        }
        pending = undecided;
        if (pending.length === 0) break;
      }
      return result;
    },
  };
}

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
