import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type {
  BusyTimesBody,
  BusyTimesQuery,
  BusyTimesResult,
  BusyTimeView,
  ClinicBusyTime,
  ClinicBusyTimesQuery,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { requireClinicCaregiver } from '../../platform/clinic-caregiver.js';
import type { Database } from '../../platform/db/client.js';
import {
  calendarEvents,
  caregiverBusyTimes,
  caregivers,
  clinics,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { formatZonedIso } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import { lockCaregiverDiary, mirrorBusy } from './availability-repository.js';
import type { FreedTimeOffers } from './freed-time.js';

/** Rows per INSERT: 5 parameters a row stays far below PostgreSQL's 65,535. */
const WRITE_CHUNK = 1000;

export interface BusyTimesDeps {
  db: Database;
  /** Removed or moved busy times may free slots that waiting patients are offered. */
  waitlist: FreedTimeOffers;
  /** The clinic page's first available slots change with them (clinics/clinic-data-cache.ts). */
  cache: { invalidate(clinicId: number): void };
  clock: () => number;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * The clinic's own busy times per caregiver (ADR 028), written a window at a time by its
 * practice-management system. They block slots through `listBusy` and bookings through
 * `overlapsExternalBusy` (availability-repository).
 */
export function createBusyTimes({ db, waitlist, cache, clock }: BusyTimesDeps) {
  const overlapping = (caregiverId: number, from: Date, to: Date) =>
    and(
      eq(caregiverBusyTimes.caregiverId, caregiverId),
      gt(caregiverBusyTimes.endAt, from),
      lt(caregiverBusyTimes.startAt, to),
    );

  return {
    /**
     * Replaces the caregiver's busy times overlapping [from, to) by `items`, in one transaction:
     * items absent are removed, the others inserted or updated by external_id (an item stored
     * outside the window is moved into it). The same call twice changes nothing the second time.
     */
    async replace(
      clinicActor: ClinicActor,
      caregiverId: number,
      body: BusyTimesBody,
    ): Promise<BusyTimesResult> {
      const from = new Date(Date.parse(body.from));
      const to = new Date(Date.parse(body.to));
      const items = body.items.map((item) => ({
        externalId: item.external_id,
        startAt: new Date(Date.parse(item.start)),
        endAt: new Date(Date.parse(item.end)),
        label: item.label ?? null,
      }));

      const result = await db.transaction(async (tx) => {
        const caregiver = await requireClinicCaregiver(tx, clinicActor.clinicId, caregiverId);
        await lockCaregiverDiary(tx, caregiver.id);

        const externalIds = items.map((item) => item.externalId);
        const existing = await tx
          .select({
            id: caregiverBusyTimes.id,
            externalId: caregiverBusyTimes.externalId,
            startAt: caregiverBusyTimes.startAt,
            endAt: caregiverBusyTimes.endAt,
            label: caregiverBusyTimes.label,
          })
          .from(caregiverBusyTimes)
          .where(
            and(
              eq(caregiverBusyTimes.caregiverId, caregiver.id),
              or(
                and(gt(caregiverBusyTimes.endAt, from), lt(caregiverBusyTimes.startAt, to)),
                externalIds.length > 0
                  ? inArray(caregiverBusyTimes.externalId, externalIds)
                  : undefined,
              ),
            ),
          );
        const stored = new Map(existing.map((row) => [row.externalId, row]));
        const kept = new Set(externalIds);
        const removed = existing.filter(
          (row) => !kept.has(row.externalId) && row.endAt > from && row.startAt < to,
        );
        let created = 0;
        let updated = 0;
        const writes = items.filter((item) => {
          const row = stored.get(item.externalId);
          if (!row) {
            created += 1;
            return true;
          }
          const same =
            row.startAt.getTime() === item.startAt.getTime() &&
            row.endAt.getTime() === item.endAt.getTime() &&
            row.label === item.label;
          if (!same) updated += 1;
          return !same;
        });

        for (const ids of chunks(
          removed.map((row) => row.id),
          WRITE_CHUNK,
        )) {
          await tx.delete(caregiverBusyTimes).where(inArray(caregiverBusyTimes.id, ids));
        }
        const now = new Date(clock());
        for (const rows of chunks(writes, WRITE_CHUNK)) {
          await tx
            .insert(caregiverBusyTimes)
            .values(rows.map((row) => ({ ...row, caregiverId: caregiver.id, updatedAt: now })))
            .onConflictDoUpdate({
              target: [caregiverBusyTimes.caregiverId, caregiverBusyTimes.externalId],
              set: {
                startAt: sql`excluded.start_at`,
                endAt: sql`excluded.end_at`,
                label: sql`excluded.label`,
                updatedAt: now,
              },
            });
        }
        const changed = created + updated + removed.length > 0;
        // A busy time gone or moved may free a time someone is waiting for.
        if (updated + removed.length > 0) {
          await waitlist.queueOffers(tx, {
            clinicId: clinicActor.clinicId,
            caregiverId: caregiver.id,
          });
        }
        if (changed) {
          await audit(tx, {
            clinicId: clinicActor.clinicId,
            actor: clinicActor.actor,
            action: 'busy_times.replace',
            targetType: 'caregiver',
            targetId: caregiver.id,
            details: {
              from: from.toISOString(),
              to: to.toISOString(),
              created,
              updated,
              removed: removed.length,
            },
            at: now,
          });
        }
        return {
          changed,
          view: {
            caregiver_id: caregiver.id,
            from: formatZonedIso(from.getTime(), caregiver.timezone),
            to: formatZonedIso(to.getTime(), caregiver.timezone),
            count: items.length,
            created,
            updated,
            removed: removed.length,
          },
        };
      });
      if (result.changed) {
        cache.invalidate(clinicActor.clinicId);
        waitlist.kick();
      }
      return result.view;
    },

    /**
     * Every busy time of the clinic's caregivers (or of one) overlapping [from, to), from both
     * sources: the pushed ones (with their labels) and the busy events of the caregivers' synced
     * calendars (the mirror keeps no titles; Marpe's own events are its appointments, left out),
     * by start. Bounded by the window (31 days) and the clinic's caregivers, on the same window
     * indexes availability reads.
     */
    async listForClinic(clinicId: number, query: ClinicBusyTimesQuery): Promise<ClinicBusyTime[]> {
      const [clinic] = await db
        .select({ timezone: clinics.timezone })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
      let ids: number[];
      if (query.caregiver_id !== undefined) {
        const caregiver = await requireClinicCaregiver(db, clinicId, query.caregiver_id);
        ids = [caregiver.id];
      } else {
        const rows = await db
          .select({ id: caregivers.id })
          .from(caregivers)
          .where(eq(caregivers.clinicId, clinicId));
        ids = rows.map((row) => row.id);
      }
      if (ids.length === 0) return [];
      const from = new Date(Date.parse(query.from));
      const to = new Date(Date.parse(query.to));
      const [pushed, mirrored] = await Promise.all([
        db
          .select({
            caregiverId: caregiverBusyTimes.caregiverId,
            startAt: caregiverBusyTimes.startAt,
            endAt: caregiverBusyTimes.endAt,
            label: caregiverBusyTimes.label,
          })
          .from(caregiverBusyTimes)
          .where(
            and(
              inArray(caregiverBusyTimes.caregiverId, ids),
              gt(caregiverBusyTimes.endAt, from),
              lt(caregiverBusyTimes.startAt, to),
            ),
          ),
        db
          .select({
            caregiverId: calendarEvents.caregiverId,
            startAt: calendarEvents.startAt,
            endAt: calendarEvents.endAt,
          })
          .from(calendarEvents)
          .where(mirrorBusy(ids, from, to)),
      ]);
      const items = [
        ...pushed.map((row) => ({ ...row, source: 'api' as const })),
        ...mirrored.map((row) => ({ ...row, label: null, source: 'calendar' as const })),
      ].sort(
        (a, b) =>
          a.startAt.getTime() - b.startAt.getTime() ||
          a.caregiverId - b.caregiverId ||
          a.endAt.getTime() - b.endAt.getTime(),
      );
      return items.map((item) => ({
        caregiver_id: item.caregiverId,
        start: formatZonedIso(item.startAt.getTime(), clinic.timezone),
        end: formatZonedIso(item.endAt.getTime(), clinic.timezone),
        source: item.source,
        label: item.label,
      }));
    },

    /** The caregiver's stored busy times overlapping [from, to), by start. */
    async list(
      clinicId: number,
      caregiverId: number,
      query: BusyTimesQuery,
    ): Promise<BusyTimeView[]> {
      const caregiver = await requireClinicCaregiver(db, clinicId, caregiverId);
      const rows = await db
        .select({
          externalId: caregiverBusyTimes.externalId,
          startAt: caregiverBusyTimes.startAt,
          endAt: caregiverBusyTimes.endAt,
          label: caregiverBusyTimes.label,
        })
        .from(caregiverBusyTimes)
        .where(
          overlapping(
            caregiver.id,
            new Date(Date.parse(query.from)),
            new Date(Date.parse(query.to)),
          ),
        )
        .orderBy(asc(caregiverBusyTimes.startAt), asc(caregiverBusyTimes.externalId));
      return rows.map((row) => ({
        external_id: row.externalId,
        start: formatZonedIso(row.startAt.getTime(), caregiver.timezone),
        end: formatZonedIso(row.endAt.getTime(), caregiver.timezone),
        label: row.label,
      }));
    },
  };
}

export type BusyTimes = ReturnType<typeof createBusyTimes>;
