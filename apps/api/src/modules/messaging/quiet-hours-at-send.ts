import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../platform/db/client.js';
import { clinics, reminderSettings } from '../../platform/db/schema.js';
import type { OutboxHandler } from '../../platform/outbox/outbox-contract.js';
import { clinicQuietTime, nextAllowedAt, type QuietTime } from './quiet-time.js';

/**
 * A notice that the clinic's quiet hours would hold until less than this before the appointment
 * it concerns goes at once instead: a patient told of a cancelled 08:00 appointment at 08:00 has
 * already left home. Three hours covers getting ready and the way to the clinic.
 */
export const NOTICE_URGENT_WITHIN_MS = 3 * 3_600_000;

/**
 * Messages a clinic sends by itself, not because someone asked at that moment: they keep the
 * clinic's quiet hours (and Shabbat and Yom Tov when its reminders observe them) when they are
 * sent, not only when they are queued, since a retry after a gateway outage may fall at night.
 * Whatever a person sends or asks for now (a form or payment link from the desk, the details a
 * patient asked for) goes at once: they are awake and waiting; login codes always go.
 */
const EXPIRE_WHEN_LATE = new Set<string>(['reminder', 'waitlist_offer']);
/**
 * News of a change to an appointment: its sender already decided, when it queued it, whether it
 * goes at night (an appointment soon after quiet hours end: change-notices.ts). Sent later than
 * that (a retry after an outage), it is held like the others, unless quiet time would then end
 * too close to the appointment for the news to be of use (NOTICE_URGENT_WITHIN_MS): told at once.
 */
const TELL_WHEN_LATE = new Set<string>([
  'appointment_booked',
  'appointment_moved',
  'appointment_cancelled',
]);

/** Whether messages of this kind keep the clinic's quiet hours when they are sent. */
export const keepsQuietHours = (kind: string | undefined): boolean =>
  kind !== undefined && (EXPIRE_WHEN_LATE.has(kind) || TELL_WHEN_LATE.has(kind));

const kindOfPayload = z.object({ kind: z.string().optional() });

/** The clinic's quiet time, as its reminders and waitlist offers keep it; null for no clinic. */
async function quietTimeOf(ex: Executor, clinicId: number): Promise<QuietTime | null> {
  const [row] = await ex
    .select({
      timezone: clinics.timezone,
      quietStart: reminderSettings.quietStart,
      quietEnd: reminderSettings.quietEnd,
      observeRestDays: reminderSettings.observeRestDays,
    })
    .from(clinics)
    .leftJoin(reminderSettings, eq(reminderSettings.clinicId, clinics.id))
    .where(eq(clinics.id, clinicId));
  return row ? clinicQuietTime(row) : null;
}

/**
 * When a message about to be sent must wait instead (epoch ms), or null to send it now: the end of
 * the clinic's quiet time for a message of a kind that keeps it. A reminder or an offer whose use
 * ends first waits until then, which the outbox marks expired, never sent. A change notice queued
 * within this same quiet time goes (its sender chose to send it at night), and so does one that
 * would otherwise reach the patient too close to its time.
 */
export async function quietHoursAtSend(
  ex: Executor,
  message: {
    clinicId: number | null;
    kind: string | undefined;
    now: number;
    expiresAt: number | null;
    /** When the message was queued. */
    createdAt: number;
  },
): Promise<number | null> {
  const { clinicId, kind, now, expiresAt, createdAt } = message;
  if (clinicId === null || kind === undefined || !keepsQuietHours(kind)) return null;
  const quiet = await quietTimeOf(ex, clinicId);
  if (!quiet) return null;
  const allowed = nextAllowedAt(now, quiet);
  if (allowed <= now) return null;
  if (TELL_WHEN_LATE.has(kind)) {
    const queuedInThisQuiet =
      nextAllowedAt(createdAt, quiet) > createdAt && nextAllowedAt(createdAt, quiet) === allowed;
    if (queuedInThisQuiet) return null;
    return expiresAt !== null && expiresAt - allowed < NOTICE_URGENT_WITHIN_MS ? null : allowed;
  }
  return expiresAt !== null && allowed >= expiresAt ? expiresAt : allowed;
}

/**
 * An outbox handler of patient messages that first checks the clinic's quiet time at send time
 * (quietHoursAtSend): inside it the row is deferred (no attempt counted) and nothing is sent.
 */
export function keepingQuietHours(
  deps: { db: Executor; clock: () => number },
  handler: OutboxHandler,
): OutboxHandler {
  return async (payload, attempt) => {
    const parsed = kindOfPayload.safeParse(payload);
    const until = await quietHoursAtSend(deps.db, {
      clinicId: attempt.clinicId,
      kind: parsed.success ? parsed.data.kind : undefined,
      now: deps.clock(),
      expiresAt: attempt.expiresAt,
      createdAt: attempt.createdAt,
    });
    if (until !== null) {
      attempt.defer(until);
      return;
    }
    await handler(payload, attempt);
  };
}
