import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../platform/db/client.js';

/** Triggers of drizzle/0003 NOTIFY this with a clinic id, or '*' for every clinic (TRUNCATE). */
export const CLINIC_CHANGED_CHANNEL = 'marpe_clinic_changed';

/** An answer is never kept longer than this, whatever else. */
export const CLINIC_DATA_MAX_AGE_MS = 60_000;

/** Bounds memory with many clinics; the oldest entry goes first. */
const MAX_ENTRIES = 1000;

/**
 * The serialised answers of GET /api/clinic/:id, per clinic. It stays right by three means:
 * writes of this process call `invalidate` synchronously; writes from anywhere else arrive as
 * notifications (see `registerClinicDataCache`); and each entry expires when the clock alone could
 * change it (its `expiresAt`), at most after CLINIC_DATA_MAX_AGE_MS.
 */
export interface ClinicDataCache {
  /** The cached JSON while valid, else undefined. */
  get(clinicId: number): string | undefined;
  /** Taken before reading the data of an answer; `set` keeps the answer only if unchanged since. */
  version(clinicId: number): string;
  set(clinicId: number, version: string, json: string, expiresAt: number): void;
  /** Drops the clinic's answer. Call it after committing any write that changes the answer. */
  invalidate(clinicId: number): void;
  invalidateAll(): void;
  /** Off while change notifications may be missed (not listening): nothing is kept. */
  setEnabled(enabled: boolean): void;
  readonly enabled: boolean;
}

export function createClinicDataCache({ clock }: { clock: () => number }): ClinicDataCache {
  const entries = new Map<number, { json: string; expiresAt: number }>();
  // Bumped by each invalidation: a computation that read the database before a write must not
  // store its (stale) answer after the write's invalidation.
  const versions = new Map<number, number>();
  let allVersion = 0;
  let enabled = false;

  const version = (clinicId: number) => `${allVersion}.${versions.get(clinicId) ?? 0}`;
  const invalidateAll = () => {
    entries.clear();
    versions.clear();
    allVersion += 1;
  };

  return {
    get(clinicId) {
      const entry = entries.get(clinicId);
      if (!entry) return undefined;
      if (clock() < entry.expiresAt) return entry.json;
      entries.delete(clinicId);
      return undefined;
    },
    version,
    set(clinicId, taken, json, expiresAt) {
      if (!enabled || taken !== version(clinicId)) return;
      entries.delete(clinicId);
      if (entries.size >= MAX_ENTRIES) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(clinicId, {
        json,
        expiresAt: Math.min(expiresAt, clock() + CLINIC_DATA_MAX_AGE_MS),
      });
    },
    invalidate(clinicId) {
      entries.delete(clinicId);
      versions.set(clinicId, (versions.get(clinicId) ?? 0) + 1);
    },
    invalidateAll,
    setEnabled(value) {
      enabled = value;
      invalidateAll();
    },
    get enabled() {
      return enabled;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Other modules call `app.clinicDataCache.invalidate(clinicId)` after writing. */
    clinicDataCache: ClinicDataCache;
  }
}

/**
 * Creates the app's cache, exposes it as `app.clinicDataCache`, and keeps it in step with the
 * database's change notifications from `ready` to `close`. Until LISTEN is in force, and whenever
 * the notification connection is down, the cache is off.
 */
export function registerClinicDataCache(
  app: FastifyInstance,
  { database, clock }: { database: Pick<DatabaseHandle, 'listen'>; clock: () => number },
): ClinicDataCache {
  const cache = createClinicDataCache({ clock });
  app.decorate('clinicDataCache', cache);

  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = await database.listen(CLINIC_CHANGED_CHANNEL, {
      onNotification: (payload) => {
        const clinicId = Number(payload);
        if (payload !== '' && Number.isInteger(clinicId)) cache.invalidate(clinicId);
        else cache.invalidateAll();
      },
      onListeningChange: (listening) => {
        cache.setEnabled(listening);
        if (!listening) app.log.warn('clinic data cache off: database notifications interrupted');
        else app.log.debug('clinic data cache on: listening for database changes');
      },
    });
  });
  app.addHook('onClose', async () => {
    cache.setEnabled(false);
    await stop?.().catch((error: unknown) => {
      app.log.debug({ err: error }, 'stopping the clinic change listener');
    });
  });
  return cache;
}
