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
import { shaamConnections } from '../../platform/db/schema.js';

/** The key of the client secret and the tokens at rest. */
export const shaamKey = (dataKeys: DataKeys | Buffer): SealingKey => sealingKey(dataKeys, 'shaam');

/** Each secret is bound to its clinic's row and its column. */
const at = (column: string, clinicId: number) => sealedAt('shaam_connections', column, clinicId);

export interface ShaamConnectionStatus {
  clientId: string;
  connectedAt: Date | null;
  tokenExpiresAt: Date | null;
}

/** Keeps the clinic's OAuth client (secret encrypted); tokens from an earlier connection stay until replaced. */
export async function saveClient(
  executor: Executor,
  key: SealingKey,
  clinicId: number,
  client: { clientId: string; clientSecret: string },
): Promise<void> {
  const values = {
    clientId: client.clientId,
    clientSecret: encryptText(key, client.clientSecret, at('client_secret', clinicId)),
  };
  await executor
    .insert(shaamConnections)
    .values({ clinicId, ...values })
    .onConflictDoUpdate({ target: shaamConnections.clinicId, set: values });
}

/** The clinic's client id and decrypted secret; null when it never started a connection. */
export async function findClient(
  executor: Executor,
  key: SealingKey,
  clinicId: number,
): Promise<{ clientId: string; clientSecret: string } | null> {
  const [row] = await executor
    .select({ clientId: shaamConnections.clientId, clientSecret: shaamConnections.clientSecret })
    .from(shaamConnections)
    .where(eq(shaamConnections.clinicId, clinicId));
  return row
    ? {
        clientId: row.clientId,
        clientSecret: decryptText(key, row.clientSecret, at('client_secret', clinicId)),
      }
    : null;
}

export async function saveTokens(
  executor: Executor,
  key: SealingKey,
  clinicId: number,
  tokens: {
    accessToken: string;
    refreshToken: string | null;
    tokenExpiresAt: Date | null;
    connectedAt: Date;
  },
): Promise<void> {
  await executor
    .update(shaamConnections)
    .set({
      accessToken: encryptText(key, tokens.accessToken, at('access_token', clinicId)),
      refreshToken:
        tokens.refreshToken === null
          ? null
          : encryptText(key, tokens.refreshToken, at('refresh_token', clinicId)),
      tokenExpiresAt: tokens.tokenExpiresAt,
      connectedAt: tokens.connectedAt,
    })
    .where(eq(shaamConnections.clinicId, clinicId));
}

export async function findStatus(
  executor: Executor,
  clinicId: number,
): Promise<ShaamConnectionStatus | null> {
  const [row] = await executor
    .select({
      clientId: shaamConnections.clientId,
      connectedAt: shaamConnections.connectedAt,
      tokenExpiresAt: shaamConnections.tokenExpiresAt,
    })
    .from(shaamConnections)
    .where(eq(shaamConnections.clinicId, clinicId));
  return row ?? null;
}
