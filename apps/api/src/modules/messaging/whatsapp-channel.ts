import { messageKindSchema, type MessageKind } from '@marpe/shared';
import { z } from 'zod';
import type { Database, Executor } from '../../platform/db/client.js';
import type { MessagingChannel } from '../../platform/db/schema.js';
import type { OutboxHandler } from '../../platform/outbox/outbox-contract.js';
import { findClinicWhatsApp, findSendingCredentials } from './whatsapp-connections.js';
import { WhatsAppRefused, type WhatsAppProvider } from './whatsapp-provider.js';
import type { SealingKey } from '../../platform/crypto.js';

export const WHATSAPP_TOPIC = 'whatsapp';

export const whatsappPayloadSchema = z.object({
  clinicId: z.number().int(),
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: z.string(),
  body: z.string(),
  /** What it is for (kept if it fails, for the clinic's owners); absent on older rows. */
  kind: messageKindSchema.optional(),
  /** Already a fallback for an SMS that did not arrive: never sent by SMS again. */
  fallback: z.boolean().optional(),
});
export type WhatsAppPayload = z.infer<typeof whatsappPayloadSchema>;

/**
 * Whether a message of the clinic goes by WhatsApp: the channel asked for (the clinic's
 * `messaging_channel` unless the caller names one) is WhatsApp, and its number is connected.
 */
export async function usesWhatsApp(
  executor: Executor,
  clinicId: number,
  channel?: MessagingChannel,
): Promise<boolean> {
  if (channel === 'sms') return false;
  const found = await findClinicWhatsApp(executor, clinicId);
  return (channel ?? found?.messagingChannel) === 'whatsapp' && found?.connection != null;
}

/** A message the WhatsApp channel hands to SMS: never handed back (`fallback`). */
export interface SmsFallback {
  clinicId: number;
  to: string;
  body: string;
  kind: MessageKind;
  fallback: true;
}

/**
 * The outbox handler of the 'whatsapp' topic. The token is read and decrypted at send time, so
 * a reconnected number is used at once. The fallback rule (docs/operations.md, "Messaging"):
 * a clinic disconnected since the message was queued gets it sent by SMS at once; a message Meta
 * refuses (a 4xx other than 429: a number not on WhatsApp, a closed conversation window, a
 * revoked token) or that is given up after 48 hours of failures is queued once by SMS. A message
 * that is itself an SMS's fallback never goes back to SMS: it fails instead.
 */
export function whatsappHandler(deps: {
  db: Database;
  tokenKey: SealingKey;
  whatsapp: WhatsAppProvider;
  /** Sends by SMS now, in this row's try (its delivery recorded under this row's id). */
  sendSms(message: SmsFallback, outboxId: number): Promise<void>;
  /** Queues the message by SMS as a row of its own, and sends it soon. */
  queueSms(message: SmsFallback): Promise<void>;
}): OutboxHandler {
  return async (payload, attempt) => {
    const { clinicId, to, body, kind = 'other', fallback } = whatsappPayloadSchema.parse(payload);
    const bySms: SmsFallback = { clinicId, to, body, kind, fallback: true };
    const credentials = await findSendingCredentials(deps.db, deps.tokenKey, clinicId);
    if (!credentials) {
      if (fallback) throw givenUp("The clinic's WhatsApp number is no longer connected");
      return deps.sendSms(bySms, attempt.id);
    }
    try {
      await deps.whatsapp.send({ ...credentials, to, body });
    } catch (error) {
      const refused =
        error instanceof WhatsAppRefused &&
        error.status >= 400 &&
        error.status < 500 &&
        error.status !== 429;
      if (fallback || !(refused || attempt.isLast)) throw error;
      await deps.queueSms(bySms);
    }
  };
}

/** An error the outbox gives the row up for at once (no 48 hours of retries). */
function givenUp(message: string): Error {
  return Object.assign(new Error(message), { permanent: true });
}
