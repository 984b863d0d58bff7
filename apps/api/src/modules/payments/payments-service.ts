import {
  isReceiptEmail,
  MAX_AMOUNT_AGOROT,
  MAX_PAYMENTS,
  PAYMENT_SUCCESS_CODE,
  toShekels,
  type PaymentRequestData,
} from '@marpe/shared';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { headerImageOf } from '../forms/forms-service.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type {
  PaymentRequestListQuery,
  PaymentRequestRow,
  PaymentsRepository,
  PaymentTransactionRow,
} from './payments-repository.js';
import {
  cardLast4,
  checkCallback,
  providerFieldsOf,
  withoutCardData,
  type ProviderFields,
} from './provider-fields.js';

const DAY = 86_400_000;

/** How long a new payment link works unless the caller says otherwise. */
export const DEFAULT_PAYMENT_LINK_DAYS = 30;
export const MAX_PAYMENT_LINK_DAYS = 365;

/** A card provider terminal name. */
export const TERMINAL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface PaymentsServiceDeps {
  repository: PaymentsRepository;
  clock: () => number;
  /** config.publicOrigin: links are `${publicOrigin}/p/${token}`. */
  publicOrigin: string;
  /**
   * payment.succeeded and payment.failed, emitted in the callback's transaction. Absent only
   * where no callback is taken (the CLI, which mints links).
   */
  webhooks?: Pick<Webhooks, 'emit' | 'kick'>;
}

export interface CreatePaymentLinkInput {
  clinicId: number;
  /** The sum, in agorot (1250.50 shekels is 125050). */
  amountAgorot: number;
  /** The most payments the patient may choose, 1 (default) to MAX_PAYMENTS. */
  maxPayments?: number;
  /** Default: the clinic's card terminal. */
  terminal?: string;
  patientIdNumber?: string;
  patientNameRemarks?: string;
  patientEmail?: string;
  /** What the payment is for (the clinic's own note; not shown to the patient). */
  description?: string;
  /** Default DEFAULT_PAYMENT_LINK_DAYS. */
  expiresInDays?: number;
}

export interface PaymentLink {
  requestId: number;
  token: string;
  url: string;
  expiresAt: Date;
}

/** What the callback did: stored (false for a replay of a known index) and whether it paid. */
export interface CallbackOutcome {
  recorded: boolean;
  accepted: boolean;
  paid: boolean;
}

export type PaymentRequestSummary = Omit<PaymentRequestRow, 'tokenHash'>;

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
    status: request.status,
    createdAt: request.createdAt,
    expiresAt: request.expiresAt,
    paidAt: request.paidAt,
  };
}

const linkNotFound = () =>
  new AppError('not_found', 404, 'This payment link is not valid: ask the clinic for a new one');

/** A 400 naming the bad field, in the message and as a validation issue. */
function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', 400, `${field} ${message}`, {
    issues: [{ path: field, message }],
  });
}

const hasControlCharacters = (text: string) => /\p{Cc}/u.test(text.replace(/\n/g, ''));

function text(
  field: string,
  value: string | undefined,
  max: number,
  pattern?: { test: RegExp; message: string },
): string {
  const clean = (value ?? '').trim();
  if (clean.length > max) throw invalid(field, `must be at most ${max} characters`);
  if (hasControlCharacters(clean)) throw invalid(field, 'must not hold control characters');
  if (clean !== '' && pattern && !pattern.test.test(clean)) throw invalid(field, pattern.message);
  return clean;
}

export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { repository, clock, publicOrigin, webhooks } = deps;

  return {
    /** A new link, inserted in `ex` when given (the integration API sends it in the same commit). */
    async createLink(input: CreatePaymentLinkInput, ex?: Executor): Promise<PaymentLink> {
      const clinic = await repository.findClinic(input.clinicId, ex);
      if (!clinic) throw new AppError('clinic_not_found', 404, 'No such clinic');

      const amount = input.amountAgorot;
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_AGOROT) {
        throw invalid(
          'amountAgorot',
          `must be a whole number of agorot from 1 to ${MAX_AMOUNT_AGOROT} (₪0.01 to ₪1,000,000)`,
        );
      }
      const maxPayments = input.maxPayments ?? 1;
      if (!Number.isInteger(maxPayments) || maxPayments < 1 || maxPayments > MAX_PAYMENTS) {
        throw invalid('maxPayments', `must be a whole number from 1 to ${MAX_PAYMENTS}`);
      }
      if (maxPayments > amount) {
        throw invalid('maxPayments', 'must not exceed the sum in agorot (each payment ≥ 1 agora)');
      }
      const terminal = input.terminal?.trim() || clinic.cardTerminal;
      if (!terminal) {
        throw invalid('terminal', `is required: clinic ${clinic.id} has no card terminal`);
      }
      if (!TERMINAL_PATTERN.test(terminal)) {
        throw invalid('terminal', 'must be 1-64 letters, digits, _ or -');
      }
      const patientIdNumber = text('patientIdNumber', input.patientIdNumber, 20, {
        test: /^[0-9A-Za-z-]+$/,
        message: 'must be letters, digits or -',
      });
      const patientNameRemarks = text('patientNameRemarks', input.patientNameRemarks, 200);
      const patientEmail = text('patientEmail', input.patientEmail, 254);
      if (patientEmail !== '' && !isReceiptEmail(patientEmail)) {
        throw invalid('patientEmail', 'must be an email address');
      }
      const description = text('description', input.description, 500);
      const days = input.expiresInDays ?? DEFAULT_PAYMENT_LINK_DAYS;
      if (!Number.isInteger(days) || days < 1 || days > MAX_PAYMENT_LINK_DAYS) {
        throw invalid('expiresInDays', `must be 1 to ${MAX_PAYMENT_LINK_DAYS} days`);
      }

      const now = clock();
      const token = randomToken();
      const expiresAt = new Date(now + days * DAY);
      const requestId = await repository.insertRequest(
        {
          clinicId: clinic.id,
          amountAgorot: amount,
          terminal,
          patientIdNumber,
          patientNameRemarks,
          patientEmail,
          maxPayments,
          description,
          tokenHash: sha256Hex(token),
          status: 'pending',
          createdAt: new Date(now),
          expiresAt,
        },
        ex,
      );
      return { requestId, token, url: `${publicOrigin}/p/${token}`, expiresAt };
    },

    /**
     * SPEC § 7 get-payment-request: a pending, unexpired request, or a paid one (whatever its
     * expiry: the page shows it as paid); 404 otherwise.
     */
    async getPaymentRequest(token: string): Promise<PaymentRequestData> {
      const row = await repository.findRequestByTokenHash(sha256Hex(token));
      if (!row) throw linkNotFound();
      const { request } = row;
      const paid = request.status === 'paid';
      if (!paid && (request.status !== 'pending' || request.expiresAt.getTime() <= clock())) {
        throw linkNotFound();
      }
      return {
        amount: toShekels(request.amountAgorot),
        terminal: request.terminal,
        patientId: request.patientIdNumber,
        patientNameRemarks: request.patientNameRemarks,
        patientEmail: request.patientEmail,
        clinicLogo: headerImageOf(row.logoUrl),
        numPayments: request.maxPayments,
        status: paid ? 'paid' : 'pending',
      };
    },

    /**
     * The card provider's notify callback. Recorded once per provider transaction index, in a
     * transaction holding the request's row lock; an accepted `000` pays the request, and nothing
     * later un-pays it. Replays answer as the first did (nothing new is stored).
     *
     * Each new callback while the request is unpaid is reported in the same transaction:
     * payment.succeeded when it pays, payment.failed otherwise (a refusal, or a `000` we did not
     * accept: the card may have been charged, so the clinic must look). Replays were reported with
     * their first delivery; once paid, later callbacks are only recorded.
     */
    async recordCallback(token: string, body: unknown): Promise<CallbackOutcome> {
      const fields: ProviderFields = providerFieldsOf(body);
      const response = fields.Response ?? '';
      const index = fields.index ?? '';
      if (response === '') throw invalid('Response', 'is required');
      if (!/^[0-9A-Za-z]{1,10}$/.test(response))
        throw invalid('Response', 'is not a response code');
      if (index === '') throw invalid('index', 'is required');
      if (!/^[0-9A-Za-z_-]{1,64}$/.test(index))
        throw invalid('index', 'is not a transaction index');

      let reported = false;
      const outcome = await repository.db.transaction(async (tx) => {
        const request = await repository.lockRequest(tx, sha256Hex(token));
        if (!request) throw linkNotFound();
        const verdict = checkCallback(request, fields);
        const now = new Date(clock());
        const recorded = await repository.insertTransaction(tx, {
          requestId: request.id,
          clinicId: request.clinicId,
          providerIndex: index,
          responseCode: response,
          confirmationCode: fields.ConfirmationCode?.slice(0, 64) || null,
          amountAgorot: verdict.amountAgorot,
          credType: verdict.credType,
          payments: verdict.payments,
          firstPaymentAgorot: verdict.firstPaymentAgorot,
          laterPaymentAgorot: verdict.laterPaymentAgorot,
          cardLast4: cardLast4(fields),
          accepted: verdict.accepted,
          rejectionReason: verdict.accepted ? null : verdict.reasons.join(','),
          payload: withoutCardData(fields),
          receivedAt: now,
        });
        const pays =
          recorded &&
          verdict.accepted &&
          response === PAYMENT_SUCCESS_CODE &&
          request.status === 'pending';
        if (pays) await repository.markPaid(tx, request.id, now);
        if (webhooks && recorded && request.status !== 'paid') {
          await webhooks.emit(tx, {
            clinicId: request.clinicId,
            type: pays ? 'payment.succeeded' : 'payment.failed',
            data: {
              request_id: request.id,
              amount: toShekels(request.amountAgorot),
              status: pays ? 'paid' : request.status,
              response_code: response,
              payments: verdict.payments,
              transaction_index: index,
            },
          });
          reported = true;
        }
        return {
          recorded,
          accepted: verdict.accepted,
          paid: pays || request.status === 'paid',
        };
      });
      if (reported) webhooks?.kick();
      return outcome;
    },

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
