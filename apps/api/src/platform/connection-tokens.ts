import { and, eq, gt, isNull } from 'drizzle-orm';
import { randomToken, sha256Hex } from './crypto.js';
import type { Executor } from './db/client.js';
import { connectionTokens, type ConnectionPurpose } from './db/schema.js';

// The single-use, expiring tokens that let a browser finish a connection a clinic's software
// started: the WhatsApp page's `clientId` and the Tax Authority's OAuth `state`. Only their
// SHA-256 is stored; they carry 256 random bits, so nobody attaches an account to a clinic by
// guessing.

export interface IssuedConnectionToken {
  token: string;
  expiresAt: Date;
}

export interface LiveConnectionToken {
  clinicId: number;
  returnUrl: string | null;
}

export async function issueConnectionToken(
  executor: Executor,
  entry: {
    clinicId: number;
    purpose: ConnectionPurpose;
    returnUrl?: string;
    createdAt: Date;
    ttlMs: number;
  },
): Promise<IssuedConnectionToken> {
  const token = randomToken();
  const expiresAt = new Date(entry.createdAt.getTime() + entry.ttlMs);
  await executor.insert(connectionTokens).values({
    clinicId: entry.clinicId,
    purpose: entry.purpose,
    tokenHash: sha256Hex(token),
    returnUrl: entry.returnUrl ?? null,
    createdAt: entry.createdAt,
    expiresAt,
  });
  return { token, expiresAt };
}

const live = (purpose: ConnectionPurpose, token: string, now: Date) =>
  and(
    eq(connectionTokens.tokenHash, sha256Hex(token)),
    eq(connectionTokens.purpose, purpose),
    isNull(connectionTokens.usedAt),
    gt(connectionTokens.expiresAt, now),
  );

/** The token's clinic while it is unused and unexpired; null otherwise. */
export async function findLiveConnectionToken(
  executor: Executor,
  purpose: ConnectionPurpose,
  token: string,
  now: Date,
): Promise<LiveConnectionToken | null> {
  const [row] = await executor
    .select({ clinicId: connectionTokens.clinicId, returnUrl: connectionTokens.returnUrl })
    .from(connectionTokens)
    .where(live(purpose, token, now));
  return row ?? null;
}

/**
 * Marks the token used if it still is live: false when another request used it first (or it
 * expired meanwhile), so exactly one completion wins.
 */
export async function useConnectionToken(
  executor: Executor,
  purpose: ConnectionPurpose,
  token: string,
  now: Date,
): Promise<boolean> {
  const used = await executor
    .update(connectionTokens)
    .set({ usedAt: now })
    .where(live(purpose, token, now))
    .returning({ id: connectionTokens.id });
  return used.length > 0;
}
