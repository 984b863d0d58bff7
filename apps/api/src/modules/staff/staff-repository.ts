import { and, asc, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  isStoredId,
  staffAccounts,
  staffChallenges,
  staffFailures,
  staffInvitations,
  staffMemberships,
  staffPasskeyChallenges,
  staffPasskeys,
  staffSessions,
} from '../../platform/db/schema.js';
import { windowCount } from '../../platform/limits.js';

export type StaffAccountRow = typeof staffAccounts.$inferSelect;
export type StaffChallengeRow = typeof staffChallenges.$inferSelect;
export type StaffInvitationRow = typeof staffInvitations.$inferSelect;
export type StaffPasskeyRow = typeof staffPasskeys.$inferSelect;

/** Staff accounts, memberships, invitations, codes, sessions and passkeys. */
export function createStaffRepository(db: Database) {
  return {
    db,

    async findAccountByPhone(ex: Executor, phone: string) {
      const [row] = await ex.select().from(staffAccounts).where(eq(staffAccounts.phone, phone));
      return row ?? null;
    },

    async findAccount(ex: Executor, accountId: number) {
      if (!isStoredId(accountId)) return null;
      const [row] = await ex.select().from(staffAccounts).where(eq(staffAccounts.id, accountId));
      return row ?? null;
    },

    /** The account of the phone, created with this name when there is none. */
    async upsertAccount(ex: Executor, phone: string, name: string, at: Date) {
      await ex
        .insert(staffAccounts)
        .values({ phone, name, createdAt: at, updatedAt: at })
        .onConflictDoNothing({ target: staffAccounts.phone });
      const [row] = await ex.select().from(staffAccounts).where(eq(staffAccounts.phone, phone));
      if (!row) throw new Error('staff account not saved');
      return row;
    },

    /** The clinics the account works at, by clinic name. */
    async memberships(ex: Executor, accountId: number) {
      return ex
        .select({
          id: staffMemberships.id,
          clinicId: staffMemberships.clinicId,
          clinicName: clinics.name,
          role: staffMemberships.role,
        })
        .from(staffMemberships)
        .innerJoin(clinics, eq(clinics.id, staffMemberships.clinicId))
        .where(eq(staffMemberships.accountId, accountId))
        .orderBy(asc(clinics.name), asc(clinics.id));
    },

    async findMembership(ex: Executor, clinicId: number, accountId: number) {
      const [row] = await ex
        .select()
        .from(staffMemberships)
        .where(
          and(eq(staffMemberships.clinicId, clinicId), eq(staffMemberships.accountId, accountId)),
        );
      return row ?? null;
    },

    /**
     * Serialises the changes to one clinic's memberships until the transaction ends, so two
     * owners removing each other at once cannot leave the clinic with none.
     */
    async lockClinicStaff(tx: Executor, clinicId: number) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`staff:${clinicId}`}))`);
    },

    async countOwners(ex: Executor, clinicId: number): Promise<number> {
      const [row] = await ex
        .select({ count: count() })
        .from(staffMemberships)
        .where(and(eq(staffMemberships.clinicId, clinicId), eq(staffMemberships.role, 'owner')));
      return row?.count ?? 0;
    },

    /**
     * Serialises the code sends of one phone and of one client address until the transaction
     * ends, so concurrent requests cannot slip past the send limits together.
     */
    async lockSendLimits(tx: Executor, phone: string, clientAddress: string) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`staff-phone:${phone}`}))`);
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`staff-client:${clientAddress}`}))`,
      );
    },

    sendsToPhoneSince(ex: Executor, phone: string, since: Date) {
      return windowCount(
        ex,
        staffChallenges,
        and(eq(staffChallenges.phone, phone), gt(staffChallenges.createdAt, since)),
      );
    },

    sendsFromClientSince(ex: Executor, clientAddress: string, since: Date) {
      return windowCount(
        ex,
        staffChallenges,
        and(eq(staffChallenges.clientAddress, clientAddress), gt(staffChallenges.createdAt, since)),
      );
    },

    failuresSince(ex: Executor, phone: string, since: Date) {
      return windowCount(
        ex,
        staffFailures,
        and(eq(staffFailures.phone, phone), gt(staffFailures.createdAt, since)),
      );
    },

    async recordFailure(ex: Executor, phone: string, at: Date) {
      await ex.insert(staffFailures).values({ phone, createdAt: at });
    },

    async clearFailures(ex: Executor, phone: string) {
      await ex.delete(staffFailures).where(eq(staffFailures.phone, phone));
    },

    /** A new code replaces every earlier pending one of the same phone. */
    async replacePendingChallenges(ex: Executor, phone: string) {
      await ex
        .update(staffChallenges)
        .set({ status: 'replaced' })
        .where(and(eq(staffChallenges.phone, phone), eq(staffChallenges.status, 'pending')));
    },

    async insertChallenge(ex: Executor, challenge: typeof staffChallenges.$inferInsert) {
      await ex.insert(staffChallenges).values(challenge);
    },

    /** The challenge, locked until the transaction ends: one verification at a time. */
    async lockChallenge(tx: Executor, tokenHash: string) {
      const [row] = await tx
        .select()
        .from(staffChallenges)
        .where(eq(staffChallenges.tokenHash, tokenHash))
        .for('update');
      return row ?? null;
    },

    async updateChallenge(
      ex: Executor,
      id: number,
      set: Partial<Pick<StaffChallengeRow, 'status' | 'failedAttempts'>>,
    ) {
      await ex.update(staffChallenges).set(set).where(eq(staffChallenges.id, id));
    },

    async insertInvitation(ex: Executor, invitation: typeof staffInvitations.$inferInsert) {
      const [row] = await ex.insert(staffInvitations).values(invitation).returning();
      if (!row) throw new Error('invitation not saved');
      return row;
    },

    /** The invitation of a token hash while it can still be used, with its clinic's name. */
    async findOpenInvitation(ex: Executor, tokenHash: string, now: Date) {
      const [row] = await ex
        .select({ invitation: staffInvitations, clinicName: clinics.name })
        .from(staffInvitations)
        .innerJoin(clinics, eq(clinics.id, staffInvitations.clinicId))
        .where(
          and(
            eq(staffInvitations.tokenHash, tokenHash),
            isNull(staffInvitations.usedAt),
            isNull(staffInvitations.revokedAt),
            gt(staffInvitations.expiresAt, now),
          ),
        );
      return row ?? null;
    },

    async lockInvitation(tx: Executor, invitationId: number) {
      const [row] = await tx
        .select()
        .from(staffInvitations)
        .where(eq(staffInvitations.id, invitationId))
        .for('update');
      return row ?? null;
    },

    async insertMembership(ex: Executor, membership: typeof staffMemberships.$inferInsert) {
      const [row] = await ex.insert(staffMemberships).values(membership).returning();
      if (!row) throw new Error('membership not saved');
      return row;
    },

    async markInvitationUsed(ex: Executor, invitationId: number, at: Date) {
      await ex
        .update(staffInvitations)
        .set({ usedAt: at })
        .where(eq(staffInvitations.id, invitationId));
    },

    async insertSession(ex: Executor, session: typeof staffSessions.$inferInsert) {
      await ex.insert(staffSessions).values(session);
    },

    /** The live session of a token hash, or null. */
    async findLiveSession(tokenHash: string, now: Date, idleSince: Date) {
      const [row] = await db
        .select()
        .from(staffSessions)
        .where(
          and(
            eq(staffSessions.tokenHash, tokenHash),
            isNull(staffSessions.revokedAt),
            gt(staffSessions.expiresAt, now),
            gt(staffSessions.lastSeenAt, idleSince),
          ),
        );
      return row ?? null;
    },

    async touchSession(sessionId: number, at: Date) {
      await db.update(staffSessions).set({ lastSeenAt: at }).where(eq(staffSessions.id, sessionId));
    },

    async revokeSession(sessionId: number, at: Date) {
      await db
        .update(staffSessions)
        .set({ revokedAt: at })
        .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.revokedAt)));
    },

    async revokeAccountSessions(ex: Executor, accountId: number, at: Date) {
      await ex
        .update(staffSessions)
        .set({ revokedAt: at })
        .where(and(eq(staffSessions.accountId, accountId), isNull(staffSessions.revokedAt)));
    },

    async passkeys(ex: Executor, accountId: number) {
      return ex
        .select()
        .from(staffPasskeys)
        .where(eq(staffPasskeys.accountId, accountId))
        .orderBy(asc(staffPasskeys.id));
    },

    async findPasskey(ex: Executor, credentialId: string) {
      const [row] = await ex
        .select()
        .from(staffPasskeys)
        .where(eq(staffPasskeys.credentialId, credentialId));
      return row ?? null;
    },

    async insertPasskey(ex: Executor, passkey: typeof staffPasskeys.$inferInsert) {
      const [row] = await ex
        .insert(staffPasskeys)
        .values(passkey)
        .onConflictDoNothing({ target: staffPasskeys.credentialId })
        .returning();
      return row ?? null;
    },

    /**
     * Notes a sign-in with the authenticator's new counter, only if the stored one is still the
     * counter the signature was checked against: of two sign-ins racing with one counter value
     * (a cloned authenticator), one wins. False when another got there first.
     */
    async usePasskey(ex: Executor, id: number, from: number, counter: number, at: Date) {
      const used = await ex
        .update(staffPasskeys)
        .set({ counter, lastUsedAt: at })
        .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.counter, from)))
        .returning({ id: staffPasskeys.id });
      return used.length > 0;
    },

    async deletePasskey(ex: Executor, accountId: number, id: number): Promise<boolean> {
      if (!isStoredId(id)) return false;
      const deleted = await ex
        .delete(staffPasskeys)
        .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.accountId, accountId)))
        .returning({ id: staffPasskeys.id });
      return deleted.length > 0;
    },

    async insertPasskeyChallenge(
      ex: Executor,
      challenge: typeof staffPasskeyChallenges.$inferInsert,
    ) {
      await ex.insert(staffPasskeyChallenges).values(challenge);
    },

    /** Marks a live challenge used, once: false when it is unknown, used or expired. */
    async takePasskeyChallenge(
      ex: Executor,
      challenge: string,
      purpose: 'register' | 'sign_in',
      accountId: number | null,
      now: Date,
    ): Promise<boolean> {
      const taken = await ex
        .update(staffPasskeyChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(staffPasskeyChallenges.challenge, challenge),
            eq(staffPasskeyChallenges.purpose, purpose),
            accountId === null
              ? isNull(staffPasskeyChallenges.accountId)
              : eq(staffPasskeyChallenges.accountId, accountId),
            isNull(staffPasskeyChallenges.usedAt),
            gt(staffPasskeyChallenges.expiresAt, now),
          ),
        )
        .returning({ id: staffPasskeyChallenges.id });
      return taken.length > 0;
    },

    /** Deletes what no rule needs any more: old codes, failures, challenges and dead sessions. */
    async prune(before: { challenges: Date; failures: Date; sessions: Date }) {
      await db.delete(staffChallenges).where(lt(staffChallenges.createdAt, before.challenges));
      await db.delete(staffFailures).where(lt(staffFailures.createdAt, before.failures));
      await db
        .delete(staffPasskeyChallenges)
        .where(lt(staffPasskeyChallenges.createdAt, before.challenges));
      await db.delete(staffSessions).where(lt(staffSessions.expiresAt, before.sessions));
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;
