import type { Executor } from '../../platform/db/client.js';
import type { PaymentAttempt, PaymentTransactionRow } from './card-transaction-queries.js';
import { createPaymentLink, type CreatePaymentLinkInput } from './create-payment-link.js';
import { getPaymentRequest } from './get-payment-request.js';
import type { PaymentRequestListQuery, PaymentRequestRow } from './payment-request-queries.js';
import type { PaymentsServiceDeps } from './payments-deps.js';
import { providerSettings, setProviderCredentials } from './provider-credentials.js';
import { recordCallback } from './record-callback.js';
import type { ProviderCredentials } from './tranzila-api.js';
import { verifyPayment } from './verify-payment.js';

export type PaymentRequestSummary = Omit<PaymentRequestRow, 'tokenHash' | 'chargeRef'>;

function summaryOf(request: PaymentRequestRow): PaymentRequestSummary {
  return {
    id: request.id,
    clinicId: request.clinicId,
    amountAgorot: request.amountAgorot,
    terminal: request.terminal,
    patientIdNumber: request.patientIdNumber,
    patientNameRemarks: request.patientNameRemarks,
    patientEmail: request.patientEmail,
    maxPayments: request.maxPayments,
    description: request.description,
    purpose: request.purpose,
    status: request.status,
    createdAt: request.createdAt,
    expiresAt: request.expiresAt,
    paidAt: request.paidAt,
  };
}

/**
 * Payment links and their card payments: each use case lives in its own file (create-payment-link,
 * get-payment-request, record-callback, verify-payment, provider-credentials); the clinic's reads
 * and the cancel are small enough to stay here.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { repository, clock } = deps;

  return {
    /** A new link, inserted in `ex` when given (the integration API sends it in the same commit). */
    createLink: (input: CreatePaymentLinkInput, ex?: Executor) =>
      createPaymentLink(deps, input, ex),

    /** The request behind a patient's link, see get-payment-request.ts. */
    getPaymentRequest: (token: string, options?: { pinFrame?: boolean }) =>
      getPaymentRequest(deps, token, options),

    /** The card provider's notify callback, see record-callback.ts. */
    recordCallback: (token: string, body: unknown) => recordCallback(deps, token, body),

    /** The `payments.verify` outbox handler, see verify-payment.ts. */
    verify: (transactionId: number) => verifyPayment(deps, transactionId),

    /** Whether the clinic has set provider credentials, and its app key (never the secret). */
    providerSettings: (clinicId: number) => providerSettings(deps, clinicId),

    /** Sets (or with null, removes) the clinic's provider API credentials, the secret sealed. */
    setProviderCredentials: (
      ex: Executor,
      clinicId: number,
      credentials: ProviderCredentials | null,
    ) => setProviderCredentials(deps, ex, clinicId, credentials),

    /** A clinic's request (for the integration API); null when it is not this clinic's. */
    async findRequest(
      clinicId: number,
      requestId: number,
      ex?: Executor,
    ): Promise<PaymentRequestSummary | null> {
      const request = await repository.findRequest(clinicId, requestId, ex);
      return request && summaryOf(request);
    },

    /** A clinic's requests, newest first (`expired`: pending past `expires_at`). */
    async listRequests(
      clinicId: number,
      query: PaymentRequestListQuery,
    ): Promise<PaymentRequestSummary[]> {
      const rows = await repository.listRequests(clinicId, query, new Date(clock()));
      return rows.map(summaryOf);
    },

    /**
     * Pending (expired or not) → cancelled, in the caller's transaction; false otherwise. The link
     * then answers 404, and callbacks are still recorded but never pay (`request_cancelled`).
     */
    async cancelRequest(ex: Executor, clinicId: number, requestId: number): Promise<boolean> {
      return repository.cancelRequest(ex, clinicId, requestId);
    },

    /** The card attempts on requests the caller has read (ids of one clinic), oldest first. */
    async listAttempts(requestIds: readonly number[], ex?: Executor): Promise<PaymentAttempt[]> {
      return repository.listAttempts(requestIds, ex);
    },

    /** A clinic's request's provider callbacks, oldest first; null when it is not this clinic's. */
    async listTransactions(
      clinicId: number,
      requestId: number,
    ): Promise<PaymentTransactionRow[] | null> {
      const request = await repository.findRequest(clinicId, requestId);
      if (!request) return null;
      return repository.listTransactions(request.id);
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
