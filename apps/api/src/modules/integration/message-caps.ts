import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.js';
import { DEFAULT_MESSAGE_CAP_CEILINGS, type MessageCapCeilings } from '../../platform/config.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { clinics, limitEvents } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Process-wide, like the rest of the configuration: every sender of a patient message calls
// takeMessageCap, and passing the ceilings through each of them would not make them any less so.
let ceilings: MessageCapCeilings = DEFAULT_MESSAGE_CAP_CEILINGS;

/** Sets the operator's ceilings (`config.messageCapCeilings`): buildApp does, before serving. */
export function setMessageCapCeilings(value: MessageCapCeilings): void {
  ceilings = value;
}

/** The operator's ceilings now in force. */
export function messageCapCeilings(): MessageCapCeilings {
  return ceilings;
}

/** A clinic's caps as stored (its own choice) and as in force: never above the ceilings. */
export function effectiveMessageCaps(stored: MessageCapCeilings): MessageCapCeilings {
  return {
    perRecipientPerHour: Math.min(stored.perRecipientPerHour, ceilings.perRecipientPerHour),
    perRecipientPerDay: Math.min(stored.perRecipientPerDay, ceilings.perRecipientPerDay),
    perClinicPerDay: Math.min(stored.perClinicPerDay, ceilings.perClinicPerDay),
  };
}

/**
 * What a patient message counted by the caps is for: every message a clinic sends its patients,
 * automatic (reminders, waitlist offers, change notices) or by hand, and details the patient asks
 * for. Login codes are not counted here: patient-auth limits them itself.
 */
export type ApiMessageKind =
  | 'reminder'
  | 'appointment_details'
  | 'form_link'
  | 'payment_link'
  | 'clinic_booking'
  | 'clinic_cancellation'
  | 'waitlist_offer'
  | 'appointment_booked'
  | 'appointment_moved'
  | 'appointment_cancelled';

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

/** One message a cap counts: for a clinic, to 05XXXXXXXX, what for, who sends it, when. */
export interface CountedMessage {
  clinicId: number;
  to: string;
  kind: ApiMessageKind;
  /** The audit actor: `api_key:<id>`, `staff:<id>`, `patient:<id>`, `reminders`, `waitlist`. */
  actor: string;
  /** Epoch milliseconds. */
  now: number;
}

const recipientSubject = (clinicId: number, to: string) => `clinic:${clinicId}:to:${sha256Hex(to)}`;
const clinicSubject = (clinicId: number) => `clinic:${clinicId}`;

/** The refusal one more message to `to` would meet now, or null when it may go. */
async function findRefusal(
  ex: Executor,
  clinicId: number,
  to: string,
  now: number,
): Promise<MessageCapRefusal | null> {
  const [stored] = await ex
    .select({
      perRecipientPerHour: clinics.messageCapPerRecipientHour,
      perRecipientPerDay: clinics.messageCapPerRecipientDay,
      perClinicPerDay: clinics.messageCapPerClinicDay,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  if (!stored) throw new Error(`message caps: no clinic ${clinicId}`);
  // The ceilings at use, not only when a clinic saves its caps: lowering one takes effect at once.
  const caps = effectiveMessageCaps(stored);
  const recipient = recipientSubject(clinicId, to);

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
    const [row] = await ex.select({ count: count() }).from(limitEvents).where(inWindow);
    const held = row?.count ?? 0;
    if (held < max) return null;
    // One more may go once all but max − 1 of them have left the window.
    const [freeing] = await ex
      .select({ at: limitEvents.createdAt })
      .from(limitEvents)
      .where(inWindow)
      .orderBy(asc(limitEvents.createdAt))
      .offset(held - max)
      .limit(1);
    const until = (freeing?.at.getTime() ?? now) + windowMs;
    return { cap, max, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  return (
    (await full(
      'per_recipient_per_hour',
      'api_message',
      recipient,
      caps.perRecipientPerHour,
      HOUR,
    )) ??
    (await full('per_recipient_per_day', 'api_message', recipient, caps.perRecipientPerDay, DAY)) ??
    (await full(
      'per_clinic_per_day',
      'api_message_clinic',
      clinicSubject(clinicId),
      caps.perClinicPerDay,
      DAY,
    ))
  );
}

const capsLockKey = (clinicId: number) => sql`hashtext(${`limit:api_message:${clinicId}`})`;

/**
 * Takes the lock that serialises a clinic's counted messages, until the transaction ends (again
 * in one transaction is a no-op). A sender that also locks other rows (a caregiver's offers, an
 * appointment's reminders) takes this first, as takeMessageCap does, so that two never wait on
 * each other in opposite orders.
 */
export async function lockMessageCaps(tx: Executor, clinicId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${capsLockKey(clinicId)})`);
}

/**
 * lockMessageCaps without waiting: false when another transaction holds it. For a sender that
 * already holds rows a holder of this lock may be waiting for (the reminders worker).
 */
export async function tryLockMessageCaps(tx: Executor, clinicId: number): Promise<boolean> {
  const result = await tx.execute(
    sql`SELECT pg_try_advisory_xact_lock(${capsLockKey(clinicId)}) AS locked`,
  );
  const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
  return row?.locked === true;
}

/**
 * Whether one more message to `to` would be refused now, counting nothing: for choosing whom to
 * send to (the waitlist offers the time to the next in line instead). `takeMessageCap` decides.
 */
export function peekMessageCap(
  ex: Executor,
  message: Pick<CountedMessage, 'clinicId' | 'to' | 'now'>,
): Promise<MessageCapRefusal | null> {
  return findRefusal(ex, message.clinicId, message.to, message.now);
}

/** The audit entry of a message the caps refused (`message.refused`), in the caller's transaction. */
export async function auditMessageRefusal(
  ex: Executor,
  message: CountedMessage,
  refusal: MessageCapRefusal,
): Promise<void> {
  await audit(ex, {
    clinicId: message.clinicId,
    actor: message.actor,
    action: 'message.refused',
    targetType: 'clinic',
    targetId: message.clinicId,
    // The number's last digits only, as the patient's phone hint shows them.
    details: {
      kind: message.kind,
      cap: refusal.cap,
      max: refusal.max,
      retry_after: refusal.retryAfterSeconds,
      to_last_digits: message.to.slice(-3),
    },
    at: new Date(message.now),
  });
}

/**
 * Counts one message a clinic sends its patient `to` (05XXXXXXXX), in the sending transaction, or
 * refuses it when a cap is full (rolling windows): per recipient per hour and per day, and the
 * clinic's per day; each the clinic's own (`settings.message_caps`) but never above the operator's
 * ceiling (MESSAGE_CAP_*_MAX). A refusal is written to the audit log in the same transaction; the
 * caller commits it without sending (and answers `messageCapError`, or settles the reminder or
 * offer as refused). Serialised per clinic, so concurrent sends cannot overshoot a cap; rolled
 * back with the send.
 *
 * The recipient is kept as a hash in `limit_events` (pruned after a day): the caps need equality,
 * not the number.
 */
export async function takeMessageCap(
  tx: Executor,
  message: CountedMessage,
): Promise<MessageCapRefusal | null> {
  const { clinicId, to, now } = message;
  await lockMessageCaps(tx, clinicId);
  const refusal = await findRefusal(tx, clinicId, to, now);
  if (refusal) {
    await auditMessageRefusal(tx, message, refusal);
    return refusal;
  }
  const at = new Date(now);
  await tx.insert(limitEvents).values([
    { kind: 'api_message', subject: recipientSubject(clinicId, to), createdAt: at },
    { kind: 'api_message_clinic', subject: clinicSubject(clinicId), createdAt: at },
  ]);
  return null;
}
