import type { FastifyBaseLogger } from 'fastify';
import type { IntegrationReminder, ReminderSettings } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import { createWorkerLoop } from '../../platform/worker-loop.js';
import { formatZonedIso } from '../../platform/zoned-time.js';
import { takeMessageCap, tryLockMessageCaps } from '../integration/message-caps.js';
import type { Messaging } from '../messaging/messaging.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { reminderMessage } from './reminder-message.js';
import { nextAllowedAt } from '../messaging/quiet-time.js';
import { planReminders, reminderPolicy } from './reminder-schedule.js';
import type { DueReminder, RemindersRepository } from './reminders-repository.js';

/** The audit actor of what the reminders worker does by itself. */
export const REMINDERS_ACTOR = 'reminders';
/** Reminders one worker transaction takes at once. */
const CLAIM_BATCH = 20;
const DEFAULT_POLL_INTERVAL_MS = 30_000;

export interface RemindersDeps {
  repository: RemindersRepository;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  webhooks: Pick<Webhooks, 'emitAppointmentReminded' | 'kick'>;
  /** Epoch milliseconds. */
  clock: () => number;
  /** The reminder's link goes to `${publicOrigin}/appointments/{clinicId}`. */
  publicOrigin: string;
  log: FastifyBaseLogger;
  /** How often due reminders are looked for (default 30 s: they are planned to the minute). */
  pollIntervalMs?: number;
}

/** The appointment a booking, a move or a settings change plans reminders for. */
export interface PlannedAppointment {
  id: number;
  clinicId: number;
  startAt: Date;
}

const appointmentNotFound = () =>
  new AppError('appointment_not_found', 404, 'No such appointment in this clinic');

/**
 * Appointment reminders (docs/booking.md, "Reminders"): planned in the transaction that books or
 * moves an appointment, withdrawn in the one that cancels or moves it, and sent by a worker that
 * claims due rows with FOR UPDATE SKIP LOCKED: each goes once, whatever the number of instances,
 * and survives restarts because the plan is in the database.
 */
export function createReminders(deps: RemindersDeps) {
  const { repository, messaging, webhooks, clock, publicOrigin, log } = deps;
  const { db } = repository;

  async function planAll(
    ex: Executor,
    clinicId: number,
    list: readonly Omit<PlannedAppointment, 'clinicId'>[],
    now: number,
  ): Promise<void> {
    const settings = await repository.findSettings(ex, clinicId);
    if (!settings.enabled || list.length === 0) return;
    const clinic = await repository.findClinicRules(ex, clinicId);
    if (clinic === null) return;
    const policy = reminderPolicy(settings, clinic);
    await repository.insertReminders(
      ex,
      list.flatMap((appointment) =>
        planReminders(appointment.startAt.getTime(), policy, now).map((reminder) => ({
          appointmentId: appointment.id,
          clinicId,
          leadMinutes: reminder.leadMinutes,
          appointmentStartAt: appointment.startAt,
          dueAt: new Date(reminder.dueAt),
        })),
      ),
    );
  }

  /**
   * Sends one claimed reminder (true), or settles it as void or refused (false), in the claiming
   * transaction; 'busy': left due, the message caps' lock was held elsewhere.
   */
  async function handle(
    tx: Executor,
    reminder: DueReminder,
    now: number,
    settingsOf: (ex: Executor, clinicId: number) => Promise<ReminderSettings>,
  ): Promise<boolean | 'busy'> {
    const at = new Date(now);
    const subject = await repository.findMessageSubject(tx, reminder.appointmentId);
    const settings = await settingsOf(tx, reminder.clinicId);
    if (
      !subject ||
      subject.status !== 'booked' ||
      subject.startAt.getTime() !== reminder.appointmentStartAt.getTime() ||
      !settings.enabled
    ) {
      // Cancelling, moving and settings changes withdraw reminders in their own transactions;
      // this is the last guard should one have been missed.
      await repository.settle(tx, reminder.id, { status: 'withdrawn', at });
      return false;
    }
    if (subject.startAt.getTime() <= now) {
      await repository.settle(tx, reminder.id, { status: 'missed', at });
      return false;
    }
    // Planned reminders fall outside quiet time; one overdue after downtime may not. It waits for
    // the quiet time to end, or is missed when that is not before the appointment.
    const allowed = nextAllowedAt(now, reminderPolicy(settings, subject));
    if (allowed > now) {
      if (allowed < subject.startAt.getTime()) {
        await repository.postpone(tx, reminder.id, new Date(allowed));
      } else {
        await repository.settle(tx, reminder.id, { status: 'missed', at });
      }
      return false;
    }
    // The caps' lock without waiting: its holders (a cancellation, a move) may be waiting for the
    // reminders this batch holds. Busy, the reminder stays due for the next poll.
    if (!(await tryLockMessageCaps(tx, reminder.clinicId))) return 'busy';
    // Counted by the clinic's message caps like every message to a patient: refused, it is not
    // sent later either (a late reminder would be another message to a number already at its cap).
    const refused = await takeMessageCap(tx, {
      clinicId: reminder.clinicId,
      to: subject.phone,
      kind: 'reminder',
      actor: REMINDERS_ACTOR,
      now,
    });
    if (refused) {
      await repository.settle(tx, reminder.id, { status: 'refused', at });
      return false;
    }
    const channel = await messaging.queueMessage(tx, {
      kind: 'reminder',
      clinicId: reminder.clinicId,
      to: subject.phone,
      body: reminderMessage(
        {
          clinicName: subject.clinicName,
          caregiverName: subject.caregiverName,
          typeName: subject.typeName,
          timezone: subject.timezone,
          start: subject.startAt.getTime(),
          link: `${publicOrigin}/appointments/${reminder.clinicId}`,
          // The appointments page's own rule (is_marpe_cancellable): start − now ≥ the notice.
          changeableOnline: subject.startAt.getTime() - now >= subject.cancelNoticeMinutes * 60_000,
          clinicPhone: subject.clinicPhone,
        },
        subject.language,
      ),
      expiresAt: subject.startAt,
      channel: settings.channel,
    });
    await repository.settle(tx, reminder.id, { status: 'sent', at, channel });
    await webhooks.emitAppointmentReminded(
      tx,
      { id: reminder.appointmentId, clinicId: reminder.clinicId },
      { id: reminder.id, lead_minutes: reminder.leadMinutes, channel, sent_at: at.toISOString() },
    );
    return true;
  }

  /** One batch in one transaction: how many reminders it claimed, settled and sent. */
  async function runBatch(): Promise<{ claimed: number; settled: number; sent: number }> {
    const now = clock();
    return db.transaction(async (tx) => {
      const due = await repository.claimDue(tx, new Date(now), CLAIM_BATCH);
      // After downtime two reminders of one appointment may be due together: the later one only.
      const latest = new Map<number, DueReminder>();
      for (const reminder of due) latest.set(reminder.appointmentId, reminder);
      // Settings read once per clinic: a settings change withdraws its clinic's waiting reminders,
      // which waits for the rows this batch holds, so a read per reminder would find the same.
      const settingsByClinic = new Map<number, ReminderSettings>();
      const settingsOf = async (ex: Executor, clinicId: number) => {
        let settings = settingsByClinic.get(clinicId);
        if (!settings) {
          settings = await repository.findSettings(ex, clinicId);
          settingsByClinic.set(clinicId, settings);
        }
        return settings;
      };
      let settled = 0;
      let sent = 0;
      for (const reminder of due) {
        if (latest.get(reminder.appointmentId) !== reminder) {
          await repository.settle(tx, reminder.id, { status: 'missed', at: new Date(now) });
          settled += 1;
          continue;
        }
        try {
          // A savepoint each: one reminder that cannot be sent does not hold back the others.
          const delivered = await tx.transaction((savepoint) =>
            handle(savepoint, reminder, now, settingsOf),
          );
          if (delivered === 'busy') continue;
          if (delivered) sent += 1;
          settled += 1;
        } catch (error) {
          // Left scheduled: the next poll tries again, until its appointment starts (missed).
          log.error(
            { err: error, reminderId: reminder.id },
            'reminders: could not send, will retry',
          );
        }
      }
      return { claimed: due.length, settled, sent };
    });
  }

  /** One run: batch after batch until none is full; how many reminders it sent. */
  async function sendDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, settled, sent } = await runBatch();
      total += sent;
      if (sent > 0) {
        messaging.kick();
        webhooks.kick();
      }
      // A full batch may have more behind it; one with failures would only claim them again.
      if (claimed < CLAIM_BATCH || settled < claimed) return total;
    }
  }

  const loop = createWorkerLoop({
    name: 'reminders',
    run: sendDue,
    everyMs: deps.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    log,
  });

  /** Withdraws the clinic's waiting reminders and plans its upcoming appointments again. */
  async function replanAt(tx: Executor, clinicId: number, now: number): Promise<void> {
    await repository.withdrawWaiting(tx, { clinicId }, new Date(now));
    const upcoming = await repository.listBookedAfter(tx, clinicId, new Date(now));
    await planAll(tx, clinicId, upcoming, now);
  }

  return {
    /**
     * Plans the reminders of a booked or moved appointment in the caller's transaction (after
     * withdrawing any it had): none when the clinic's reminders are off.
     */
    async plan(tx: Executor, appointment: PlannedAppointment): Promise<void> {
      const now = clock();
      await repository.withdrawWaiting(tx, { appointmentIds: [appointment.id] }, new Date(now));
      await planAll(tx, appointment.clinicId, [appointment], now);
    },

    /** Withdraws a cancelled appointment's waiting reminders, in the cancelling transaction. */
    async withdraw(tx: Executor, appointmentId: number): Promise<void> {
      await repository.withdrawWaiting(tx, { appointmentIds: [appointmentId] }, new Date(clock()));
    },

    /**
     * Re-plans the clinic's upcoming reminders in the caller's transaction, as a settings change
     * does: for a change of what planning reads of the clinic (its time zone).
     */
    replanClinic(tx: Executor, clinicId: number): Promise<void> {
      return replanAt(tx, clinicId, clock());
    },

    /** `GET /api/integration/reminders/settings`. */
    getSettings(clinicId: number): Promise<ReminderSettings> {
      return repository.findSettings(db, clinicId);
    },

    /**
     * `PUT /api/integration/reminders/settings`: saved whole, and every upcoming appointment of the
     * clinic re-planned by them in the same transaction (none when turned off).
     */
    async saveSettings(
      clinicActor: ClinicActor,
      settings: ReminderSettings,
    ): Promise<ReminderSettings> {
      const now = clock();
      await db.transaction(async (tx) => {
        await repository.saveSettings(tx, clinicActor.clinicId, settings);
        await replanAt(tx, clinicActor.clinicId, now);
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'reminders.update',
          targetType: 'clinic',
          targetId: clinicActor.clinicId,
          details: { settings },
          at: new Date(now),
        });
      });
      return repository.findSettings(db, clinicActor.clinicId);
    },

    /** `GET /api/integration/appointments/:id/reminders`: planned, sent and withdrawn, by due time. */
    async list(clinicId: number, appointmentId: number): Promise<IntegrationReminder[]> {
      const owner = await repository.findAppointmentClinic(db, appointmentId);
      if (owner !== clinicId) throw appointmentNotFound();
      const timezone = (await repository.findClinicRules(db, clinicId))?.timezone ?? 'UTC';
      const rows = await repository.listForAppointment(db, appointmentId);
      return rows.map((row) => ({
        id: row.id,
        lead_minutes: row.leadMinutes,
        status: row.status,
        due_at: formatZonedIso(row.dueAt.getTime(), timezone),
        appointment_start_date: formatZonedIso(row.appointmentStartAt.getTime(), timezone),
        sent_at: row.status === 'sent' && row.settledAt ? row.settledAt.toISOString() : null,
        channel: row.channel,
      }));
    },

    /** Sends everything due now, after any run under way; resolves with how many were sent. */
    runOnce: loop.runOnce,
    /** Polls every `pollIntervalMs`, and runs at once. */
    start: loop.start,
    /** Stops polling and waits for the run under way. */
    stop: loop.stop,
  };
}

export type Reminders = ReturnType<typeof createReminders>;
