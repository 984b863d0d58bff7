import type { CodeDeliveryState } from '@marpe/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { decryptText, encryptText, sealedAt, type SealingKey } from '../../platform/crypto.js';
import type { Database, Executor } from '../../platform/db/client.js';
import { messageDeliveries, type DeliveryState } from '../../platform/db/schema.js';
import type { ReceiptProvider, SmsAccepted } from './sms-provider.js';

/**
 * How far along a state is: a receipt moves a message only forward, so a late or repeated one
 * never undoes a later one. Delivered is the strongest (the handset has it, whatever was said
 * before); undelivered and failed are final, and neither replaces the other.
 */
export const DELIVERY_STATE_RANK: Readonly<Record<DeliveryState, number>> = {
  sent: 1,
  undelivered: 2,
  failed: 2,
  delivered: 3,
};

const rankSql = sql`CASE ${messageDeliveries.state} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 3 ELSE 2 END`;

/** What a WhatsApp fallback sends: kept sealed while the SMS's fate is unknown. */
export interface FallbackMessage {
  clinicId: number;
  to: string;
  body: string;
  kind: string;
}

const fallbackAt = (provider: ReceiptProvider, providerMessageId: string) =>
  sealedAt('message_deliveries', 'fallback', `${provider}:${providerMessageId}`);

export interface DeliveryFacts {
  outboxId: number;
  clinicId: number | null;
  kind: string;
  /** A login code's challenge (its token hash), for the code page. */
  ref: string | null;
}

/** A message the provider accepted: 'sent' until its receipts say more. */
export async function recordAccepted(
  db: Executor,
  key: SealingKey,
  accepted: SmsAccepted,
  facts: DeliveryFacts,
  now: Date,
  fallback: FallbackMessage | null,
): Promise<void> {
  await db
    .insert(messageDeliveries)
    .values({
      provider: accepted.provider,
      providerMessageId: accepted.providerMessageId,
      outboxId: facts.outboxId,
      clinicId: facts.clinicId,
      kind: facts.kind,
      ref: facts.ref,
      state: 'sent',
      fallback: fallback
        ? encryptText(
            key,
            JSON.stringify(fallback),
            fallbackAt(accepted.provider, accepted.providerMessageId),
          )
        : null,
      createdAt: now,
      updatedAt: now,
    })
    // A receipt may come before this insert (a slow database): it found nothing and was
    // ignored, so nothing is lost by keeping the first row.
    .onConflictDoNothing();
}

/** A message the provider refused outright (an invalid number): failed, with its code. */
export async function recordRefused(
  db: Executor,
  provider: ReceiptProvider,
  errorCode: string | null,
  facts: DeliveryFacts,
  now: Date,
  fellBack: boolean,
): Promise<void> {
  await db.insert(messageDeliveries).values({
    provider,
    providerMessageId: null,
    outboxId: facts.outboxId,
    clinicId: facts.clinicId,
    kind: facts.kind,
    ref: facts.ref,
    state: 'failed',
    errorCode,
    fellBackAt: fellBack ? now : null,
    createdAt: now,
    updatedAt: now,
  });
}

export interface Receipt {
  provider: ReceiptProvider;
  providerMessageId: string;
  state: DeliveryState;
  errorCode: string | null;
}

export type ReceiptOutcome =
  | { kind: 'unknown' }
  | { kind: 'unchanged' }
  | { kind: 'moved'; state: DeliveryState; fallback: FallbackMessage | null };

/**
 * Moves the message to the receipt's state if that is further along (DELIVERY_STATE_RANK), in
 * the caller's transaction. A final state erases the sealed fallback; an undelivered or failed
 * one hands it back (once: `fell_back_at` is set) for the caller to queue by WhatsApp.
 */
export async function applyReceipt(
  tx: Executor,
  key: SealingKey,
  receipt: Receipt,
  now: Date,
): Promise<ReceiptOutcome> {
  const where = and(
    eq(messageDeliveries.provider, receipt.provider),
    eq(messageDeliveries.providerMessageId, receipt.providerMessageId),
  );
  const [row] = await tx
    .select({
      id: messageDeliveries.id,
      state: messageDeliveries.state,
      fallback: messageDeliveries.fallback,
      fellBackAt: messageDeliveries.fellBackAt,
    })
    .from(messageDeliveries)
    .where(where)
    .for('update');
  if (!row) return { kind: 'unknown' };
  if (DELIVERY_STATE_RANK[receipt.state] <= DELIVERY_STATE_RANK[row.state]) {
    return { kind: 'unchanged' };
  }
  const final = receipt.state !== 'sent';
  const fallsBack =
    (receipt.state === 'undelivered' || receipt.state === 'failed') &&
    row.fallback !== null &&
    row.fellBackAt === null;
  let fallback: FallbackMessage | null = null;
  if (fallsBack && row.fallback) {
    try {
      fallback = JSON.parse(
        decryptText(key, row.fallback, fallbackAt(receipt.provider, receipt.providerMessageId)),
      ) as FallbackMessage;
    } catch {
      // Unreadable (a key since retired): the SMS's state is recorded all the same.
      fallback = null;
    }
  }
  await tx
    .update(messageDeliveries)
    .set({
      state: receipt.state,
      errorCode: receipt.errorCode,
      updatedAt: now,
      ...(final ? { fallback: null } : {}),
      ...(fallback ? { fellBackAt: now } : {}),
    })
    // Checked again in the statement: the row lock makes it moot, but it states the rule.
    .where(and(where, sql`${rankSql} < ${DELIVERY_STATE_RANK[receipt.state]}`));
  return { kind: 'moved', state: receipt.state, fallback };
}

/** What the code page is told of a login code's SMS (CODE_DELIVERY_STATES). */
export async function codeDelivery(db: Database, ref: string): Promise<CodeDeliveryState> {
  const [row] = await db
    .select({ state: messageDeliveries.state })
    .from(messageDeliveries)
    .where(eq(messageDeliveries.ref, ref))
    .orderBy(desc(messageDeliveries.id))
    .limit(1);
  if (!row) return 'pending';
  return row.state === 'undelivered' || row.state === 'failed' ? 'not_delivered' : row.state;
}
