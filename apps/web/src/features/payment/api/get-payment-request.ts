import type { PaymentRequestData } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/get-payment-request` (SPEC § 7): the request behind a link; 404 when the link is not valid. */
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
