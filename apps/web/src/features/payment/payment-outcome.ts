import type { PaymentRequestData } from '@marpe/shared';
import { parsePaymentResults, PAYMENT_SUCCESS_CODE } from '@marpe/shared/rules';

/** What the payment result view shows (docs/product/payments.md#result, ADR 017). */
export type PaymentOutcome = 'paid' | 'processing' | 'refused' | 'failed';

/** Polls of a request still `pending` after which a reported success counts as not confirmed. */
const PENDING_POLLS = 5;

/**
 * The outcome of a return from the card frame. `results` is the address's `results` parameter;
 * `request` the server's state of the link's request (null: the link is not valid, undefined: not
 * known yet) after `polls` questions. The address only says what the frame reported: a success is
 * shown once the server, having confirmed it with the provider, says `paid`.
 */
export function paymentOutcome(
  results: string,
  request: PaymentRequestData | null | undefined,
  polls: number,
): PaymentOutcome {
  if (reportedCode(results) !== PAYMENT_SUCCESS_CODE) return 'failed';
  if (request === null) return 'refused';
  if (request?.status === 'paid') return 'paid';
  if (request?.status === 'pending' && polls > PENDING_POLLS) return 'refused';
  return 'processing';
}

/** The provider's response code in the address's `results` ('' when there is none). */
export function reportedCode(results: string): string {
  return parsePaymentResults(results).Response ?? '';
}

/** The document title of each outcome: the heading's words. */
export const outcomeTitleKey = {
  paid: 'payment.result.success',
  processing: 'payment.result.processing',
  refused: 'payment.result.notConfirmed',
  failed: 'payment.result.error',
} as const satisfies Record<PaymentOutcome, string>;
