import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import { defaultReminderSettings, type ReminderSettings } from '@marpe/shared';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointmentReminders,
  appointments,
  appointmentTypes,
  caregivers,
  clinics,
  patients,
  reminderSettings,
  type MessagingChannel,
  type ReminderStatusValue,
} from '../../platform/db/schema.js';

const hhmm = (time: string) => time.slice(0, 5);

/** A claimed reminder with what its message and checks need. */
export interface DueReminder {
  id: number;
  appointmentId: number;
  clinicId: number;
  leadMinutes: number;
  appointmentStartAt: Date;
}

/** The row of a clinic's settings. */
export const reminderSettingsValues = (settings: ReminderSettings) => ({
  enabled: settings.enabled,
  leadMinutes: settings.lead_minutes,
  channel: settings.channel,
  quietStart: settings.quiet_hours.start,
  quietEnd: settings.quiet_hours.end,
  observeRestDays: settings.observe_shabbat_and_holidays,
});

export function createRemindersRepository(db: Database) {
  return {
    db,

    /** The clinic's settings, or the defaults (reminders off) when it never set them. */
    async findSettings(ex: Executor, clinicId: number): Promise<ReminderSettings> {
      const [row] = await ex
        .select()
        .from(reminderSettings)
        .where(eq(reminderSettings.clinicId, clinicId));
      if (!row) return { ...defaultReminderSettings };
      return {
        enabled: row.enabled,
        lead_minutes: [...row.leadMinutes],
        channel: row.channel,
        quiet_hours: { start: hhmm(row.quietStart), end: hhmm(row.quietEnd) },
        observe_shabbat_and_holidays: row.observeRestDays,
      };
    },

    async saveSettings(ex: Executor, clinicId: number, settings: ReminderSettings) {
      const values = reminderSettingsValues(settings);
      await ex
        .insert(reminderSettings)
        .values({ clinicId, ...values })
        .onConflictDoUpdate({ target: reminderSettings.clinicId, set: values });
    },

    /** What planning reads of the clinic: its zone and cancellation notice; null for none. */
    async findClinicRules(ex: Executor, clinicId: number) {
      const [row] = await ex
        .select({ timezone: clinics.timezone, cancelNoticeMinutes: clinics.cancelNoticeMinutes })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    async insertReminders(
      ex: Executor,
      rows: {
        appointmentId: number;
        clinicId: number;
        leadMinutes: number;
        appointmentStartAt: Date;
        dueAt: Date;
      }[],
    ) {
      if (rows.length > 0) await ex.insert(appointmentReminders).values(rows);
    },

    /** Settles the waiting reminders of some appointments (of one clinic, or all of them). */
    async withdrawWaiting(
      ex: Executor,
      where: { appointmentIds: readonly number[] } | { clinicId: number },
      at: Date,
    ) {
      if ('appointmentIds' in where && where.appointmentIds.length === 0) return;
      await ex
        .update(appointmentReminders)
        .set({ status: 'withdrawn', settledAt: at })
        .where(
          and(
            eq(appointmentReminders.status, 'scheduled'),
            'clinicId' in where
              ? eq(appointmentReminders.clinicId, where.clinicId)
              : inArray(appointmentReminders.appointmentId, [...where.appointmentIds]),
          ),
        );
    },

    /** The clinic's booked appointments starting after `now`: what a settings change re-plans. */
    async listBookedAfter(ex: Executor, clinicId: number, now: Date) {
      return ex
        .select({ id: appointments.id, startAt: appointments.startAt })
        .from(appointments)
        .where(
          and(
            eq(appointments.clinicId, clinicId),
            eq(appointments.status, 'booked'),
            gt(appointments.startAt, now),
          ),
        );
    },

    /**
     * Takes up to `limit` due reminders for the caller's transaction, skipping those another
     * worker holds: each is settled by whoever took it, before that transaction commits.
     */
    async claimDue(tx: Executor, now: Date, limit: number): Promise<DueReminder[]> {
      return tx
        .select({
          id: appointmentReminders.id,
          appointmentId: appointmentReminders.appointmentId,
          clinicId: appointmentReminders.clinicId,
          leadMinutes: appointmentReminders.leadMinutes,
          appointmentStartAt: appointmentReminders.appointmentStartAt,
        })
        .from(appointmentReminders)
        .where(
          and(eq(appointmentReminders.status, 'scheduled'), lte(appointmentReminders.dueAt, now)),
        )
        .orderBy(asc(appointmentReminders.dueAt), asc(appointmentReminders.id))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /** What the message of a reminder names, as the appointment now stands. */
    async findMessageSubject(ex: Executor, appointmentId: number) {
      const [row] = await ex
        .select({
          status: appointments.status,
          startAt: appointments.startAt,
          language: appointments.language,
          phone: patients.phone,
          clinicName: clinics.name,
          clinicPhone: clinics.phone,
          cancelNoticeMinutes: clinics.cancelNoticeMinutes,
          timezone: clinics.timezone,
          caregiverName: caregivers.name,
          typeName: appointmentTypes.name,
        })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .innerJoin(caregivers, eq(caregivers.id, appointments.caregiverId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
        .where(eq(appointments.id, appointmentId));
      return row ?? null;
    },

    async settle(
      ex: Executor,
      id: number,
      values: {
        status: Exclude<ReminderStatusValue, 'scheduled'>;
        at: Date;
        channel?: MessagingChannel;
      },
    ) {
      await ex
        .update(appointmentReminders)
        .set({ status: values.status, settledAt: values.at, channel: values.channel ?? null })
        .where(eq(appointmentReminders.id, id));
    },

    /** A claimed reminder left waiting, due again at `dueAt`. */
    async postpone(ex: Executor, id: number, dueAt: Date) {
      await ex
        .update(appointmentReminders)
        .set({ dueAt })
        .where(and(eq(appointmentReminders.id, id), eq(appointmentReminders.status, 'scheduled')));
    },

    /** The appointment's clinic, or null when there is no such appointment. */
    async findAppointmentClinic(ex: Executor, appointmentId: number): Promise<number | null> {
      const [row] = await ex
        .select({ clinicId: appointments.clinicId })
        .from(appointments)
        .where(eq(appointments.id, appointmentId));
      return row?.clinicId ?? null;
    },

    async listForAppointment(ex: Executor, appointmentId: number) {
      return ex
        .select()
        .from(appointmentReminders)
        .where(eq(appointmentReminders.appointmentId, appointmentId))
        .orderBy(asc(appointmentReminders.dueAt), asc(appointmentReminders.id));
    },
  };
}

export type RemindersRepository = ReturnType<typeof createRemindersRepository>;
