import { eq } from 'drizzle-orm';
import {
  describeResponseCode,
  formatAmount,
  normaliseIsraeliMobile,
  PAYMENT_SUCCESS_CODE,
  toAgorot,
  toShekels,
  type CreatedPaymentRequest,
  type CreatePaymentRequestBody,
  type PaymentRequest,
  type PaymentRequestStage,
  type PaymentRequestStatus,
  type PaymentRequestsQuery,
  type PaymentTransaction,
  type ValidationDetails,
  type PaymentProvider,
  type PaymentProviderBody,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { cancelLinkRequest } from '../../platform/cancel-link-request.js';
import type { Database, Executor } from '../../platform/db/client.js';
import { clinics } from '../../platform/db/schema.js';
import { AppError, invalidField } from '../../platform/errors.js';
import {
  messageCapError,
  takeMessageCap,
  type MessageCapRefusal,
} from '../integration/message-caps.js';
import type { Messaging } from '../messaging/messaging.js';
import {
  FOREIGN_CHARGE_REASONS,
  type PaymentAttempt,
  type PaymentTransactionRow,
} from './card-transaction-queries.js';
import type { CreatePaymentLinkInput } from './create-payment-link.js';
import type { PaymentRequestSummary, PaymentsService } from './payments-service.js';

export interface PaymentRequestsDeps {
  db: Database;
  payments: Pick<
    PaymentsService,
    | 'createLink'
    | 'findRequest'
    | 'listRequests'
    | 'cancelRequest'
    | 'listTransactions'
    | 'listAttempts'
    | 'providerSettings'
    | 'setProviderCredentials'
  >;
  messaging: Pick<Messaging, 'queueMessage' | 'kick'>;
  clock: () => number;
}

/** The SMS that carries a payment link, in the clinic's name, with the sum as the page shows it. */
export function paymentLinkSms(clinicName: string, amountAgorot: number, url: string): string {
  return `${clinicName}: בקשת תשלום על סך ₪${formatAmount(amountAgorot)}. לתשלום בקישור הבא\n${url}`;
}

const requestNotFound = (id: number) => new AppError('not_found', 404, `No payment request ${id}`);

/** The payments service names its inputs as in code; the API's 400 names the body's fields. */
const bodyFieldOf: Readonly<Record<string, keyof CreatePaymentRequestBody>> = {
  amountAgorot: 'amount',
  maxPayments: 'max_payments',
  terminal: 'terminal',
  patientIdNumber: 'patient_id_number',
  patientNameRemarks: 'patient_name_remarks',
  patientEmail: 'patient_email',
  description: 'description',
  purpose: 'purpose',
  expiresInDays: 'expires_in_days',
};

function withBodyFieldNames(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'validation_failed') return error;
  const { issues } = error.details as ValidationDetails;
  const renamed = issues.map((issue) => ({
    ...issue,
    path: bodyFieldOf[issue.path] ?? issue.path,
  }));
  const fields = renamed.map((issue) => issue.path).join(', ');
  return new AppError('validation_failed', 400, `Invalid request: ${fields}`, { issues: renamed });
}

function transactionOf(row: PaymentTransactionRow): PaymentTransaction {
  return {
    id: row.id,
    transaction_index: row.providerIndex,
    response_code: row.responseCode,
    response_description: describeResponseCode(row.responseCode),
    accepted: row.accepted,
    rejection_reason: row.rejectionReason,
    verification: row.verification,
    confirmation_code: row.confirmationCode,
    amount: row.amountAgorot === null ? null : toShekels(row.amountAgorot),
    payments: row.payments,
    card_last4: row.cardLast4,
    received_at: row.receivedAt.toISOString(),
  };
}

/** A callback that is a payment attempt on its request, not a replay of another's charge. */
const isOwnAttempt = (attempt: PaymentAttempt) =>
  !FOREIGN_CHARGE_REASONS.some((reason) => attempt.rejectionReason?.includes(reason));

/** An approved callback on the request's terms. */
const isApproved = (attempt: PaymentAttempt) =>
  attempt.accepted && attempt.responseCode === PAYMENT_SUCCESS_CODE;

/**
 * Where a request stands for the desk, from its status (`expired` already told apart) and its card
 * attempts (oldest first): a pending request whose latest attempt was declined, did not match or
 * was refused by the provider is `failed`; a paid one shows the card and approval of the charge
 * that paid it, a verifying one those of the charge awaiting the provider's word.
 */
export function stageOf(
  status: PaymentRequestStatus,
  attempts: readonly PaymentAttempt[],
): Pick<PaymentRequest, 'stage' | 'card_last4' | 'approval_number'> {
  const own = attempts.filter(isOwnAttempt);
  const card = (attempt: PaymentAttempt | undefined) => ({
    card_last4: attempt?.cardLast4 ?? null,
    approval_number: attempt?.confirmationCode ?? null,
  });
  if (status === 'paid') {
    return { stage: 'paid', ...card(own.find((attempt) => attempt.paying)) };
  }
  if (status === 'verifying') {
    const waiting = own.filter((a) => isApproved(a) && a.verification === null).at(-1);
    return { stage: 'verifying', ...card(waiting) };
  }
  const latest = own.at(-1);
  const failed =
    status === 'pending' &&
    latest !== undefined &&
    (!isApproved(latest) || latest.verification === 'refused');
  const stage: PaymentRequestStage = failed ? 'failed' : status;
  return { stage, card_last4: null, approval_number: null };
}

/** The clinic side of payment links: make (and send), list, cancel, and read the callbacks. */
export function createPaymentRequests(deps: PaymentRequestsDeps) {
  const { db, payments, messaging, clock } = deps;

  /**
   * The request as the API shows it; `expired` for a pending one past its expiry. `attempts`: its
   * card attempts, oldest first (others' are ignored).
   */
  function requestOf(
    request: PaymentRequestSummary,
    attempts: readonly PaymentAttempt[],
    now = clock(),
  ): PaymentRequest {
    const expired = request.status === 'pending' && request.expiresAt.getTime() <= now;
    const status = expired ? 'expired' : request.status;
    return {
      id: request.id,
      status,
      ...stageOf(
        status,
        attempts.filter((attempt) => attempt.requestId === request.id),
      ),
      amount: toShekels(request.amountAgorot),
      max_payments: request.maxPayments,
      terminal: request.terminal,
      patient_id_number: request.patientIdNumber,
      patient_name_remarks: request.patientNameRemarks,
      patient_email: request.patientEmail,
      description: request.description,
      purpose: request.purpose,
      created_at: request.createdAt.toISOString(),
      expires_at: request.expiresAt.toISOString(),
      paid_at: request.paidAt?.toISOString() ?? null,
    };
  }

  /** The requests as the API shows them, each with its card attempts (one query for them all). */
  async function withStages(
    requests: readonly PaymentRequestSummary[],
    ex?: Executor,
  ): Promise<PaymentRequest[]> {
    const now = clock();
    // Cancelled and expired requests show no card: their attempts need not be read.
    const live = requests
      .filter(
        (r) =>
          r.status !== 'cancelled' && !(r.status === 'pending' && r.expiresAt.getTime() <= now),
      )
      .map((r) => r.id);
    const attempts = await payments.listAttempts(live, ex);
    return requests.map((request) => requestOf(request, attempts, now));
  }

  /** One request as the API shows it. */
  async function shown(request: PaymentRequestSummary, ex?: Executor): Promise<PaymentRequest> {
    const [one] = await withStages([request], ex);
    if (!one) throw new Error('payment request not shown');
    return one;
  }

  return {
    /** A new link; with `send_to_phone`, its SMS leaves with the same commit. */
    async create(
      clinicId: number,
      body: CreatePaymentRequestBody,
      actor: string,
    ): Promise<CreatedPaymentRequest> {
      const amountAgorot = toAgorot(body.amount);
      if (amountAgorot === null) {
        throw invalidField('amount', 'Expected shekels with at most 2 decimals');
      }
      const phone =
        body.send_to_phone === undefined ? null : normaliseIsraeliMobile(body.send_to_phone);
      if (body.send_to_phone !== undefined && phone === null) {
        throw invalidField('send_to_phone', 'Expected an Israeli mobile number');
      }
      const input: CreatePaymentLinkInput = {
        clinicId,
        amountAgorot,
        maxPayments: body.max_payments,
        terminal: body.terminal,
        patientIdNumber: body.patient_id_number,
        patientNameRemarks: body.patient_name_remarks,
        patientEmail: body.patient_email,
        description: body.description,
        purpose: body.purpose,
        expiresInDays: body.expires_in_days,
      };
      type Outcome = { refused: MessageCapRefusal } | { created: CreatedPaymentRequest };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        // Before anything is made: a refused message leaves only its audit entry.
        if (phone !== null) {
          const refused = await takeMessageCap(tx, {
            clinicId,
            to: phone,
            kind: 'payment_link',
            actor,
            now: clock(),
          });
          if (refused) return { refused };
        }
        const link = await payments.createLink(input, tx).catch((error: unknown) => {
          throw withBodyFieldNames(error);
        });
        const request = await payments.findRequest(clinicId, link.requestId, tx);
        if (!request) throw new Error(`payment request ${link.requestId} not saved`);
        if (phone !== null) {
          const [clinic] = await tx
            .select({ name: clinics.name })
            .from(clinics)
            .where(eq(clinics.id, clinicId));
          // By the clinic's channel: WhatsApp once connected and chosen, else SMS.
          await messaging.queueMessage(tx, {
            clinicId,
            to: phone,
            body: paymentLinkSms(clinic?.name ?? '', request.amountAgorot, link.url),
            kind: 'payment_link',
            // A link that no longer works is not worth a message.
            expiresAt: link.expiresAt,
          });
        }
        await audit(tx, {
          clinicId,
          actor,
          action: 'payment_request.create',
          targetType: 'payment_request',
          targetId: request.id,
          // The sum and its terms; the patient's details stay with the request.
          details: {
            amount: toShekels(request.amountAgorot),
            max_payments: request.maxPayments,
            terminal: request.terminal,
            expires_at: request.expiresAt.toISOString(),
            sent_to_phone: phone !== null,
          },
          at: request.createdAt,
        });
        return { created: { ...requestOf(request, []), url: link.url } };
      });
      if ('refused' in outcome) throw messageCapError(outcome.refused);
      if (phone !== null) messaging.kick();
      return outcome.created;
    },

    async list(clinicId: number, query: PaymentRequestsQuery): Promise<PaymentRequest[]> {
      const rows = await payments.listRequests(clinicId, {
        status: query.status,
        stage: query.stage,
        patientIdNumber: query.patient_id_number,
        before: query.before,
        limit: query.limit,
      });
      return withStages(rows);
    },

    async get(clinicId: number, id: number): Promise<PaymentRequest> {
      const request = await payments.findRequest(clinicId, id);
      if (!request) throw requestNotFound(id);
      return shown(request);
    },

    /**
     * A pending (or expired) request is cancelled: its link answers 404 and the provider's
     * callbacks on it are recorded but never pay. Cancelling a cancelled request changes nothing;
     * a paid one cannot be cancelled (409).
     */
    async cancel(clinicId: number, id: number, actor: string): Promise<PaymentRequest> {
      return cancelLinkRequest(db, {
        clinicId,
        id,
        actor,
        at: () => new Date(clock()),
        target: 'payment_request',
        cancel: (tx) => payments.cancelRequest(tx, clinicId, id),
        find: (tx) => payments.findRequest(clinicId, id, tx),
        notFound: requestNotFound(id),
        finished: { status: 'paid', message: `Payment request ${id} is already paid` },
        view: (request, tx) => shown(request, tx),
      });
    },

    /** Whether the clinic has provider API credentials, and its app key. */
    async provider(clinicId: number): Promise<PaymentProvider> {
      const { appKey } = await payments.providerSettings(clinicId);
      return { configured: appKey !== null, app_key: appKey };
    },

    /** Sets (or with null, removes) the clinic's provider API credentials, audited. */
    async setProvider(
      clinicId: number,
      body: PaymentProviderBody | null,
      actor: string,
    ): Promise<PaymentProvider> {
      await db.transaction(async (tx) => {
        await payments.setProviderCredentials(
          tx,
          clinicId,
          body && { appKey: body.app_key, secret: body.secret },
        );
        await audit(tx, {
          clinicId,
          actor,
          action: body ? 'payment_provider.set' : 'payment_provider.remove',
          targetType: 'clinic',
          targetId: clinicId,
          // The app key identifies the credentials; the secret never leaves the database.
          details: body ? { app_key: body.app_key } : {},
          at: new Date(clock()),
        });
      });
      return { configured: body !== null, app_key: body?.app_key ?? null };
    },

    /** The provider's callbacks on the request, oldest first. */
    async transactions(clinicId: number, id: number): Promise<PaymentTransaction[]> {
      const rows = await payments.listTransactions(clinicId, id);
      if (!rows) throw requestNotFound(id);
      return rows.map(transactionOf);
    },
  };
}

export type PaymentRequests = ReturnType<typeof createPaymentRequests>;
