import {
  isReceiptEmail,
  MAX_AMOUNT_AGOROT,
  MAX_PAYMENTS,
  PAYMENT_SUCCESS_CODE,
  toShekels,
  type CardProvider,
  type EndedLinkDetails,
  type PaymentRequestData,
} from '@marpe/shared';
import {
  decryptText,
  encryptText,
  randomToken,
  sealedAt,
  sha256Hex,
  type SealingKey,
} from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { headerImageOf } from '../../platform/http/header-image.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import type {
  PaymentAttempt,
  PaymentRequestListQuery,
  PaymentRequestRow,
  PaymentsRepository,
  PaymentTransactionRow,
} from './payments-repository.js';
import {
  ProviderUnavailableError,
  type ProviderCredentials,
  type ProviderTransaction,
  type TranzilaApi,
} from './tranzila-api.js';
import {
  cardLast4,
  checkCallback,
  providerFieldsOf,
  withoutCardData,
  type ProviderFields,
} from './provider-fields.js';

const DAY = 86_400_000;

/** Callbacks a request keeps at most: more are refused (a real payment needs a handful). */
export const MAX_CALLBACKS_PER_REQUEST = 20;
/** A charge on an expired link is still taken this long after its expiry, never later. */
const LATE_CALLBACK_MS = DAY;
/** The outbox topic of verifications with the provider's API. */
export const VERIFY_TOPIC = 'payments.verify';

/** The clinic's provider secret is bound to the clinic's row. */
const secretAt = (clinicId: number) => sealedAt('clinics', 'tranzila_secret', clinicId);

/**
 * Whether the provider's transaction is the charge the request asked for (its reference is
 * checked apart: a charge of another request is refused without an event, see `verify`).
 */
function confirms(
  request: PaymentRequestRow,
  callback: PaymentTransactionRow,
  found: ProviderTransaction | null,
): boolean {
  return (
    found !== null &&
    found.responseCode === PAYMENT_SUCCESS_CODE &&
    found.terminal === request.terminal &&
    found.amountAgorot === request.amountAgorot &&
    ['1', 'ILS', '376'].includes(found.currency.toUpperCase()) &&
    found.payments >= 1 &&
    found.payments <= request.maxPayments &&
    found.payments === callback.payments
  );
}

/** How long a new payment link works unless the caller says otherwise. */
export const DEFAULT_PAYMENT_LINK_DAYS = 30;
export const MAX_PAYMENT_LINK_DAYS = 365;

/** The longest `purpose`: a line on the payment page, not a letter. */
export const MAX_PURPOSE_LENGTH = 200;

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
  /**
   * Whose page the card frame is: the provider's (default), or the demo sandbox standing in for it
   * (CARD_FRAME_BASE_URL on our own origin). The payment page names it.
   */
  cardProvider?: CardProvider;
  /**
   * Outside demo mode: a link is made only for a clinic whose charges can be confirmed (it has
   * provider API credentials), since an unconfirmable charge can never pay.
   */
  requireProviderCredentials?: boolean;
  /**
   * The provider's server API and how clinics' credentials are sealed. Absent only in the CLI,
   * which mints links and never verifies or opens a frame.
   */
  provider?: {
    api: TranzilaApi;
    sealKey: SealingKey;
    /** Queues a verification in the callback's transaction (the outbox's `payments.verify`). */
    queueVerification: (ex: Executor, transactionId: number) => Promise<void>;
  };
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
  /** The clinic's own note on the payment; never shown to the patient. */
  description?: string;
  /** What the payment is for, in words for the patient: shown on the payment page when set. */
  purpose?: string;
  /** Default DEFAULT_PAYMENT_LINK_DAYS. */
  expiresInDays?: number;
}

export interface PaymentLink {
  requestId: number;
  token: string;
  url: string;
  expiresAt: Date;
}

/**
 * What the callback did: stored (false for a replay of a known index), whether it matched the
 * request, and whether a verification with the provider was queued. A callback never pays.
 */
export interface CallbackOutcome {
  recorded: boolean;
  accepted: boolean;
  verifying: boolean;
}

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

const linkNotFound = (ended?: EndedLinkDetails) =>
  new AppError(
    'not_found',
    404,
    'This payment link is not valid: ask the clinic for a new one',
    ended,
  );

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

  /** The clinic's provider credentials, the secret unsealed; null when it has none. */
  async function providerCredentials(clinicId: number): Promise<ProviderCredentials | null> {
    if (!deps.provider) return null;
    const row = await repository.findProviderCredentials(repository.db, clinicId);
    if (!row?.appKey || !row.secret) return null;
    return {
      appKey: row.appKey,
      secret: decryptText(deps.provider.sealKey, row.secret, secretAt(clinicId)),
    };
  }

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
      const purpose = text('purpose', input.purpose, MAX_PURPOSE_LENGTH);
      if (deps.requireProviderCredentials) {
        const credentials = await repository.findProviderCredentials(
          ex ?? repository.db,
          clinic.id,
        );
        if (!credentials?.appKey || !credentials.secret) {
          throw invalid(
            'payment_provider',
            `is not set up: clinic ${clinic.id} has no card provider API credentials to confirm charges with (PUT /api/integration/payment-provider)`,
          );
        }
      }
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
          purpose,
          tokenHash: sha256Hex(token),
          chargeRef: randomToken(12),
          status: 'pending',
          createdAt: new Date(now),
          expiresAt,
        },
        ex,
      );
      return { requestId, token, url: `${publicOrigin}/p/${token}`, expiresAt };
    },

    /**
     * SPEC § 7 get-payment-request: a pending, unexpired request, or one verifying or paid
     * (whatever its expiry: the page shows it as processing or paid); 404 otherwise. A pending
     * request of a clinic with provider credentials carries a handshake token pinning the frame to
     * its sum; without one (no credentials, or the provider unreachable) the frame opens as before
     * and the charge is still verified. `pinFrame: false` reads the request for its state alone
     * (the payment result page rendered on the server): no frame opens from it, so no handshake.
     */
    async getPaymentRequest(
      token: string,
      { pinFrame = true }: { pinFrame?: boolean } = {},
    ): Promise<PaymentRequestData> {
      const row = await repository.findRequestByTokenHash(sha256Hex(token));
      if (!row) throw linkNotFound();
      const { request } = row;
      const settled = request.status === 'paid' || request.status === 'verifying';
      if (!settled && (request.status !== 'pending' || request.expiresAt.getTime() <= clock())) {
        // Whose link it was and how it ended, so the page can say so with the clinic's phone.
        throw linkNotFound({
          ended: request.status === 'cancelled' ? 'cancelled' : 'expired',
          clinicId: request.clinicId,
        });
      }
      let thtk: string | null = null;
      if (pinFrame && request.status === 'pending' && deps.provider) {
        const credentials = await providerCredentials(request.clinicId);
        if (credentials) {
          try {
            thtk = await deps.provider.api.createHandshake(
              credentials,
              request.terminal,
              request.amountAgorot,
            );
          } catch (error) {
            if (!(error instanceof ProviderUnavailableError)) throw error;
          }
        }
      }
      // A settled link past its expiry still says so, but no longer who it was for, what for, or
      // with which card (issue 25).
      const anonymous = settled && request.expiresAt.getTime() <= clock();
      const paying =
        request.status === 'paid' && !anonymous
          ? await repository.findPayingTransaction(request.id)
          : null;
      return {
        amount: toShekels(request.amountAgorot),
        terminal: request.terminal,
        patientId: anonymous ? '' : request.patientIdNumber,
        patientNameRemarks: anonymous ? '' : request.patientNameRemarks,
        patientEmail: anonymous ? '' : request.patientEmail,
        clinicLogo: headerImageOf(row.logoUrl),
        numPayments: request.maxPayments,
        status: request.status === 'cancelled' ? 'pending' : request.status,
        thtk,
        chargeRef: request.chargeRef,
        clinicName: row.clinicName,
        clinicId: request.clinicId,
        clinicPhone: row.clinicPhone,
        clinicTimeZone: row.clinicTimeZone,
        purpose: anonymous ? '' : request.purpose,
        cardProvider: deps.cardProvider ?? 'tranzila',
        receipt: paying && {
          amount: toShekels(request.amountAgorot),
          payments: paying.payments,
          cardLast4: paying.cardLast4,
          confirmationCode: paying.confirmationCode,
          email: paying.payload.email?.trim() ?? '',
          paidAt: (request.paidAt ?? paying.receivedAt).toISOString(),
        },
      };
    },

    /**
     * The card provider's notify callback: a hint, never proof (anyone holding the link can post
     * one). Recorded once per provider transaction index under the request's row lock; an
     * approved one that matches the request queues a verification with the provider's API (see
     * `verify`) and marks the request `verifying`. Refused: callbacks on a cancelled link or one
     * expired over a day ago, and any beyond MAX_CALLBACKS_PER_REQUEST.
     *
     * A declined or mismatching callback on an unpaid request is reported at once as
     * payment.failed with `verified: false` (the clinic may want to call the patient); replays
     * were reported with their first delivery. A charge that belongs to another request (its
     * reference, or it already paid one) is recorded as not accepted and reported to nobody: it is
     * no payment attempt on this link, only a replay of someone's charge. An approved one the
     * clinic cannot confirm (no provider credentials), or one without the request's reference
     * (whose it is cannot be told, so it is refused and never verified), leaves the request
     * payable, is recorded `unverifiable` and is reported as payment.unverified.
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
        const now = clock();
        if (
          request.status === 'cancelled' ||
          (request.status !== 'paid' && request.expiresAt.getTime() + LATE_CALLBACK_MS <= now)
        ) {
          throw linkNotFound();
        }
        if ((await repository.countTransactions(tx, request.id)) >= MAX_CALLBACKS_PER_REQUEST) {
          throw new AppError(
            'too_many_requests',
            429,
            `A payment link keeps at most ${MAX_CALLBACKS_PER_REQUEST} provider callbacks`,
          );
        }
        const verdict = checkCallback(request, fields);
        const owner = await repository.findChargeOwner(tx, request.terminal, index);
        if (owner !== null && owner !== request.id) {
          verdict.accepted = false;
          verdict.reasons.push('charge_of_another_request');
        }
        const foreign =
          verdict.reasons.includes('charge_of_another_request') ||
          verdict.reasons.includes('reference_mismatch');
        // An approval that fails no check but the missing reference: a real charge, perhaps,
        // but nobody can say for which link, so the clinic is told to look at its terminal.
        const unreferenced =
          response === PAYMENT_SUCCESS_CODE &&
          verdict.reasons.length === 1 &&
          verdict.reasons[0] === 'reference_missing';
        const transactionId = await repository.insertTransaction(tx, {
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
          receivedAt: new Date(now),
        });
        const approved = verdict.accepted && response === PAYMENT_SUCCESS_CODE;
        const provider = deps.provider;
        const confirmable =
          provider !== undefined &&
          (await repository.findProviderCredentials(tx, request.clinicId))?.secret != null;
        const verifying = transactionId !== null && approved && confirmable;
        if (verifying) {
          // A paid request is verified too: a second confirmed charge is a duplicate to refund.
          if (request.status === 'pending') await repository.setStatus(tx, request.id, 'verifying');
          await provider.queueVerification(tx, transactionId);
        }
        if (
          transactionId !== null &&
          (unreferenced || (approved && !confirmable && provider !== undefined))
        ) {
          await repository.setVerification(tx, transactionId, 'unverifiable', null);
        }
        const type =
          unreferenced || (approved && !confirmable)
            ? 'payment.unverified'
            : !approved && !foreign
              ? 'payment.failed'
              : null;
        if (webhooks && transactionId !== null && type && request.status !== 'paid') {
          await webhooks.emit(tx, {
            clinicId: request.clinicId,
            type,
            data: {
              request_id: request.id,
              amount: toShekels(request.amountAgorot),
              status: request.status,
              response_code: response,
              payments: verdict.payments,
              transaction_index: index,
              verified: false,
            },
          });
          reported = true;
        }
        return { recorded: transactionId !== null, accepted: verdict.accepted, verifying };
      });
      if (reported) webhooks?.kick();
      return outcome;
    },

    /**
     * The `payments.verify` outbox handler: asks the provider's API about one approved callback.
     * Confirmed (exists, approved, same terminal, sum, currency and instalments, this request's
     * reference) and claimed for this request (a charge pays one request, ever): the request is
     * paid and payment.succeeded says `verified: true`; on a request already paid it is
     * payment.duplicate. Refused: recorded, payment.failed (`verified: true`), and the request is
     * payable again unless another approved callback still waits; a charge of another request is
     * refused without an event (see recordCallback). A charge the provider keeps without any
     * reference matches nothing (whose it is cannot be told): `unverifiable`, like credentials
     * removed since the callback, so the request is payable again and payment.unverified says
     * so. An unreachable provider throws: the outbox tries again with backoff.
     */
    async verify(transactionId: number): Promise<void> {
      if (!deps.provider) throw new Error('payments: verify without a provider');
      const first = await repository.lockTransaction(repository.db, transactionId);
      // Only an approved callback that passed our checks is ever queued; anything else here is
      // left alone rather than asked about (a refused callback must never pay).
      if (
        !first ||
        first.transaction.verification !== null ||
        !first.transaction.accepted ||
        first.transaction.responseCode !== PAYMENT_SUCCESS_CODE
      ) {
        return;
      }
      const credentials = await providerCredentials(first.request.clinicId);
      let found: {
        transaction: ProviderTransaction | null;
        answer: Record<string, unknown>;
      } | null = null;
      if (credentials) {
        found = await deps.provider.api.findTransaction(
          credentials,
          first.request.terminal,
          first.transaction.providerIndex,
        );
      }
      let reported = false;
      await repository.db.transaction(async (tx) => {
        const locked = await repository.lockTransaction(tx, transactionId);
        if (!locked || locked.transaction.verification !== null) return;
        const { request, transaction } = locked;
        const now = new Date(clock());
        const event = (
          type: 'payment.succeeded' | 'payment.failed' | 'payment.duplicate' | 'payment.unverified',
          status: PaymentRequestRow['status'],
          verified: boolean,
        ) =>
          webhooks?.emit(tx, {
            clinicId: request.clinicId,
            type,
            data: {
              request_id: request.id,
              amount: toShekels(request.amountAgorot),
              status,
              response_code: found?.transaction?.responseCode ?? transaction.responseCode,
              payments: transaction.payments,
              transaction_index: transaction.providerIndex,
              verified,
            },
          });
        reported = webhooks !== undefined;
        /** The request payable again unless another approved callback still waits. */
        const reopen = async () => {
          const waiting = await repository.countAwaitingVerification(tx, request.id);
          const status = waiting > 0 ? 'verifying' : 'pending';
          await repository.setStatus(tx, request.id, status);
          return status;
        };
        if (!found) {
          await repository.setVerification(tx, transaction.id, 'unverifiable', null);
          if (request.status === 'paid') {
            reported = false;
            return;
          }
          await event('payment.unverified', await reopen(), false);
          return;
        }
        // The charge must carry this request's reference as the provider kept it. One without
        // matches nothing: two links reporting it would each look right, and whichever was
        // verified first would take a charge that may be the other's.
        const reference = found.transaction?.reference ?? null;
        const foreignReference = reference !== null && reference !== request.chargeRef;
        const matches = !foreignReference && confirms(request, transaction, found.transaction);
        if (matches && reference === null) {
          await repository.setVerification(
            tx,
            transaction.id,
            'unverifiable',
            found.answer,
            'reference_missing',
          );
          if (request.status === 'paid') {
            reported = false;
            return;
          }
          await event('payment.unverified', await reopen(), false);
          return;
        }
        // The charge's key decides a race between two requests; the reference it is claimed
        // under is held to the request's own by a foreign key.
        const claimed =
          matches &&
          reference !== null &&
          (await repository.claimCharge(
            tx,
            {
              terminal: request.terminal,
              providerIndex: transaction.providerIndex,
              requestId: request.id,
              transactionId: transaction.id,
              chargeRef: reference,
            },
            now,
          ));
        if (claimed) {
          await repository.setVerification(tx, transaction.id, 'confirmed', found.answer);
          if (request.status === 'paid') {
            await event('payment.duplicate', 'paid', true);
          } else {
            await repository.markPaid(tx, request.id, now);
            await event('payment.succeeded', 'paid', true);
          }
          return;
        }
        // Not this request's charge: made for another request, or it paid another one first (a
        // match that could not be claimed).
        const foreign = foreignReference
          ? 'reference_mismatch'
          : matches
            ? 'charge_of_another_request'
            : undefined;
        await repository.setVerification(tx, transaction.id, 'refused', found.answer, foreign);
        if (request.status === 'paid') {
          reported = false;
          return;
        }
        const status = await reopen();
        if (foreign) {
          reported = false;
          return;
        }
        await event('payment.failed', status, true);
      });
      if (reported) webhooks?.kick();
    },

    /** Whether the clinic has set provider credentials, and its app key (never the secret). */
    async providerSettings(clinicId: number): Promise<{ appKey: string | null }> {
      const row = await repository.findProviderCredentials(repository.db, clinicId);
      return { appKey: row?.secret ? row.appKey : null };
    },

    /** Sets (or with null, removes) the clinic's provider API credentials, the secret sealed. */
    async setProviderCredentials(
      ex: Executor,
      clinicId: number,
      credentials: ProviderCredentials | null,
    ): Promise<void> {
      if (!deps.provider) throw new Error('payments: credentials without a provider');
      await repository.saveProviderCredentials(ex, clinicId, {
        appKey: credentials?.appKey ?? null,
        secret: credentials
          ? encryptText(deps.provider.sealKey, credentials.secret, secretAt(clinicId))
          : null,
      });
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
