import { PAYMENT_SUCCESS_CODE, toShekels } from '@marpe/shared';
import type { PaymentsServiceDeps } from './payments-deps.js';
import type { PaymentTransactionRow } from './card-transaction-queries.js';
import type { PaymentRequestRow } from './payment-request-queries.js';
import { providerCredentials } from './provider-credentials.js';
import type { ProviderTransaction } from './tranzila-api.js';

/** The outbox topic of verifications with the provider's API. */
export const VERIFY_TOPIC = 'payments.verify';

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
export async function verifyPayment(
  deps: Pick<PaymentsServiceDeps, 'repository' | 'clock' | 'webhooks' | 'provider'>,
  transactionId: number,
): Promise<void> {
  const { repository, clock, webhooks } = deps;
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
  const credentials = await providerCredentials(deps, first.request.clinicId);
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
}
