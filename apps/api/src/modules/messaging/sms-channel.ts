import { messageKindSchema, type MessageKind } from '@marpe/shared';
import { z } from 'zod';
import type { SealingKey } from '../../platform/crypto.js';
import type { Database, Executor } from '../../platform/db/client.js';
import type { OutboxHandler } from '../../platform/outbox/outbox-contract.js';
import { recordAccepted, recordRefused, type DeliveryFacts } from './deliveries.js';
import { SmsRefused, type SmsProvider } from './sms-provider.js';
import { usesWhatsApp, type WhatsAppPayload } from './whatsapp-channel.js';

export const smsPayloadSchema = z.object({
  to: z.string(),
  body: z.string(),
  kind: messageKindSchema.optional(),
  /** The clinic it is sent for (its WhatsApp is the fallback); absent on older rows. */
  clinicId: z.number().int().optional(),
  /** A login code's challenge (token hash): the code page asks for its delivery by it. */
  ref: z.string().optional(),
  /** Already a fallback for a WhatsApp message: never handed to WhatsApp again. */
  fallback: z.boolean().optional(),
});
export type SmsPayload = z.infer<typeof smsPayloadSchema>;

export interface SmsChannelDeps {
  db: Database;
  /** The outbox's sealing key: seals the fallback copy kept while the SMS's fate is unknown. */
  key: SealingKey;
  sms: SmsProvider;
  clock: () => number;
  /** Queues a WhatsApp message in the caller's transaction. */
  enqueueWhatsApp(executor: Executor, payload: WhatsAppPayload): Promise<void>;
  kick(): void;
}

/**
 * Whether an SMS that did not arrive goes on by WhatsApp: a clinic's message (never a login code,
 * which the browser reads from the SMS, nor a message that is already a fallback) of a clinic
 * whose WhatsApp number is connected.
 */
async function fallsBackToWhatsApp(db: Database, message: SmsPayload): Promise<boolean> {
  if (message.fallback || message.clinicId === undefined) return false;
  if ((message.kind ?? 'other') === 'login_code') return false;
  return usesWhatsApp(db, message.clinicId, 'whatsapp');
}

/**
 * Sends one SMS and records what the provider said of it (message_deliveries), for the providers
 * that report delivery. A permanent refusal (an invalid or unsubscribed number) is recorded as
 * failed and, where the fallback rule allows, the message is queued by WhatsApp instead (the row
 * is then done); otherwise the error goes to the outbox, which gives a permanent one up at once.
 */
export function createSmsSender(deps: SmsChannelDeps) {
  const { db, key, sms, clock } = deps;
  return async function sendSms(message: SmsPayload, outboxId: number): Promise<void> {
    const kind: MessageKind = message.kind ?? 'other';
    const facts: DeliveryFacts = {
      outboxId,
      clinicId: message.clinicId ?? null,
      kind,
      ref: message.ref ?? null,
    };
    const fallback = await fallsBackToWhatsApp(db, message);
    let accepted;
    try {
      accepted = await sms.send({ to: message.to, body: message.body });
    } catch (error) {
      if (!(error instanceof SmsRefused && error.permanent)) throw error;
      await db.transaction(async (tx) => {
        if (fallback && message.clinicId !== undefined) {
          await deps.enqueueWhatsApp(tx, {
            clinicId: message.clinicId,
            to: message.to,
            body: message.body,
            kind,
            fallback: true,
          });
        }
        await recordRefused(tx, error.provider, error.code, facts, new Date(clock()), fallback);
      });
      if (!fallback) throw error;
      deps.kick();
      return;
    }
    if (!accepted) return;
    await recordAccepted(
      db,
      key,
      accepted,
      facts,
      new Date(clock()),
      fallback && message.clinicId !== undefined
        ? { clinicId: message.clinicId, to: message.to, body: message.body, kind }
        : null,
    );
  };
}

/** The outbox handler of the 'sms' topic. */
export function smsHandler(sendSms: ReturnType<typeof createSmsSender>): OutboxHandler {
  return async (payload, attempt) => sendSms(smsPayloadSchema.parse(payload), attempt.id);
}
