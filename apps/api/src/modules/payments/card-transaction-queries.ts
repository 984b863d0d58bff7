import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import { paymentCharges, paymentRequests, paymentTransactions } from '../../platform/db/schema.js';

export type PaymentTransactionRow = typeof paymentTransactions.$inferSelect;
export type NewPaymentTransaction = typeof paymentTransactions.$inferInsert;

/**
 * Callbacks that are no payment attempt on the request: a replay of a charge made for, or already
 * paying, another request (see PaymentsService.recordCallback).
 */
export const FOREIGN_CHARGE_REASONS = ['charge_of_another_request', 'reference_mismatch'] as const;

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

/** Card transactions: the provider's callbacks, their verification, and the charges that paid. */
export function createCardTransactionQueries(db: Database) {
  return {
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
