import {
  weekDays,
  type CaregiverRulesInput,
  type CreateAppointmentTypeBody,
  type CreateCaregiverBody,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
  type IntegrationClinic,
  type UpdateAppointmentTypeBody,
  type UpdateCaregiverBody,
  type UpdateClinicBody,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Executor, Transaction } from '../../platform/db/client.js';
import { AppError, invalidField } from '../../platform/errors.js';
import { effectiveMarpeRules } from '../availability/marpe-rules.js';
import { isValidTimeZone, zonedDate } from '../../platform/zoned-time.js';
import type { Writer } from '../integration/integration-auth.js';
import { effectiveMessageCaps, messageCapCeilings } from '../integration/message-caps.js';
import type { MessageCapCeilings } from '../../platform/config.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { ClinicDataCache } from './clinic-data-cache.js';
import type {
  CaregiverRow,
  CaregiverSchedule,
  CaregiverValues,
  ClinicRepository,
  ClinicRow,
  ClinicValues,
} from './setup-repository.js';

const DAY = 86_400_000;

export interface ClinicServiceDeps {
  repository: ClinicRepository;
  /** New hours, rules or types may open times that waiting patients are offered. */
  waitlist: Pick<WaitlistService, 'queueOffers' | 'kick'>;
  /** Reminders are planned in the clinic's zone: a new zone re-plans the waiting ones. */
  reminders: Pick<Reminders, 'replanClinic'>;
  /** The public clinic page shows caregivers, hours, types and settings. */
  cache: Pick<ClinicDataCache, 'invalidate'>;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Whether the operator opened the server's Google service account to this clinic. */
  calendarSyncAllowed: (clinicId: number) => boolean;
}

const caregiverNotFound = (id: number) =>
  new AppError('caregiver_not_found', 404, `No caregiver ${id} in this clinic`);
const typeNotFound = (id: number) =>
  new AppError('appointment_type_not_found', 404, `No appointment type ${id} in this clinic`);

const hhmm = (time: string) => time.slice(0, 5);

/** The zone's canonical name ('asia/jerusalem' → 'Asia/Jerusalem'), which every library knows. */
function canonicalTimeZone(timezone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
}

function toClinic(row: ClinicRow): IntegrationClinic {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image_url: row.imageUrl,
    logo_url: row.logoUrl,
    phone: row.phone,
    email: row.email,
    address: { street: row.street, home_number: row.homeNumber, city: row.city },
    opening_hours: row.openingHours,
    timezone: row.timezone,
    settings: {
      is_accept_new_patients: row.isAcceptNewPatients,
      is_auto_sms_enabled: row.isAutoSmsEnabled,
      messaging_channel: row.messagingChannel,
      card_terminal: row.cardTerminal,
      cancel_notice_minutes: row.cancelNoticeMinutes,
      max_upcoming_appointments: row.maxUpcomingAppointments,
      calendar_event_detail: row.calendarEventDetail,
      message_caps: messageCapsBody(
        effectiveMessageCaps({
          perRecipientPerHour: row.messageCapPerRecipientHour,
          perRecipientPerDay: row.messageCapPerRecipientDay,
          perClinicPerDay: row.messageCapPerClinicDay,
        }),
      ),
      waitlist_offers_per_entry_per_day: row.waitlistOffersPerEntryPerDay,
      change_notices: {
        booked: row.notifyBooked,
        moved: row.notifyMoved,
        cancelled: row.notifyCancelled,
      },
    },
    default_marpe_rules: {
      slot_step_minutes: row.defaultSlotStepMinutes,
      min_notice_minutes: row.defaultMinNoticeMinutes,
      booking_horizon_days: row.defaultBookingHorizonDays,
    },
    message_cap_ceilings: messageCapsBody(messageCapCeilings()),
  };
}

const messageCapsBody = (caps: MessageCapCeilings) => ({
  per_recipient_per_hour: caps.perRecipientPerHour,
  per_recipient_per_day: caps.perRecipientPerDay,
  per_clinic_per_day: caps.perClinicPerDay,
});

/** 400 naming the first cap above the operator's ceiling: a clinic may only set them lower. */
function checkMessageCaps(caps: NonNullable<UpdateClinicBody['settings']>['message_caps']): void {
  if (!caps) return;
  const ceilings = messageCapsBody(messageCapCeilings());
  const variables = {
    per_recipient_per_hour: 'MESSAGE_CAP_RECIPIENT_HOUR_MAX',
    per_recipient_per_day: 'MESSAGE_CAP_RECIPIENT_DAY_MAX',
    per_clinic_per_day: 'MESSAGE_CAP_CLINIC_DAY_MAX',
  } as const;
  for (const name of Object.keys(variables) as (keyof typeof variables)[]) {
    const value = caps[name];
    if (value !== undefined && value > ceilings[name]) {
      throw invalidField(
        `settings.message_caps.${name}`,
        `At most ${ceilings[name]}: the ceiling this server's operator set (${variables[name]})`,
      );
    }
  }
}

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

/**
 * The integration API's clinic setup: profile and settings, caregivers with their schedules and
 * rules, and appointment types. Every write runs in one transaction with its audit entry, then
 * drops the clinic's cached public page.
 */
export function createClinicService({
  repository,
  waitlist,
  reminders,
  cache,
  clock,
  calendarSyncAllowed,
}: ClinicServiceDeps) {
  const { db } = repository;

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

  async function clinicOf(ex: Executor, clinicId: number): Promise<ClinicRow> {
    const clinic = await repository.findClinic(ex, clinicId);
    // The key's clinic exists while the key does (ON DELETE CASCADE); a deleted one is a 404.
    if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
    return clinic;
  }

  /** Every write of a clinic takes this first: one at a time, always locking in one order. */
  async function lockClinic(tx: Transaction, clinicId: number): Promise<ClinicRow> {
    const clinic = await repository.lockClinic(tx, clinicId);
    if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
    return clinic;
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

  async function readType(clinicId: number, typeId: number): Promise<IntegrationAppointmentType> {
    const [type] = await repository.listTypes(db, clinicId, typeId);
    if (!type) throw typeNotFound(typeId);
    return {
      id: type.id,
      name: type.name,
      duration_minutes: type.durationMinutes,
      caregiver_ids: type.caregiverIds,
    };
  }

  /** 400 naming `field` unless every id is one of the clinic's caregivers (or types). */
  async function checkIds(
    tx: Executor,
    clinicId: number,
    ids: readonly number[],
    kind: 'caregiver' | 'appointment type',
    field: string,
  ): Promise<void> {
    const found =
      kind === 'caregiver'
        ? await repository.findClinicCaregiverIds(tx, clinicId, ids)
        : await repository.findClinicTypeIds(tx, clinicId, ids);
    const index = ids.findIndex((id) => !found.has(id));
    if (index >= 0) {
      throw invalidField(`${field}.${index}`, `No ${kind} ${ids[index]} in this clinic`);
    }
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
    async getClinic(clinicId: number): Promise<IntegrationClinic> {
      return toClinic(await clinicOf(db, clinicId));
    },

    async updateClinic(writer: Writer, body: UpdateClinicBody): Promise<IntegrationClinic> {
      const now = clock();
      checkMessageCaps(body.settings?.message_caps);
      let timezone: string | undefined;
      if (body.timezone !== undefined) {
        if (!isValidTimeZone(body.timezone)) {
          throw invalidField('timezone', 'Expected an IANA time zone name, e.g. Asia/Jerusalem');
        }
        timezone = canonicalTimeZone(body.timezone);
      }
      const { address, settings, default_marpe_rules: rules } = body;
      const values: ClinicValues = Object.fromEntries(
        Object.entries({
          name: body.name,
          description: body.description,
          imageUrl: body.image_url,
          logoUrl: body.logo_url,
          phone: body.phone,
          email: body.email,
          street: address?.street,
          homeNumber: address?.home_number,
          city: address?.city,
          openingHours: body.opening_hours,
          timezone,
          isAcceptNewPatients: settings?.is_accept_new_patients,
          isAutoSmsEnabled: settings?.is_auto_sms_enabled,
          messagingChannel: settings?.messaging_channel,
          cardTerminal: settings?.card_terminal,
          cancelNoticeMinutes: settings?.cancel_notice_minutes,
          maxUpcomingAppointments: settings?.max_upcoming_appointments,
          calendarEventDetail: settings?.calendar_event_detail,
          messageCapPerRecipientHour: settings?.message_caps?.per_recipient_per_hour,
          messageCapPerRecipientDay: settings?.message_caps?.per_recipient_per_day,
          messageCapPerClinicDay: settings?.message_caps?.per_clinic_per_day,
          waitlistOffersPerEntryPerDay: settings?.waitlist_offers_per_entry_per_day,
          notifyBooked: settings?.change_notices?.booked,
          notifyMoved: settings?.change_notices?.moved,
          notifyCancelled: settings?.change_notices?.cancelled,
          defaultSlotStepMinutes: rules?.slot_step_minutes,
          defaultMinNoticeMinutes: rules?.min_notice_minutes,
          defaultBookingHorizonDays: rules?.booking_horizon_days,
        }).filter(([, value]) => value !== undefined),
      );

      const clinic = await db.transaction(async (tx) => {
        const current = await lockClinic(tx, writer.clinicId);
        if (
          values.messagingChannel === 'whatsapp' &&
          !(await repository.hasWhatsappConnection(tx, writer.clinicId))
        ) {
          throw invalidField(
            'settings.messaging_channel',
            'Connect WhatsApp first (the WhatsApp connection page); until then messages go by SMS',
          );
        }
        if (Object.keys(values).length > 0) {
          await repository.updateClinic(tx, writer.clinicId, values);
        }
        const newZone = timezone !== undefined && timezone !== current.timezone ? timezone : null;
        if (newZone !== null) {
          // local_date is the start's date in the clinic's zone; the one-booking-per-date rule
          // compares it. Bookings that ended over a day ago no longer meet a new booking's date.
          const booked = await repository.listBookedSince(
            tx,
            writer.clinicId,
            new Date(now - 2 * DAY),
          );
          for (const row of booked) {
            await repository.setLocalDate(tx, row.id, zonedDate(row.startAt.getTime(), newZone));
          }
        }
        // Whole-day leads, quiet hours and rest days are clock times in the clinic's zone, and a
        // reminder due as online cancellation closes goes just before it closes.
        if (
          newZone !== null ||
          (values.cancelNoticeMinutes !== undefined &&
            values.cancelNoticeMinutes !== current.cancelNoticeMinutes)
        ) {
          await reminders.replanClinic(tx, writer.clinicId);
        }
        await audit(tx, {
          clinicId: writer.clinicId,
          actor: writer.actor,
          action: 'clinic.update',
          targetType: 'clinic',
          targetId: writer.clinicId,
          details: { changes: { ...body, ...(timezone === undefined ? {} : { timezone }) } },
          at: new Date(now),
        });
        return clinicOf(tx, writer.clinicId);
      });
      cache.invalidate(writer.clinicId);
      return toClinic(clinic);
    },

    async listCaregivers(clinicId: number): Promise<IntegrationCaregiver[]> {
      return readCaregivers(db, await clinicOf(db, clinicId));
    },

    getCaregiver: readCaregiver,

    async createCaregiver(writer: Writer, body: CreateCaregiverBody) {
      const now = clock();
      const id = await db.transaction(async (tx) => {
        const clinic = await lockClinic(tx, writer.clinicId);
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
        await audit(tx, {
          clinicId: clinic.id,
          actor: writer.actor,
          action: 'caregiver.create',
          targetType: 'caregiver',
          targetId: caregiverId,
          details: { changes: body },
          at: new Date(now),
        });
        return caregiverId;
      });
      cache.invalidate(writer.clinicId);
      return readCaregiver(writer.clinicId, id);
    },

    async updateCaregiver(writer: Writer, caregiverId: number, body: UpdateCaregiverBody) {
      const now = clock();
      await db.transaction(async (tx) => {
        const clinic = await lockClinic(tx, writer.clinicId);
        const caregiver = await repository.findCaregiver(tx, clinic.id, caregiverId);
        if (!caregiver) throw caregiverNotFound(caregiverId);
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
        await audit(tx, {
          clinicId: clinic.id,
          actor: writer.actor,
          action: 'caregiver.update',
          targetType: 'caregiver',
          targetId: caregiver.id,
          details: { changes: body },
          at: new Date(now),
        });
        if (body.marpe_rules || body.appointment_type_ids || body.is_active) {
          await waitlist.queueOffers(tx, { clinicId: clinic.id, caregiverId: caregiver.id });
        }
      });
      cache.invalidate(writer.clinicId);
      waitlist.kick();
      return readCaregiver(writer.clinicId, caregiverId);
    },

    /**
     * Takes the caregiver off the clinic page and out of booking. Its appointments (past and
     * booked) stay, and PATCH `is_active: true` brings it back.
     */
    async deactivateCaregiver(writer: Writer, caregiverId: number): Promise<void> {
      const now = clock();
      const changed = await db.transaction(async (tx) => {
        await lockClinic(tx, writer.clinicId);
        const caregiver = await repository.findCaregiver(tx, writer.clinicId, caregiverId);
        if (!caregiver) throw caregiverNotFound(caregiverId);
        if (!caregiver.isActive) return false;
        await repository.updateCaregiver(tx, caregiver.id, { isActive: false });
        await audit(tx, {
          clinicId: writer.clinicId,
          actor: writer.actor,
          action: 'caregiver.deactivate',
          targetType: 'caregiver',
          targetId: caregiver.id,
          at: new Date(now),
        });
        return true;
      });
      if (changed) cache.invalidate(writer.clinicId);
    },

    async listAppointmentTypes(clinicId: number): Promise<IntegrationAppointmentType[]> {
      const types = await repository.listTypes(db, clinicId);
      return types.map((t) => ({
        id: t.id,
        name: t.name,
        duration_minutes: t.durationMinutes,
        caregiver_ids: t.caregiverIds,
      }));
    },

    getAppointmentType: readType,

    async createAppointmentType(writer: Writer, body: CreateAppointmentTypeBody) {
      const now = clock();
      const id = await db.transaction(async (tx) => {
        const clinic = await lockClinic(tx, writer.clinicId);
        const caregiverIds = body.caregiver_ids ?? [];
        await checkIds(tx, clinic.id, caregiverIds, 'caregiver', 'caregiver_ids');
        const typeId = await repository.insertType(tx, clinic.id, {
          name: body.name,
          durationMinutes: body.duration_minutes,
        });
        await repository.replaceTypeCaregivers(tx, typeId, caregiverIds);
        await audit(tx, {
          clinicId: clinic.id,
          actor: writer.actor,
          action: 'appointment_type.create',
          targetType: 'appointment_type',
          targetId: typeId,
          details: { changes: body },
          at: new Date(now),
        });
        return typeId;
      });
      cache.invalidate(writer.clinicId);
      return readType(writer.clinicId, id);
    },

    async updateAppointmentType(writer: Writer, typeId: number, body: UpdateAppointmentTypeBody) {
      const now = clock();
      await db.transaction(async (tx) => {
        const clinic = await lockClinic(tx, writer.clinicId);
        const type = await repository.findType(tx, clinic.id, typeId);
        if (!type) throw typeNotFound(typeId);
        if (body.name !== undefined || body.duration_minutes !== undefined) {
          await repository.updateType(tx, type.id, {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.duration_minutes === undefined
              ? {}
              : { durationMinutes: body.duration_minutes }),
          });
        }
        if (body.caregiver_ids) {
          await checkIds(tx, clinic.id, body.caregiver_ids, 'caregiver', 'caregiver_ids');
          await repository.replaceTypeCaregivers(tx, type.id, body.caregiver_ids);
        }
        await audit(tx, {
          clinicId: clinic.id,
          actor: writer.actor,
          action: 'appointment_type.update',
          targetType: 'appointment_type',
          targetId: type.id,
          details: { changes: body },
          at: new Date(now),
        });
      });
      cache.invalidate(writer.clinicId);
      return readType(writer.clinicId, typeId);
    },

    /** Refused (409) once any appointment, booked or cancelled, is of this type: they keep it. */
    async deleteAppointmentType(writer: Writer, typeId: number): Promise<void> {
      const now = clock();
      await db.transaction(async (tx) => {
        await lockClinic(tx, writer.clinicId);
        // Locked: no booking can take the type between the check and the delete.
        const type = await repository.findType(tx, writer.clinicId, typeId, true);
        if (!type) throw typeNotFound(typeId);
        if (await repository.isTypeBooked(tx, type.id)) {
          throw new AppError(
            'conflict',
            409,
            'Appointments are of this type; stop offering it instead (PATCH caregiver_ids: [])',
          );
        }
        await repository.deleteType(tx, type.id);
        await audit(tx, {
          clinicId: writer.clinicId,
          actor: writer.actor,
          action: 'appointment_type.delete',
          targetType: 'appointment_type',
          targetId: type.id,
          at: new Date(now),
        });
      });
      cache.invalidate(writer.clinicId);
    },
  };
}

export type ClinicService = ReturnType<typeof createClinicService>;

/** A new clinic as the operator gives it (`npm run marpe -- create-clinic`). */
export interface NewClinicInput {
  name: string;
  phone: string;
  street: string;
  homeNumber: string;
  city: string;
  /** A zone isValidTimeZone accepts; default Asia/Jerusalem. */
  timezone?: string;
}

/** Creates a clinic, closed all week until its hours are set, with its audit entry; its id. */
export async function createClinic(
  repository: Pick<ClinicRepository, 'db' | 'insertClinic'>,
  input: NewClinicInput,
  actor: string,
  now: number,
): Promise<number> {
  return repository.db.transaction(async (tx) => {
    const id = await repository.insertClinic(tx, {
      name: input.name,
      phone: input.phone,
      street: input.street,
      homeNumber: input.homeNumber,
      city: input.city,
      openingHours: {
        title: null,
        days: Object.fromEntries(weekDays.map((day) => [day, null])) as Record<
          (typeof weekDays)[number],
          null
        >,
      },
      ...(input.timezone === undefined ? {} : { timezone: canonicalTimeZone(input.timezone) }),
    });
    await audit(tx, {
      clinicId: id,
      actor,
      action: 'clinic.create',
      targetType: 'clinic',
      targetId: id,
      details: { changes: input },
      at: new Date(now),
    });
    return id;
  });
}
