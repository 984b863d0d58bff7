import { PAYMENT_SUCCESS_CODE, toShekels } from '@marpe/shared';
import { sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { invalid, linkNotFound, type PaymentsServiceDeps } from './payments-deps.js';
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

/**
 * What the callback did: stored (false for a replay of a known index), whether it matched the
 * request, and whether a verification with the provider was queued. A callback never pays.
 */
export interface CallbackOutcome {
  recorded: boolean;
  accepted: boolean;
  verifying: boolean;
}

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
export async function recordCallback(
  deps: Pick<PaymentsServiceDeps, 'repository' | 'clock' | 'webhooks' | 'provider'>,
  token: string,
  body: unknown,
): Promise<CallbackOutcome> {
  const { repository, clock, webhooks } = deps;
  const fields: ProviderFields = providerFieldsOf(body);
  const response = fields.Response ?? '';
  const index = fields.index ?? '';
  if (response === '') throw invalid('Response', 'is required');
  if (!/^[0-9A-Za-z]{1,10}$/.test(response)) throw invalid('Response', 'is not a response code');
  if (index === '') throw invalid('index', 'is required');
  if (!/^[0-9A-Za-z_-]{1,64}$/.test(index)) throw invalid('index', 'is not a transaction index');

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
}
