import { messageKindSchema } from '@marpe/shared';
import { z } from 'zod';
import type { Database, Executor } from '../../platform/db/client.js';
import type { MessagingChannel } from '../../platform/db/schema.js';
import type { OutboxHandler } from '../../platform/outbox/outbox.js';
import { findClinicWhatsApp, findSendingCredentials } from '../whatsapp/whatsapp-repository.js';
import type { SmsProvider } from './sms-provider.js';
import type { WhatsAppProvider } from './whatsapp-provider.js';
import type { SealingKey } from '../../platform/crypto.js';

export const WHATSAPP_TOPIC = 'whatsapp';

export const whatsappPayloadSchema = z.object({
  clinicId: z.number().int(),
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: z.string(),
  body: z.string(),
  /** What it is for (kept if it fails, for the clinic's owners); absent on older rows. */
  kind: messageKindSchema.optional(),
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

/**
 * The outbox handler of the 'whatsapp' topic. The token is read and decrypted at send time, so
 * a reconnected number is used at once; a clinic disconnected since the message was queued gets
 * it sent by SMS instead, since the patient is waiting for it.
 */
export function whatsappHandler(deps: {
  db: Database;
  tokenKey: SealingKey;
  whatsapp: WhatsAppProvider;
  sms: SmsProvider;
}): OutboxHandler {
  return async (payload) => {
    const { clinicId, to, body } = whatsappPayloadSchema.parse(payload);
    const credentials = await findSendingCredentials(deps.db, deps.tokenKey, clinicId);
    if (!credentials) return deps.sms.send({ to, body });
    await deps.whatsapp.send({ ...credentials, to, body });
  };
}
