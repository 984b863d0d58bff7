import { audit, type AuditEntry } from '../../platform/audit.js';
import type { Executor, Transaction } from '../../platform/db/client.js';
import { AppError, invalidField } from '../../platform/errors.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { ClinicDataCache } from './clinic-data-cache.js';
import type { ClinicRepository, ClinicRow } from './setup-repository.js';

/** What the clinic-setup use cases are built from; setup-service.ts composes them. */
export interface ClinicServiceDeps {
  repository: ClinicRepository;
  /** New hours, rules or types may open times that waiting patients are offered. */
  waitlist: Pick<WaitlistService, 'queueOffers' | 'kick'>;
  /** Reminders are planned in the clinic's zone: a new zone re-plans the waiting ones. */
  reminders: Pick<Reminders, 'replanClinic'>;
  /** The public clinic page shows caregivers, hours, types and settings. */
  cache: Pick<ClinicDataCache, 'invalidate'>;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Whether the operator opened the server's Google service account to this clinic. */
  calendarSyncAllowed: (clinicId: number) => boolean;
}

/** The zone's canonical name ('asia/jerusalem' → 'Asia/Jerusalem'), which every library knows. */
export function canonicalTimeZone(timezone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
}

/** The steps every setup change shares: the clinic read or locked, ids checked, the change audited. */
export function createSetupSteps({
  repository,
  cache,
}: Pick<ClinicServiceDeps, 'repository' | 'cache'>) {
  const { db } = repository;

  async function clinicOf(ex: Executor, clinicId: number): Promise<ClinicRow> {
    const clinic = await repository.findClinic(ex, clinicId);
    // The key's clinic exists while the key does (ON DELETE CASCADE); a deleted one is a 404.
    if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
    return clinic;
  }

  /** Every write of a clinic takes this first: one at a time, always locking in one order. */
  async function lockClinic(tx: Transaction, clinicId: number): Promise<ClinicRow> {
    const clinic = await repository.lockClinic(tx, clinicId);
    if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
    return clinic;
  }

  /** 400 naming `field` unless every id is one of the clinic's caregivers (or types). */
  async function checkIds(
    tx: Executor,
    clinicId: number,
    ids: readonly number[],
    kind: 'caregiver' | 'appointment type',
    field: string,
  ): Promise<void> {
    const found =
      kind === 'caregiver'
        ? await repository.findClinicCaregiverIds(tx, clinicId, ids)
        : await repository.findClinicTypeIds(tx, clinicId, ids);
    const index = ids.findIndex((id) => !found.has(id));
    if (index >= 0) {
      throw invalidField(`${field}.${index}`, `No ${kind} ${ids[index]} in this clinic`);
    }
  }

  /**
   * One change of the clinic's setup, in one transaction: the clinic locked first, then `change`
   * (which writes its audit entry through `audited`); after the commit the clinic's cached public
   * page is dropped.
   */
  async function changeSetup<T>(
    clinicId: number,
    change: (tx: Transaction, clinic: ClinicRow) => Promise<T>,
  ): Promise<T> {
    const result = await db.transaction(async (tx) => change(tx, await lockClinic(tx, clinicId)));
    cache.invalidate(clinicId);
    return result;
  }

  /** The audit entry of a setup change `clinicActor` made at `now`. */
  function audited(
    tx: Executor,
    clinicActor: ClinicActor,
    now: number,
    entry: Omit<AuditEntry, 'clinicId' | 'actor' | 'at'>,
  ): Promise<void> {
    return audit(tx, {
      clinicId: clinicActor.clinicId,
      actor: clinicActor.actor,
      ...entry,
      at: new Date(now),
    });
  }

  return { clinicOf, lockClinic, checkIds, changeSetup, audited };
}
