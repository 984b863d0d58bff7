import type { PaymentProvider, PaymentProviderBody } from '@marpe/shared';
import { api } from '../../../lib/api';

export const paymentProviderQueryKey = ['setup-connections', 'payment-provider'] as const;

/** Whether the card provider's API credentials are set, and the app key (never the secret). */
export const getPaymentProvider = () => api<PaymentProvider>('/api/integration/payment-provider');

export const setPaymentProvider = (body: PaymentProviderBody) =>
  api<PaymentProvider>('/api/integration/payment-provider', { method: 'PUT', body });

export const removePaymentProvider = () =>
  api<PaymentProvider>('/api/integration/payment-provider', { method: 'DELETE' });
