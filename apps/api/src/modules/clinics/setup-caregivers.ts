import {
  weekDays,
  type CaregiverRulesInput,
  type CreateCaregiverBody,
  type IntegrationCaregiver,
  type UpdateCaregiverBody,
} from '@marpe/shared';
import { caregiverNotFound, requireClinicCaregiver } from '../../platform/clinic-caregiver.js';
import type { Executor, Transaction } from '../../platform/db/client.js';
import { AppError, invalidField } from '../../platform/errors.js';
import { zonedDate } from '../../platform/zoned-time.js';
import { effectiveMarpeRules } from '../availability/marpe-rules.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import type { CaregiverRow, CaregiverSchedule, CaregiverValues } from './caregiver-queries.js';
import type { ClinicRow } from './setup-repository.js';
import { createSetupSteps, type ClinicServiceDeps } from './setup-steps.js';

const hhmm = (time: string) => time.slice(0, 5);

function toCaregiver(
  row: CaregiverRow,
  schedule: CaregiverSchedule,
  clinic: ClinicRow,
  today: string,
): IntegrationCaregiver {
  // The public page's ordering of hours and breaks; the rule values are the caregiver's own.
  const { weekly_hours, breaks } = effectiveMarpeRules(
    {
      slotStepMinutes: clinic.defaultSlotStepMinutes,
      minNoticeMinutes: clinic.defaultMinNoticeMinutes,
      bookingHorizonDays: clinic.defaultBookingHorizonDays,
    },
    row,
    { workingHours: schedule.hours, breaks: schedule.breaks, exceptions: [] },
    today,
  );
  return {
    id: row.id,
    name: row.name,
    image: row.image,
    license_number: row.licenseNumber,
    google_calendar_sync_calendar_id: row.googleCalendarSyncCalendarId,
    is_active: row.isActive,
    sort_order: row.sortOrder,
    appointment_type_ids: schedule.typeIds,
    marpe_rules: {
      slot_step_minutes: row.slotStepMinutes,
      min_notice_minutes: row.minNoticeMinutes,
      booking_horizon_days: row.bookingHorizonDays,
      weekly_hours,
      breaks,
      exceptions: schedule.exceptions.map((e) => ({
        date: e.date,
        note: e.note,
        hours: e.hours.map((h) => ({ start: hhmm(h.startTime), end: hhmm(h.endTime) })),
      })),
    },
  };
}

/** The row values of the caregiver fields a body gives (absent fields stay as they are). */
function caregiverValues(body: UpdateCaregiverBody): CaregiverValues {
  const rules = body.marpe_rules;
  const values: CaregiverValues = {
    name: body.name,
    licenseNumber: body.license_number,
    image: body.image,
    googleCalendarSyncCalendarId: body.google_calendar_sync_calendar_id,
    isActive: body.is_active,
    sortOrder: body.sort_order,
    slotStepMinutes: rules?.slot_step_minutes,
    minNoticeMinutes: rules?.min_notice_minutes,
    bookingHorizonDays: rules?.booking_horizon_days,
  };
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as CaregiverValues;
}

/** The clinic's caregivers with their hours, breaks, exceptions, rules and appointment types. */
export function createSetupCaregivers(
  deps: Pick<
    ClinicServiceDeps,
    'repository' | 'waitlist' | 'cache' | 'clock' | 'calendarSyncAllowed'
  >,
) {
  const { repository, waitlist, cache, clock, calendarSyncAllowed } = deps;
  const { db } = repository;
  const { clinicOf, lockClinic, checkIds, changeSetup, audited } = createSetupSteps(deps);

  /**
   * A calendar id is a claim on someone's calendar through the server's one service account: only
   * for clinics the operator named, and one caregiver's at a time, so a clinic cannot read or
   * write a calendar another connected (ids are e-mail addresses, easy to guess).
   */
  async function checkCalendarClaim(
    tx: Executor,
    clinicId: number,
    caregiverId: number | null,
    calendarId: string | null | undefined,
  ): Promise<void> {
    if (calendarId === null || calendarId === undefined) return;
    const field = 'google_calendar_sync_calendar_id';
    if (!calendarSyncAllowed(clinicId)) {
      throw invalidField(
        field,
        "This server's Google Calendar connection is not open to this clinic: ask whoever runs Marpe",
      );
    }
    if (await repository.calendarTaken(tx, calendarId, caregiverId)) {
      throw invalidField(field, 'This calendar is already connected to another caregiver');
    }
  }

  /**
   * A calendar connected by consent is changed by disconnecting and a new link, never by typing
   * another id: the connection's token would stay with the old calendar (ADR 042). The same id
   * again (a form sent whole) changes nothing and passes.
   */
  async function checkNotConnected(
    tx: Executor,
    caregiverId: number,
    calendarId: string | null | undefined,
  ): Promise<void> {
    if (calendarId === undefined) return;
    const connected = await repository.connectedCalendar(tx, caregiverId);
    if (connected === null || connected === calendarId) return;
    throw new AppError(
      'calendar_connected',
      409,
      'The caregiver connected this calendar by consent: disconnect it (DELETE …/calendar-connection) and send a new connection link instead',
      { field: 'google_calendar_sync_calendar_id' },
    );
  }

  async function readCaregivers(
    ex: Executor,
    clinic: ClinicRow,
    caregiverId?: number,
  ): Promise<IntegrationCaregiver[]> {
    const today = zonedDate(clock(), clinic.timezone);
    const rows = await repository.listCaregivers(ex, clinic.id, caregiverId);
    const schedules = await repository.listSchedules(
      ex,
      rows.map((r) => r.id),
      today,
    );
    return rows.map((row) =>
      toCaregiver(
        row,
        schedules.get(row.id) ?? { hours: [], breaks: [], exceptions: [], typeIds: [] },
        clinic,
        today,
      ),
    );
  }

  async function readCaregiver(clinicId: number, caregiverId: number) {
    const clinic = await clinicOf(db, clinicId);
    const [caregiver] = await readCaregivers(db, clinic, caregiverId);
    if (!caregiver) throw caregiverNotFound(caregiverId);
    return caregiver;
  }

  /** Writes the schedule parts the rules give, each replacing the caregiver's whole part. */
  async function writeSchedule(
    tx: Transaction,
    clinic: ClinicRow,
    caregiverId: number,
    rules: CaregiverRulesInput | undefined,
  ): Promise<void> {
    if (rules?.weekly_hours) {
      const weekly = rules.weekly_hours;
      await repository.replaceWorkingHours(
        tx,
        caregiverId,
        weekDays.flatMap((day, weekDay) =>
          weekly[day].map((r) => ({ weekDay, startTime: r.start, endTime: r.end })),
        ),
      );
    }
    if (rules?.breaks) {
      await repository.replaceBreaks(
        tx,
        caregiverId,
        rules.breaks.map((b) => ({
          weekDay: b.day === null ? null : weekDays.indexOf(b.day),
          startTime: b.start,
          endTime: b.end,
        })),
      );
    }
    if (rules?.exceptions) {
      const today = zonedDate(clock(), clinic.timezone);
      const past = rules.exceptions.findIndex((e) => e.date < today);
      if (past >= 0) {
        throw invalidField(
          `marpe_rules.exceptions.${past}.date`,
          `Before today (${today} in the clinic's time zone)`,
        );
      }
      await repository.replaceExceptionsFrom(
        tx,
        caregiverId,
        today,
        rules.exceptions.map((e) => ({
          date: e.date,
          note: e.note ?? null,
          hours: e.hours.map((h) => ({ startTime: h.start, endTime: h.end })),
        })),
      );
    }
  }

  return {
    async listCaregivers(clinicId: number): Promise<IntegrationCaregiver[]> {
      return readCaregivers(db, await clinicOf(db, clinicId));
    },

    getCaregiver: readCaregiver,

    async createCaregiver(clinicActor: ClinicActor, body: CreateCaregiverBody) {
      const now = clock();
      const id = await changeSetup(clinicActor.clinicId, async (tx, clinic) => {
        const typeIds = body.appointment_type_ids ?? [];
        await checkIds(tx, clinic.id, typeIds, 'appointment type', 'appointment_type_ids');
        await checkCalendarClaim(tx, clinic.id, null, body.google_calendar_sync_calendar_id);
        const caregiverId = await repository.insertCaregiver(tx, clinic.id, {
          ...caregiverValues(body),
          name: body.name,
          licenseNumber: body.license_number,
        });
        await writeSchedule(tx, clinic, caregiverId, body.marpe_rules);
        await repository.replaceCaregiverTypes(tx, caregiverId, typeIds);
        await audited(tx, clinicActor, now, {
          action: 'caregiver.create',
          targetType: 'caregiver',
          targetId: caregiverId,
          details: { changes: body },
        });
        return caregiverId;
      });
      return readCaregiver(clinicActor.clinicId, id);
    },

    async updateCaregiver(
      clinicActor: ClinicActor,
      caregiverId: number,
      body: UpdateCaregiverBody,
    ) {
      const now = clock();
      await changeSetup(clinicActor.clinicId, async (tx, clinic) => {
        const caregiver = await requireClinicCaregiver(tx, clinic.id, caregiverId);
        await checkNotConnected(tx, caregiver.id, body.google_calendar_sync_calendar_id);
        const values = caregiverValues(body);
        await checkCalendarClaim(
          tx,
          clinic.id,
          caregiver.id,
          body.google_calendar_sync_calendar_id,
        );
        if (Object.keys(values).length > 0) {
          await repository.updateCaregiver(tx, caregiver.id, values);
        }
        await writeSchedule(tx, clinic, caregiver.id, body.marpe_rules);
        if (body.appointment_type_ids) {
          const typeIds = body.appointment_type_ids;
          await checkIds(tx, clinic.id, typeIds, 'appointment type', 'appointment_type_ids');
          await repository.replaceCaregiverTypes(tx, caregiver.id, typeIds);
        }
        await audited(tx, clinicActor, now, {
          action: 'caregiver.update',
          targetType: 'caregiver',
          targetId: caregiver.id,
          details: { changes: body },
        });
        if (body.marpe_rules || body.appointment_type_ids || body.is_active) {
          await waitlist.queueOffers(tx, { clinicId: clinic.id, caregiverId: caregiver.id });
        }
      });
      waitlist.kick();
      return readCaregiver(clinicActor.clinicId, caregiverId);
    },

    /**
     * Takes the caregiver off the clinic page and out of booking. Its appointments (past and
     * booked) stay, and PATCH `is_active: true` brings it back.
     */
    async deactivateCaregiver(clinicActor: ClinicActor, caregiverId: number): Promise<void> {
      const now = clock();
      const changed = await db.transaction(async (tx) => {
        await lockClinic(tx, clinicActor.clinicId);
        const caregiver = await requireClinicCaregiver(tx, clinicActor.clinicId, caregiverId);
        if (!caregiver.isActive) return false;
        await repository.updateCaregiver(tx, caregiver.id, { isActive: false });
        await audited(tx, clinicActor, now, {
          action: 'caregiver.deactivate',
          targetType: 'caregiver',
          targetId: caregiver.id,
        });
        return true;
      });
      if (changed) cache.invalidate(clinicActor.clinicId);
    },
  };
}
