import { clinicDataSchema, type ClinicData, type ClinicSummary } from '@marpe/shared';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import { effectiveMarpeRules, emptySchedule } from '../availability/marpe-rules.js';
import {
  addDaysToLocalDate,
  formatZonedIso,
  startOfZonedDay,
  zonedDate,
} from '../../platform/zoned-time.js';
import { clinicNotFound } from '../../platform/errors.js';
import type { ClinicDataCache } from './clinic-data-cache.js';
import type { ClinicsRepository } from './clinics-repository.js';

const MINUTE = 60_000;

/**
 * The calendar sync id the clinic page publishes. docs/product/booking.md#availability has the
 * booking page refuse to fetch availability without one, yet Marpe keeps every caregiver's calendar
 * itself and a clinic need not sync an external one (ADR 016). The real id of a synced Google
 * Calendar is often a person's email address, so the page only ever gets this opaque stand-in,
 * stable per caregiver; the server maps it back (the caregiver's id) and reads the synced calendar
 * through its mirror (ADR 031).
 */
function calendarIdOf(row: { id: number }): string {
  return `marpe:caregiver:${row.id}`;
}

export interface ClinicsServiceDeps {
  clinics: Pick<
    ClinicsRepository,
    | 'listSummaries'
    | 'findClinic'
    | 'listActiveCaregivers'
    | 'listAppointmentTypes'
    | 'listOfferedTypes'
  >;
  schedules: Pick<AvailabilityRepository, 'listSchedules'>;
  availability: Pick<AvailabilityService, 'firstAvailableSlots'>;
  cache: ClinicDataCache;
  clock: () => number;
}

export function createClinicsService({
  clinics,
  schedules,
  availability,
  cache,
  clock,
}: ClinicsServiceDeps) {
  /** The answer and the instant the clock alone could change it. */
  async function build(
    clinicId: number,
    now: number,
  ): Promise<{ json: string; expiresAt: number }> {
    const clinic = await clinics.findClinic(clinicId);
    if (!clinic) throw clinicNotFound(clinicId);
    const timezone = clinic.timezone;
    const today = zonedDate(now, timezone);
    const [staff, types, offered, scheduleRows] = await Promise.all([
      clinics.listActiveCaregivers(clinicId),
      clinics.listAppointmentTypes(clinicId),
      clinics.listOfferedTypes(clinicId),
      schedules.listSchedules({ clinicId }, today),
    ]);

    const defaults = {
      slotStepMinutes: clinic.defaultSlotStepMinutes,
      minNoticeMinutes: clinic.defaultMinNoticeMinutes,
      bookingHorizonDays: clinic.defaultBookingHorizonDays,
    };
    const durationOf = new Map(types.map((t) => [t.id, t.durationMinutes]));
    const offeredBy = new Map<number, number[]>();
    for (const { caregiverId, appointmentTypeId } of offered) {
      const list = offeredBy.get(caregiverId) ?? [];
      list.push(appointmentTypeId);
      offeredBy.set(caregiverId, list);
    }

    const caregivers = staff.map((c) => {
      const typeIds = offeredBy.get(c.id) ?? [];
      const durations = typeIds.map((id) => durationOf.get(id) ?? Infinity);
      const shortest = durations.length > 0 ? Math.min(...durations) : null;
      return {
        row: c,
        typeIds,
        shortest: shortest === Infinity ? null : shortest,
        rules: effectiveMarpeRules(defaults, c, scheduleRows.get(c.id) ?? emptySchedule, today),
      };
    });
    const firstSlots = await availability.firstAvailableSlots(
      timezone,
      caregivers.map((c) => ({
        caregiverId: c.row.id,
        rules: c.rules,
        durationMinutes: c.shortest,
      })),
      now,
    );

    // Past a slot's start minus the caregiver's notice it is no longer bookable; at midnight
    // (clinic time) the exceptions listed and the last bookable date move.
    let expiresAt = startOfZonedDay(addDaysToLocalDate(today, 1), timezone);
    for (const c of caregivers) {
      const slot = firstSlots.get(c.row.id);
      if (slot) expiresAt = Math.min(expiresAt, slot.start - c.rules.min_notice_minutes * MINUTE);
    }

    const data: ClinicData = {
      clinic: {
        id: clinic.id,
        name: clinic.name,
        description: clinic.description,
        image_url: clinic.imageUrl,
        logo_url: clinic.logoUrl,
        phone: clinic.phone,
        email: clinic.email,
        address: { street: clinic.street, home_number: clinic.homeNumber, city: clinic.city },
        opening_hours: clinic.openingHours,
        settings: {
          is_accept_new_patients: clinic.isAcceptNewPatients,
          is_auto_sms_enabled: clinic.isAutoSmsEnabled,
        },
        timezone,
      },
      caregivers: caregivers.map(({ row, typeIds, rules }) => {
        const slot = firstSlots.get(row.id);
        return {
          id: row.id,
          name: row.name,
          image: row.image,
          license_number: row.licenseNumber,
          default_appointment_types: typeIds,
          first_available_slot: slot ? { start: formatZonedIso(slot.start, timezone) } : null,
          google_calendar_sync_calendar_id: calendarIdOf(row),
          marpe_rules: rules,
        };
      }),
      appointmentTypes: types.map((t) => ({
        id: t.id,
        name: t.name,
        duration_minutes: t.durationMinutes,
      })),
    };
    // The response schema is the allow-list: the route sends this string as is, so it is applied
    // here, once per computed answer rather than per request.
    return { json: JSON.stringify(clinicDataSchema.parse(data)), expiresAt };
  }

  // Concurrent misses for a clinic share one computation, unless it was invalidated meanwhile.
  const inflight = new Map<number, { version: string; promise: Promise<string> }>();

  return {
    listSummaries(): Promise<ClinicSummary[]> {
      return clinics.listSummaries();
    },

    /** GET /api/clinic/:id as serialised JSON: from the cache, else computed (and cached). */
    clinicDataJson(clinicId: number): Promise<string> {
      const cached = cache.get(clinicId);
      if (cached !== undefined) return Promise.resolve(cached);
      const version = cache.version(clinicId);
      const running = inflight.get(clinicId);
      if (running?.version === version) return running.promise;

      const promise = build(clinicId, clock())
        .then(({ json, expiresAt }) => {
          cache.set(clinicId, version, json, expiresAt);
          return json;
        })
        .finally(() => {
          if (inflight.get(clinicId)?.promise === promise) inflight.delete(clinicId);
        });
      inflight.set(clinicId, { version, promise });
      return promise;
    },
  };
}

export type ClinicsService = ReturnType<typeof createClinicsService>;
