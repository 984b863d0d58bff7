import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  authChallenges,
  authFailures,
  clinics,
  isStoredId,
  patients,
  patientSessions,
} from '../../platform/db/schema.js';
import { windowCount } from '../../platform/limits.js';

export type PatientRow = typeof patients.$inferSelect;
/** The patient of the session: patients belong to one clinic. */
export type SessionPatient = Pick<PatientRow, 'id' | 'clinicId' | 'phone'>;
export type ChallengeRow = typeof authChallenges.$inferSelect;
export type NewChallenge = typeof authChallenges.$inferInsert;

export function createPatientAuthRepository(db: Database) {
  return {
    db,

    async findClinic(clinicId: number) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db
        .select({
          id: clinics.id,
          name: clinics.name,
          isAcceptNewPatients: clinics.isAcceptNewPatients,
        })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    async findPatient(ex: Executor, clinicId: number, idNumber: string) {
      const [row] = await ex
        .select()
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), eq(patients.idNumber, idNumber)));
      return row ?? null;
    },

    async findPatientById(ex: Executor, patientId: number) {
      const [row] = await ex.select().from(patients).where(eq(patients.id, patientId));
      return row ?? null;
    },

    /**
     * How many ID numbers the phone signs in at the clinic, after taking a lock that serialises
     * sign-ups and phone changes to that phone there until the transaction ends (so the cap on
     * identities per phone holds in a race).
     */
    async lockAndCountIdentities(ex: Executor, clinicId: number, phone: string): Promise<number> {
      await ex.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`identities:${clinicId}:${phone}`}))`,
      );
      const [row] = await ex
        .select({ count: count() })
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), eq(patients.phone, phone)));
      return row?.count ?? 0;
    },

    /** The clinic's correction of a patient's phone; their sessions end with it. */
    async changePhone(ex: Executor, patientId: number, phone: string, at: Date) {
      await ex.update(patients).set({ phone, updatedAt: at }).where(eq(patients.id, patientId));
      await ex
        .update(patientSessions)
        .set({ revokedAt: at })
        .where(and(eq(patientSessions.patientId, patientId), isNull(patientSessions.revokedAt)));
    },

    /** The patient, locked until the transaction ends: one correction of a record at a time. */
    async lockPatient(tx: Executor, clinicId: number, idNumber: string) {
      const [row] = await tx
        .select()
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), eq(patients.idNumber, idNumber)))
        .for('update');
      return row ?? null;
    },

    /**
     * The ID number given to its owner: their phone and names, every live session of the ID
     * ended. Answers how many sessions ended.
     */
    async reassignPatient(
      ex: Executor,
      patientId: number,
      owner: { phone: string; firstName: string; lastName: string },
      at: Date,
    ): Promise<number> {
      await ex
        .update(patients)
        .set({ ...owner, updatedAt: at })
        .where(eq(patients.id, patientId));
      const ended = await ex
        .update(patientSessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(patientSessions.patientId, patientId),
            isNull(patientSessions.revokedAt),
            // Expired ones no longer open anything: they are not counted as ended.
            gt(patientSessions.expiresAt, at),
          ),
        )
        .returning({ id: patientSessions.id });
      return ended.length;
    },

    /** The patient's booked appointments that have not ended yet, by start. */
    async upcomingAppointmentIds(ex: Executor, patientId: number, now: Date): Promise<number[]> {
      const rows = await ex
        .select({ id: appointments.id })
        .from(appointments)
        .where(
          and(
            eq(appointments.patientId, patientId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, now),
          ),
        )
        .orderBy(appointments.startAt, appointments.id);
      return rows.map((r) => r.id);
    },

    /** Null when a patient with that ID number exists already (a concurrent sign-up). */
    async insertPatient(ex: Executor, patient: typeof patients.$inferInsert) {
      const [row] = await ex
        .insert(patients)
        .values(patient)
        .onConflictDoNothing({ target: [patients.clinicId, patients.idNumber] })
        .returning();
      return row ?? null;
    },

    /**
     * Serialises the code sends of one phone and of one client address until the transaction
     * ends, so concurrent requests cannot slip past the send limits together.
     */
    async lockSendLimits(tx: Executor, phone: string, clientAddress: string) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`phone:${phone}`}))`);
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`client:${clientAddress}`}))`);
    },

    sendsToPhoneSince(ex: Executor, phone: string, since: Date) {
      return windowCount(
        ex,
        authChallenges,
        and(eq(authChallenges.phone, phone), gt(authChallenges.createdAt, since)),
      );
    },

    sendsFromClientSince(ex: Executor, clientAddress: string, since: Date) {
      return windowCount(
        ex,
        authChallenges,
        and(eq(authChallenges.clientAddress, clientAddress), gt(authChallenges.createdAt, since)),
      );
    },

    failuresSince(ex: Executor, clinicId: number, idNumber: string, since: Date) {
      return windowCount(
        ex,
        authFailures,
        and(
          eq(authFailures.clinicId, clinicId),
          eq(authFailures.idNumber, idNumber),
          gt(authFailures.createdAt, since),
        ),
      );
    },

    async recordFailure(ex: Executor, clinicId: number, idNumber: string, at: Date) {
      await ex.insert(authFailures).values({ clinicId, idNumber, createdAt: at });
    },

    async clearFailures(ex: Executor, clinicId: number, idNumber: string) {
      await ex
        .delete(authFailures)
        .where(and(eq(authFailures.clinicId, clinicId), eq(authFailures.idNumber, idNumber)));
    },

    /** A new code replaces every earlier pending one of the same patient. */
    async replacePendingChallenges(ex: Executor, clinicId: number, idNumber: string) {
      await ex
        .update(authChallenges)
        .set({ status: 'replaced' })
        .where(
          and(
            eq(authChallenges.clinicId, clinicId),
            eq(authChallenges.idNumber, idNumber),
            eq(authChallenges.status, 'pending'),
          ),
        );
    },

    async insertChallenge(ex: Executor, challenge: NewChallenge) {
      await ex.insert(authChallenges).values(challenge);
    },

    /** The challenge, locked until the transaction ends: one verification at a time. */
    async lockChallenge(tx: Executor, tokenHash: string) {
      const [row] = await tx
        .select()
        .from(authChallenges)
        .where(eq(authChallenges.tokenHash, tokenHash))
        .for('update');
      return row ?? null;
    },

    async updateChallenge(
      ex: Executor,
      id: number,
      set: Partial<Pick<ChallengeRow, 'status' | 'failedAttempts'>>,
    ) {
      await ex.update(authChallenges).set(set).where(eq(authChallenges.id, id));
    },

    async insertSession(ex: Executor, session: typeof patientSessions.$inferInsert) {
      await ex.insert(patientSessions).values(session);
    },

    /** The live session with this token hash and its patient, or null. */
    async findLiveSession(tokenHash: string, now: Date, idleSince: Date) {
      const [row] = await db
        .select({
          sessionId: patientSessions.id,
          lastSeenAt: patientSessions.lastSeenAt,
          patient: patients,
        })
        .from(patientSessions)
        .innerJoin(patients, eq(patients.id, patientSessions.patientId))
        .where(
          and(
            eq(patientSessions.tokenHash, tokenHash),
            isNull(patientSessions.revokedAt),
            gt(patientSessions.expiresAt, now),
            gt(patientSessions.lastSeenAt, idleSince),
          ),
        );
      return row ?? null;
    },

    async touchSession(sessionId: number, at: Date) {
      await db
        .update(patientSessions)
        .set({ lastSeenAt: at })
        .where(eq(patientSessions.id, sessionId));
    },

    async revokeSession(sessionId: number, at: Date) {
      await db
        .update(patientSessions)
        .set({ revokedAt: at })
        .where(and(eq(patientSessions.id, sessionId), isNull(patientSessions.revokedAt)));
    },

    /** Deletes what no rule needs any more: old challenges, old failures, dead sessions. */
    async prune(before: { challenges: Date; failures: Date; sessions: Date }) {
      await db.delete(authChallenges).where(lt(authChallenges.createdAt, before.challenges));
      await db.delete(authFailures).where(lt(authFailures.createdAt, before.failures));
      await db.delete(patientSessions).where(lt(patientSessions.expiresAt, before.sessions));
    },
  };
}

export type PatientAuthRepository = ReturnType<typeof createPatientAuthRepository>;
