import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { audit, type AuditEntry } from '../../platform/audit.js';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  calendarConnectionLinks,
  calendarConnections,
  calendarEvents,
  calendarSyncs,
  caregivers,
  clinics,
} from '../../platform/db/schema.js';

export type ConnectionLinkRow = typeof calendarConnectionLinks.$inferSelect;
export type ConnectionRow = typeof calendarConnections.$inferSelect;

/** A sync's push channel, to be stopped with Google once the sync is gone. */
export interface StaleChannel {
  channelId: string;
  resourceId: string;
  calendarId: string;
}

/** Drops a caregiver's sync and mirror; returns its push channel, if one was open. */
async function dropSync(tx: Executor, caregiverId: number): Promise<StaleChannel | null> {
  const [sync] = await tx
    .delete(calendarSyncs)
    .where(eq(calendarSyncs.caregiverId, caregiverId))
    .returning();
  await tx.delete(calendarEvents).where(eq(calendarEvents.caregiverId, caregiverId));
  return sync?.channelId && sync.channelResourceId
    ? { channelId: sync.channelId, resourceId: sync.channelResourceId, calendarId: sync.calendarId }
    : null;
}

export function createCalendarConnectionsRepository(db: Database) {
  return {
    db,

    /** A new link for the caregiver; the older ones still open end now (a new link voids them). */
    async createLink(values: typeof calendarConnectionLinks.$inferInsert, entry: AuditEntry) {
      await db.transaction(async (tx) => {
        await audit(tx, entry);
        await tx
          .update(calendarConnectionLinks)
          .set({ expiresAt: values.createdAt })
          .where(
            and(
              eq(calendarConnectionLinks.caregiverId, values.caregiverId),
              isNull(calendarConnectionLinks.usedAt),
              gt(calendarConnectionLinks.expiresAt, values.createdAt),
            ),
          );
        await tx.insert(calendarConnectionLinks).values(values);
      });
    },

    /** A link with the names its pages show. */
    async findLink(where: { tokenHash: string } | { stateHash: string }) {
      const [row] = await db
        .select({
          link: calendarConnectionLinks,
          clinicName: clinics.name,
          caregiverName: caregivers.name,
        })
        .from(calendarConnectionLinks)
        .innerJoin(clinics, eq(clinics.id, calendarConnectionLinks.clinicId))
        .innerJoin(caregivers, eq(caregivers.id, calendarConnectionLinks.caregiverId))
        .where(
          'tokenHash' in where
            ? eq(calendarConnectionLinks.tokenHash, where.tokenHash)
            : eq(calendarConnectionLinks.stateHash, where.stateHash),
        );
      return row ?? null;
    },

    async updateLink(id: number, values: Partial<Omit<ConnectionLinkRow, 'id'>>) {
      await db
        .update(calendarConnectionLinks)
        .set(values)
        .where(and(eq(calendarConnectionLinks.id, id), isNull(calendarConnectionLinks.usedAt)));
    },

    /** The connection that holds this calendar (ids compared case-blind), if any. */
    async findConnectionByCalendar(calendarId: string) {
      const [row] = await db
        .select()
        .from(calendarConnections)
        .where(sql`lower(${calendarConnections.calendarId}) = lower(${calendarId})`);
      return row ?? null;
    },

    async findConnection(caregiverId: number) {
      const [row] = await db
        .select()
        .from(calendarConnections)
        .where(eq(calendarConnections.caregiverId, caregiverId));
      return row ?? null;
    },

    async updateRefreshToken(caregiverId: number, refreshToken: string) {
      await db
        .update(calendarConnections)
        .set({ refreshToken })
        .where(eq(calendarConnections.caregiverId, caregiverId));
    },

    /**
     * Whether another caregiver, of any clinic, holds this calendar: by its id typed for the
     * service account or by a connection (ids compared case-blind).
     */
    async calendarHeld(ex: Executor, calendarId: string, caregiverId: number) {
      const [typed] = await ex
        .select({ id: caregivers.id })
        .from(caregivers)
        .where(
          and(
            sql`lower(${caregivers.googleCalendarSyncCalendarId}) = lower(${calendarId})`,
            ne(caregivers.id, caregiverId),
          ),
        )
        .limit(1);
      const [connected] = await ex
        .select({ id: calendarConnections.caregiverId })
        .from(calendarConnections)
        .where(
          and(
            sql`lower(${calendarConnections.calendarId}) = lower(${calendarId})`,
            ne(calendarConnections.caregiverId, caregiverId),
          ),
        )
        .limit(1);
      return typed !== undefined || connected !== undefined;
    },

    /**
     * The caregiver's calendar becomes this connection's, in one transaction with the link used:
     * the calendar id is set, and the old sync goes, so the worker starts a fresh one (`pending`,
     * due now). 'held': another caregiver has the calendar; 'used': the link was used meanwhile.
     */
    async connect(
      link: ConnectionLinkRow,
      connection: typeof calendarConnections.$inferInsert,
      entry: AuditEntry,
    ): Promise<{ outcome: 'connected' | 'held' | 'used'; stale: StaleChannel | null }> {
      return db.transaction(async (tx) => {
        if (await this.calendarHeld(tx, connection.calendarId, connection.caregiverId)) {
          return { outcome: 'held' as const, stale: null };
        }
        const [used] = await tx
          .update(calendarConnectionLinks)
          .set({
            usedAt: connection.connectedAt,
            refreshToken: null,
            accessToken: null,
            codeVerifier: null,
            stateHash: null,
          })
          .where(
            and(eq(calendarConnectionLinks.id, link.id), isNull(calendarConnectionLinks.usedAt)),
          )
          .returning({ id: calendarConnectionLinks.id });
        if (!used) return { outcome: 'used' as const, stale: null };
        await tx
          .insert(calendarConnections)
          .values(connection)
          .onConflictDoUpdate({ target: calendarConnections.caregiverId, set: connection });
        await tx
          .update(caregivers)
          .set({ googleCalendarSyncCalendarId: connection.calendarId })
          .where(eq(caregivers.id, connection.caregiverId));
        await audit(tx, entry);
        return { outcome: 'connected' as const, stale: await dropSync(tx, connection.caregiverId) };
      });
    },

    /**
     * Forgets the caregiver's calendar: its connection and links, its calendar id, its sync and
     * mirror. Returns the connection that was (to revoke) and the push channel (to stop).
     */
    async disconnect(caregiverId: number, entry: AuditEntry) {
      return db.transaction(async (tx) => {
        await audit(tx, entry);
        const [connection] = await tx
          .delete(calendarConnections)
          .where(eq(calendarConnections.caregiverId, caregiverId))
          .returning();
        await tx
          .delete(calendarConnectionLinks)
          .where(eq(calendarConnectionLinks.caregiverId, caregiverId));
        await tx
          .update(caregivers)
          .set({ googleCalendarSyncCalendarId: null })
          .where(eq(caregivers.id, caregiverId));
        return { connection: connection ?? null, stale: await dropSync(tx, caregiverId) };
      });
    },

    /** The sync's channel, for a disconnect to stop while the connection's token still works. */
    async findSync(caregiverId: number) {
      const [row] = await db
        .select()
        .from(calendarSyncs)
        .where(eq(calendarSyncs.caregiverId, caregiverId));
      return row ?? null;
    },
  };
}

export type CalendarConnectionsRepository = ReturnType<typeof createCalendarConnectionsRepository>;
