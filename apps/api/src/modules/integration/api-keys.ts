import { and, eq, isNull } from 'drizzle-orm';
import { audit } from '../../platform/audit.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { apiKeys, clinics, isStoredId } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

/** Keys look like `mrp_<43 base64url characters>` (256 random bits); the prefix makes them greppable in leaks. */
export const API_KEY_PREFIX = 'mrp_';
/** How much of a key is kept in clear to tell keys apart. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export interface CreatedApiKey {
  id: number;
  clinicId: number;
  name: string;
  /** Shown once, never stored. */
  key: string;
  prefix: string;
  createdAt: Date;
}

/** What a live key verifies to: the key (not yet a caller: integration-auth makes it one). */
export interface VerifiedApiKey {
  keyId: number;
  clinicId: number;
  /** SHA-256 of the key: names it (per-key limits) without holding it. */
  keyHash: string;
}

export function createApiKeys(deps: { db: Database; clock: () => number }) {
  const { db, clock } = deps;
  return {
    /** A new key for the clinic; the clear key is in the answer only. */
    async create(clinicId: number, name: string, actor: string): Promise<CreatedApiKey> {
      const label = name.trim();
      if (label === '' || label.length > 100) {
        throw new AppError('bad_request', 400, 'name: 1 to 100 characters');
      }
      const key = `${API_KEY_PREFIX}${randomToken()}`;
      const prefix = key.slice(0, SHOWN_PREFIX_LENGTH);
      const createdAt = new Date(clock());
      return db.transaction(async (tx) => {
        const [clinic] = isStoredId(clinicId)
          ? await tx.select({ id: clinics.id }).from(clinics).where(eq(clinics.id, clinicId))
          : [];
        if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
        const [row] = await tx
          .insert(apiKeys)
          .values({ clinicId, name: label, prefix, keyHash: sha256Hex(key), createdAt })
          .returning({ id: apiKeys.id });
        if (!row) throw new Error('api key not saved');
        await audit(tx, {
          clinicId,
          actor,
          action: 'api_key.create',
          targetType: 'api_key',
          targetId: row.id,
          details: { name: label, prefix },
          at: createdAt,
        });
        return { id: row.id, clinicId, name: label, key, prefix, createdAt };
      });
    },

    /** Revokes a key of the clinic; false when it has no such live key. */
    async revoke(clinicId: number, keyId: number, actor: string): Promise<boolean> {
      if (!isStoredId(clinicId) || !isStoredId(keyId)) return false;
      const at = new Date(clock());
      return db.transaction(async (tx) => {
        const revoked = await tx
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(
            and(eq(apiKeys.id, keyId), eq(apiKeys.clinicId, clinicId), isNull(apiKeys.revokedAt)),
          )
          .returning({ id: apiKeys.id });
        if (revoked.length === 0) return false;
        await audit(tx, {
          clinicId,
          actor,
          action: 'api_key.revoke',
          targetType: 'api_key',
          targetId: keyId,
          at,
        });
        return true;
      });
    },

    /** The clinic's keys, newest first (never the keys themselves). */
    async list(clinicId: number) {
      return db
        .select({
          id: apiKeys.id,
          name: apiKeys.name,
          prefix: apiKeys.prefix,
          createdAt: apiKeys.createdAt,
          lastUsedAt: apiKeys.lastUsedAt,
          revokedAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(eq(apiKeys.clinicId, clinicId))
        .orderBy(apiKeys.id);
    },

    /** The live key's owner, or null. Notes the use at most once a minute per key. */
    async verify(key: string): Promise<VerifiedApiKey | null> {
      if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
      const keyHash = sha256Hex(key);
      const [row] = await db
        .select({ id: apiKeys.id, clinicId: apiKeys.clinicId, lastUsedAt: apiKeys.lastUsedAt })
        .from(apiKeys)
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
      if (!row) return null;
      const now = clock();
      if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > 60_000) {
        await db
          .update(apiKeys)
          .set({ lastUsedAt: new Date(now) })
          .where(eq(apiKeys.id, row.id));
      }
      return { keyId: row.id, clinicId: row.clinicId, keyHash };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
