import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { clinics, limitEvents } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What the integration API sent a message for. */
export type ApiMessageKind =
  'form_link' | 'payment_link' | 'clinic_booking' | 'clinic_cancellation' | 'waitlist_offer';

export type MessageCapName =
  'per_recipient_per_hour' | 'per_recipient_per_day' | 'per_clinic_per_day';

/** A message the caps refused: which cap, its size, and when one more may go. */
export interface MessageCapRefusal {
  cap: MessageCapName;
  max: number;
  retryAfterSeconds: number;
}

/** The 429 of a refused message: `details.retry_after` in seconds (also the Retry-After header). */
export function messageCapError(refusal: MessageCapRefusal): AppError {
  return new AppError(
    'too_many_requests',
    429,
    `No more messages now: the clinic's ${refusal.cap} cap (${refusal.max}) is reached; retry in ${refusal.retryAfterSeconds} s`,
    { retry_after: refusal.retryAfterSeconds, cap: refusal.cap, max: refusal.max },
  );
}

/**
 * Counts one message the integration API sends for a clinic to `to` (05XXXXXXXX), in the sending
 * transaction, or refuses it when a cap of the clinic's is full (rolling windows): per recipient
 * per hour and per day, and the clinic's per day. A refusal is written to the audit log in the same
 * transaction; the caller commits it without sending and answers `messageCapError`. Serialised per
 * clinic, so concurrent sends cannot overshoot a cap; rolled back with the send.
 *
 * The recipient is kept as a hash in `limit_events` (pruned after a day): the caps need equality,
 * not the number.
 */
export async function takeMessageCap(
  tx: Executor,
  message: { clinicId: number; to: string; kind: ApiMessageKind; actor: string; now: number },
): Promise<MessageCapRefusal | null> {
  const { clinicId, to, kind, actor, now } = message;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`limit:api_message:${clinicId}`}))`);
  const [caps] = await tx
    .select({
      perHour: clinics.messageCapPerRecipientHour,
      perDay: clinics.messageCapPerRecipientDay,
      clinicPerDay: clinics.messageCapPerClinicDay,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  if (!caps) throw new Error(`takeMessageCap: no clinic ${clinicId}`);
  const recipient = `clinic:${clinicId}:to:${sha256Hex(to)}`;
  const clinic = `clinic:${clinicId}`;

  /** The refusal when `max` events of the subject fall in the window ending now. */
  async function full(
    cap: MessageCapName,
    kindOf: 'api_message' | 'api_message_clinic',
    subject: string,
    max: number,
    windowMs: number,
  ): Promise<MessageCapRefusal | null> {
    const since = new Date(now - windowMs);
    const inWindow = and(
      eq(limitEvents.kind, kindOf),
      eq(limitEvents.subject, subject),
      gt(limitEvents.createdAt, since),
    );
    const [row] = await tx.select({ count: count() }).from(limitEvents).where(inWindow);
    const held = row?.count ?? 0;
    if (held < max) return null;
    // One more may go once all but max − 1 of them have left the window.
    const [freeing] = await tx
      .select({ at: limitEvents.createdAt })
      .from(limitEvents)
      .where(inWindow)
      .orderBy(asc(limitEvents.createdAt))
      .offset(held - max)
      .limit(1);
    const until = (freeing?.at.getTime() ?? now) + windowMs;
    return { cap, max, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  const refusal =
    (await full('per_recipient_per_hour', 'api_message', recipient, caps.perHour, HOUR)) ??
    (await full('per_recipient_per_day', 'api_message', recipient, caps.perDay, DAY)) ??
    (await full('per_clinic_per_day', 'api_message_clinic', clinic, caps.clinicPerDay, DAY));
  const at = new Date(now);
  if (refusal) {
    await audit(tx, {
      clinicId,
      actor,
      action: 'message.refused',
      targetType: 'clinic',
      targetId: clinicId,
      // The number's last digits only, as the patient's phone hint shows them.
      details: {
        kind,
        cap: refusal.cap,
        max: refusal.max,
        retry_after: refusal.retryAfterSeconds,
        to_last_digits: to.slice(-3),
      },
      at,
    });
    return refusal;
  }
  await tx.insert(limitEvents).values([
    { kind: 'api_message', subject: recipient, createdAt: at },
    { kind: 'api_message_clinic', subject: clinic, createdAt: at },
  ]);
  return null;
}
