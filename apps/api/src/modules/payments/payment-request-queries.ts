import { and, desc, eq, gt, inArray, lt, lte, not, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  isStoredId,
  paymentRequests,
  paymentTransactions,
  type PaymentRequestStatus,
} from '../../platform/db/schema.js';

export type PaymentRequestRow = typeof paymentRequests.$inferSelect;
export type NewPaymentRequest = typeof paymentRequests.$inferInsert;

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
 * Whether a request's latest card attempt (FOREIGN_CHARGE_REASONS aside) failed: declined, not
 * matching the request, or refused by the provider's API. A request without attempts has not
 * failed.
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

/** Payment requests: made, read and listed, cancelled, and moved on by their card attempts. */
export function createPaymentRequestQueries(db: Database) {
  return {
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
  };
}
