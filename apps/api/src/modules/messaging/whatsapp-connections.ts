import { eq } from 'drizzle-orm';
import {
  decryptText,
  encryptText,
  sealedAt,
  sealingKey,
  type DataKeys,
  type SealingKey,
} from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { clinics, whatsappConnections, type MessagingChannel } from '../../platform/db/schema.js';

// The clinics' WhatsApp connections (whatsapp_connections) and sending channel: messaging sends
// with them, the whatsapp module (above it) connects and disconnects; both through this file.

/** The key of the business tokens at rest; the messaging outbox decrypts with it at send time. */
export const whatsappTokenKey = (dataKeys: DataKeys | Buffer): SealingKey =>
  sealingKey(dataKeys, 'whatsapp');

/** A business token is bound to its clinic's row. */
const tokenAt = (clinicId: number) => sealedAt('whatsapp_connections', 'access_token', clinicId);

export interface WhatsAppConnection {
  wabaId: string;
  phoneNumberId: string;
  businessId: string;
  connectedAt: Date;
}

export interface ClinicWhatsApp {
  messagingChannel: MessagingChannel;
  connection: WhatsAppConnection | null;
}

/** The clinic's channel setting and connection; null when there is no such clinic. */
export async function findClinicWhatsApp(
  executor: Executor,
  clinicId: number,
): Promise<ClinicWhatsApp | null> {
  const [row] = await executor
    .select({
      messagingChannel: clinics.messagingChannel,
      wabaId: whatsappConnections.wabaId,
      phoneNumberId: whatsappConnections.phoneNumberId,
      businessId: whatsappConnections.businessId,
      connectedAt: whatsappConnections.connectedAt,
    })
    .from(clinics)
    .leftJoin(whatsappConnections, eq(whatsappConnections.clinicId, clinics.id))
    .where(eq(clinics.id, clinicId));
  if (!row) return null;
  const { messagingChannel, wabaId, phoneNumberId, businessId, connectedAt } = row;
  return {
    messagingChannel,
    connection:
      wabaId !== null && phoneNumberId !== null && businessId !== null && connectedAt !== null
        ? { wabaId, phoneNumberId, businessId, connectedAt }
        : null,
  };
}

/** The number and its decrypted token, to send with; null when the clinic is not connected. */
export async function findSendingCredentials(
  executor: Executor,
  key: SealingKey,
  clinicId: number,
): Promise<{ phoneNumberId: string; accessToken: string } | null> {
  const [row] = await executor
    .select({
      phoneNumberId: whatsappConnections.phoneNumberId,
      accessToken: whatsappConnections.accessToken,
    })
    .from(whatsappConnections)
    .where(eq(whatsappConnections.clinicId, clinicId));
  if (!row) return null;
  return {
    phoneNumberId: row.phoneNumberId,
    accessToken: decryptText(key, row.accessToken, tokenAt(clinicId)),
  };
}

/** Connects (or reconnects, replacing the number) the clinic; the token is stored encrypted. */
export async function saveConnection(
  executor: Executor,
  key: SealingKey,
  clinicId: number,
  connection: WhatsAppConnection & { accessToken: string },
): Promise<void> {
  const values = {
    wabaId: connection.wabaId,
    phoneNumberId: connection.phoneNumberId,
    businessId: connection.businessId,
    accessToken: encryptText(key, connection.accessToken, tokenAt(clinicId)),
    connectedAt: connection.connectedAt,
  };
  await executor
    .insert(whatsappConnections)
    .values({ clinicId, ...values })
    .onConflictDoUpdate({ target: whatsappConnections.clinicId, set: values });
}

/** false when the clinic had no connection. */
export async function deleteConnection(executor: Executor, clinicId: number): Promise<boolean> {
  const deleted = await executor
    .delete(whatsappConnections)
    .where(eq(whatsappConnections.clinicId, clinicId))
    .returning({ clinicId: whatsappConnections.clinicId });
  return deleted.length > 0;
}

export async function setMessagingChannel(
  executor: Executor,
  clinicId: number,
  channel: MessagingChannel,
): Promise<void> {
  await executor.update(clinics).set({ messagingChannel: channel }).where(eq(clinics.id, clinicId));
}
