import type { PaymentRequestData } from '@marpe/shared';
import { ApiError, apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/get-payment-request` (docs/product/payments.md#calls): the request behind a link; 404
 * when the link is not valid.
 */
export async function getPaymentRequest(
  token: string,
  signal?: AbortSignal,
): Promise<PaymentRequestData> {
  const { data } = await apiRequest<{ data: PaymentRequestData }>('POST', '/get-payment-request', {
    body: { token },
    signal,
  });
  return data;
}

/** The query of the request behind a link; the server fills it for a page it renders (ADR 021). */
export function paymentRequestQueryKey(token: string) {
  return ['payment-request', token] as const;
}

/**
 * The request as the payment result view asks for it: null when the link is not valid (404), so
 * that the server can render that answer too (ADR 025).
 */
export async function getPaymentResult(
  token: string,
  signal?: AbortSignal,
): Promise<PaymentRequestData | null> {
  try {
    return await getPaymentRequest(token, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The result view's query of the request behind a link, which it asks again while confirming. */
export function paymentResultQueryKey(token: string) {
  return ['payment-result', token] as const;
}
