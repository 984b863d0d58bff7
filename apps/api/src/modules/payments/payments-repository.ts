import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  not,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  isStoredId,
  paymentCharges,
  paymentRequests,
  paymentTransactions,
  type PaymentRequestStatus,
} from '../../platform/db/schema.js';

export type PaymentRequestRow = typeof paymentRequests.$inferSelect;
export type NewPaymentRequest = typeof paymentRequests.$inferInsert;
export type PaymentTransactionRow = typeof paymentTransactions.$inferSelect;
export type NewPaymentTransaction = typeof paymentTransactions.$inferInsert;

export interface PaymentRequestListQuery {
  /** A stored status, or `expired`: pending past its expiry. */
  status?: PaymentRequestStatus | 'expired';
  /**
   * As the desk reads a request: its status (with `expired`), except that a pending one whose
   * latest card attempt failed is `failed` (and no longer `pending`).
   */
  stage?: PaymentRequestStatus | 'expired' | 'failed';
  /** Only this patient's requests. */
  patientIdNumber?: string;
  /** Only requests with a smaller id (older). */
  before?: number;
  limit: number;
}

/**
 * Callbacks that are no payment attempt on the request: a replay of a charge made for, or already
 * paying, another request (see PaymentsService.recordCallback).
 */
export const FOREIGN_CHARGE_REASONS = ['charge_of_another_request', 'reference_mismatch'] as const;

/**
 * Whether a request's latest card attempt (foreign charges aside) failed: declined, not matching
 * the request, or refused by the provider's API. A request without attempts has not failed.
 */
const latestAttemptFailed = sql`exists (
  select 1 from (
    select t.accepted, t.response_code, t.verification
    from ${paymentTransactions} t
    where t.request_id = ${paymentRequests.id}
      and (t.rejection_reason is null or (
        t.rejection_reason not like '%charge_of_another_request%'
        and t.rejection_reason not like '%reference_mismatch%'))
    order by t.received_at desc, t.id desc
    limit 1
  ) latest
  where not latest.accepted or latest.response_code <> '000'
    or latest.verification is not distinct from 'refused'
)`;

/** What the desk shows of a request's card attempts: the few columns, and whether it paid. */
export interface PaymentAttempt {
  id: number;
  requestId: number;
  responseCode: string;
  accepted: boolean;
  rejectionReason: string | null;
  verification: PaymentTransactionRow['verification'];
  confirmationCode: string | null;
  cardLast4: string | null;
  receivedAt: Date;
  /** This callback's charge paid the request (its payment_charges row). */
  paying: boolean;
}

export function createPaymentsRepository(db: Database) {
  return {
    db,

    /** What a new link needs from the clinic; null when there is no such clinic. */
    async findClinic(clinicId: number, ex: Executor = db) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await ex
        .select({ id: clinics.id, cardTerminal: clinics.cardTerminal })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    async insertRequest(request: NewPaymentRequest, ex: Executor = db) {
      const [row] = await ex
        .insert(paymentRequests)
        .values(request)
        .returning({ id: paymentRequests.id });
      if (!row) throw new Error('payment request not saved');
      return row.id;
    },

    /** The request of a link token hash, with its clinic's name and logo; null if unknown. */
    async findRequestByTokenHash(tokenHash: string) {
      const [row] = await db
        .select({
          request: paymentRequests,
          clinicName: clinics.name,
          logoUrl: clinics.logoUrl,
          clinicPhone: clinics.phone,
          clinicTimeZone: clinics.timezone,
        })
        .from(paymentRequests)
        .innerJoin(clinics, eq(clinics.id, paymentRequests.clinicId))
        .where(eq(paymentRequests.tokenHash, tokenHash));
      return row ?? null;
    },

    async findRequest(clinicId: number, requestId: number, ex: Executor = db) {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return null;
      const [row] = await ex
        .select()
        .from(paymentRequests)
        .where(and(eq(paymentRequests.id, requestId), eq(paymentRequests.clinicId, clinicId)));
      return row ?? null;
    },

    /** The clinic's requests, newest first; `now` tells pending from expired. */
    async listRequests(clinicId: number, query: PaymentRequestListQuery, now: Date) {
      if (!isStoredId(clinicId)) return [];
      const where: SQL[] = [eq(paymentRequests.clinicId, clinicId)];
      if (query.patientIdNumber !== undefined) {
        where.push(eq(paymentRequests.patientIdNumber, query.patientIdNumber));
      }
      if (query.before !== undefined) where.push(lt(paymentRequests.id, query.before));
      for (const status of [query.status, query.stage]) {
        if (status === 'pending' || status === 'expired' || status === 'failed') {
          where.push(eq(paymentRequests.status, 'pending'));
          where.push(
            status === 'expired'
              ? lte(paymentRequests.expiresAt, now)
              : gt(paymentRequests.expiresAt, now),
          );
        } else if (status) {
          where.push(eq(paymentRequests.status, status));
        }
      }
      if (query.stage === 'failed') where.push(latestAttemptFailed);
      if (query.stage === 'pending') where.push(not(latestAttemptFailed));
      return db
        .select()
        .from(paymentRequests)
        .where(and(...where))
        .orderBy(desc(paymentRequests.id))
        .limit(query.limit);
    },

    /** Pending (expired or not) → cancelled; false when the clinic has no such pending request. */
    async cancelRequest(ex: Executor, clinicId: number, requestId: number): Promise<boolean> {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return false;
      const rows = await ex
        .update(paymentRequests)
        .set({ status: 'cancelled' })
        .where(
          and(
            eq(paymentRequests.id, requestId),
            eq(paymentRequests.clinicId, clinicId),
            eq(paymentRequests.status, 'pending'),
          ),
        )
        .returning({ id: paymentRequests.id });
      return rows.length > 0;
    },

    /** The request, locked until the transaction ends: one provider callback at a time. */
    async lockRequest(tx: Executor, tokenHash: string) {
      const [row] = await tx
        .select()
        .from(paymentRequests)
        .where(eq(paymentRequests.tokenHash, tokenHash))
        .for('update');
      return row ?? null;
    },

    /**
     * Records a callback once per (request, provider index); its id when this call stored it,
     * null for a replay.
     */
    async insertTransaction(
      ex: Executor,
      transaction: NewPaymentTransaction,
    ): Promise<number | null> {
      const rows = await ex
        .insert(paymentTransactions)
        .values(transaction)
        .onConflictDoNothing({
          target: [paymentTransactions.requestId, paymentTransactions.providerIndex],
        })
        .returning({ id: paymentTransactions.id });
      return rows[0]?.id ?? null;
    },

    async countTransactions(ex: Executor, requestId: number): Promise<number> {
      const [row] = await ex
        .select({ count: count() })
        .from(paymentTransactions)
        .where(eq(paymentTransactions.requestId, requestId));
      return row?.count ?? 0;
    },

    /** A callback with its request, the request locked until the transaction ends. */
    async lockTransaction(tx: Executor, transactionId: number) {
      const [transaction] = await tx
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.id, transactionId));
      if (!transaction) return null;
      const [request] = await tx
        .select()
        .from(paymentRequests)
        .where(eq(paymentRequests.id, transaction.requestId))
        .for('update');
      return request ? { transaction, request } : null;
    },

    /**
     * What the provider said of a callback; `rejectionReason` when it names why the charge is not
     * this request's (it was made for, or already paid, another one).
     */
    async setVerification(
      ex: Executor,
      transactionId: number,
      verification: NonNullable<PaymentTransactionRow['verification']>,
      providerAnswer: Record<string, unknown> | null,
      rejectionReason?: string,
    ) {
      await ex
        .update(paymentTransactions)
        .set({ verification, providerAnswer, ...(rejectionReason ? { rejectionReason } : {}) })
        .where(eq(paymentTransactions.id, transactionId));
    },

    /** The request a provider charge (terminal, index) already paid; null when none. */
    async findChargeOwner(ex: Executor, terminal: string, providerIndex: string) {
      const [row] = await ex
        .select({ requestId: paymentCharges.requestId })
        .from(paymentCharges)
        .where(
          and(
            eq(paymentCharges.terminal, terminal.toLowerCase()),
            eq(paymentCharges.providerIndex, providerIndex),
          ),
        );
      return row?.requestId ?? null;
    },

    /**
     * Claims a provider charge for one request: true when this call did, false when the charge
     * had paid a request already. The primary key decides; a concurrent claim waits for the
     * other's commit and then finds it, so two callbacks never both win. `chargeRef` is the
     * reference the provider kept with the charge: a foreign key refuses the claim (it throws)
     * unless it is the request's own.
     */
    async claimCharge(
      ex: Executor,
      charge: {
        terminal: string;
        providerIndex: string;
        requestId: number;
        transactionId: number;
        chargeRef: string;
      },
      at: Date,
    ): Promise<boolean> {
      const rows = await ex
        .insert(paymentCharges)
        .values({ ...charge, terminal: charge.terminal.toLowerCase(), confirmedAt: at })
        .onConflictDoNothing()
        .returning({ requestId: paymentCharges.requestId });
      return rows.length > 0;
    },

    /**
     * The callback whose charge paid the request (the first charge claimed for it, confirmed by
     * the provider's API); null when none did.
     */
    async findPayingTransaction(requestId: number): Promise<PaymentTransactionRow | null> {
      const [row] = await db
        .select({ transaction: paymentTransactions })
        .from(paymentCharges)
        .innerJoin(paymentTransactions, eq(paymentTransactions.id, paymentCharges.transactionId))
        .where(
          and(
            eq(paymentCharges.requestId, requestId),
            eq(paymentTransactions.verification, 'confirmed'),
          ),
        )
        .orderBy(asc(paymentCharges.confirmedAt), asc(paymentTransactions.id))
        .limit(1);
      return row?.transaction ?? null;
    },

    /** Approved callbacks of a request the provider has not answered on yet. */
    async countAwaitingVerification(ex: Executor, requestId: number): Promise<number> {
      const [row] = await ex
        .select({ count: count() })
        .from(paymentTransactions)
        .where(
          and(
            eq(paymentTransactions.requestId, requestId),
            eq(paymentTransactions.accepted, true),
            eq(paymentTransactions.responseCode, '000'),
            isNull(paymentTransactions.verification),
          ),
        );
      return row?.count ?? 0;
    },

    async setStatus(ex: Executor, requestId: number, status: 'pending' | 'verifying') {
      await ex
        .update(paymentRequests)
        .set({ status })
        .where(
          and(
            eq(paymentRequests.id, requestId),
            inArray(paymentRequests.status, ['pending', 'verifying']),
          ),
        );
    },

    /** Pays an unpaid request; a paid one stays as it was (first payment time kept). */
    async markPaid(ex: Executor, requestId: number, at: Date) {
      await ex
        .update(paymentRequests)
        .set({ status: 'paid', paidAt: at })
        .where(
          and(
            eq(paymentRequests.id, requestId),
            inArray(paymentRequests.status, ['pending', 'verifying']),
          ),
        );
    },

    /** The clinic's provider API credentials, sealed secret included; null fields when unset. */
    async findProviderCredentials(ex: Executor, clinicId: number) {
      const [row] = await ex
        .select({ appKey: clinics.tranzilaAppKey, secret: clinics.tranzilaSecret })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    async saveProviderCredentials(
      ex: Executor,
      clinicId: number,
      credentials: { appKey: string | null; secret: string | null },
    ) {
      await ex
        .update(clinics)
        .set({ tranzilaAppKey: credentials.appKey, tranzilaSecret: credentials.secret })
        .where(eq(clinics.id, clinicId));
    },

    /** The card attempts of these requests, oldest first, each saying whether its charge paid. */
    async listAttempts(
      requestIds: readonly number[],
      ex: Executor = db,
    ): Promise<PaymentAttempt[]> {
      if (requestIds.length === 0) return [];
      const rows = await ex
        .select({
          id: paymentTransactions.id,
          requestId: paymentTransactions.requestId,
          responseCode: paymentTransactions.responseCode,
          accepted: paymentTransactions.accepted,
          rejectionReason: paymentTransactions.rejectionReason,
          verification: paymentTransactions.verification,
          confirmationCode: paymentTransactions.confirmationCode,
          cardLast4: paymentTransactions.cardLast4,
          receivedAt: paymentTransactions.receivedAt,
          chargeOf: paymentCharges.requestId,
        })
        .from(paymentTransactions)
        .leftJoin(paymentCharges, eq(paymentCharges.transactionId, paymentTransactions.id))
        .where(inArray(paymentTransactions.requestId, [...requestIds]))
        .orderBy(asc(paymentTransactions.receivedAt), asc(paymentTransactions.id));
      return rows.map(({ chargeOf, ...row }) => ({
        ...row,
        paying: chargeOf === row.requestId && row.verification === 'confirmed',
      }));
    },

    /** A request's callbacks in the order they arrived. */
    async listTransactions(requestId: number) {
      return db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.requestId, requestId))
        .orderBy(asc(paymentTransactions.receivedAt), asc(paymentTransactions.id));
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
