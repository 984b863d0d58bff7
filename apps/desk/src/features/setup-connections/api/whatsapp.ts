import type { WhatsAppConnectResponse, WhatsAppStatus } from '@marpe/shared';
import { api } from '../../../lib/api';

export const whatsappQueryKey = ['setup-connections', 'whatsapp'] as const;

export const getWhatsAppStatus = () => api<WhatsAppStatus>('/api/integration/whatsapp');

/** A single-use link (24 hours) to the connection page; 503 when the server has no Meta app. */
export const startWhatsAppConnection = () =>
  api<WhatsAppConnectResponse>('/api/integration/whatsapp/connect', { method: 'POST' });

/** Messages go by SMS again. */
export const disconnectWhatsApp = () =>
  api<undefined>('/api/integration/whatsapp', { method: 'DELETE' });
