import { CODE_DELIVERY_STATES, type CodeDeliveryState } from '@marpe/shared/rules';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, type ResponseSchema } from '../../../lib/api-client';

/** What `POST /api/patient-auth/code-delivery` says of the code's SMS. */
export type CodeDelivery = CodeDeliveryState;

export interface CodeDeliveryStatus {
  delivery: CodeDelivery;
  /** The clinic's phone, to call when the code did not arrive. */
  clinicPhone: string;
}

const deliveries: readonly CodeDelivery[] = CODE_DELIVERY_STATES;

// Checked by hand rather than with zod: zod stays out of the login page's bundle.
const codeDeliverySchema: ResponseSchema<CodeDeliveryStatus> = {
  parse(data) {
    const { delivery, clinicPhone } = (data ?? {}) as Record<string, unknown>;
    if (!deliveries.includes(delivery as CodeDelivery) || typeof clinicPhone !== 'string') {
      throw new TypeError('Unexpected code delivery answer');
    }
    return { delivery: delivery as CodeDelivery, clinicPhone };
  },
};

/** How often the code page asks while the SMS's fate is unknown. */
export const CODE_DELIVERY_POLL_MS = 5000;

/**
 * Whether the pending code's SMS arrived, asked every few seconds until the provider's answer is
 * final (delivered or not). Nothing is asked without a pending code; a failed call shows nothing.
 */
export function useCodeDelivery(twoFactorToken: string | null) {
  return useQuery({
    queryKey: ['patient-auth', 'code-delivery', twoFactorToken],
    queryFn: ({ signal }) =>
      apiRequest('POST', '/patient-auth/code-delivery', {
        body: { twoFactorToken },
        schema: codeDeliverySchema,
        signal,
        reloadOnUnauthorized: false,
      }),
    enabled: twoFactorToken !== null,
    retry: false,
    refetchInterval: (query) => {
      const delivery = query.state.data?.delivery;
      if (query.state.status === 'error') return false;
      return delivery === 'delivered' || delivery === 'not_delivered'
        ? false
        : CODE_DELIVERY_POLL_MS;
    },
  });
}
