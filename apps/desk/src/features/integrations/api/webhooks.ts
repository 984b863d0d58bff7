import type {
  CreateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const webhooksQueryKey = ['integrations', 'webhooks'] as const;

/** The clinic's webhook endpoints (never their secrets). */
export const useWebhooks = () =>
  useQuery({
    queryKey: webhooksQueryKey,
    queryFn: () => api<WebhookEndpoint[]>('/api/integration/webhooks'),
  });

/** A new endpoint; the answer holds its generated signing secret, this once. */
export const createWebhook = (body: CreateWebhookEndpointBody) =>
  api<WebhookEndpointWithSecret>('/api/integration/webhooks', { method: 'POST', body });

/** A new secret, this once; the replaced one keeps signing beside it for 24 hours. */
export const rotateWebhookSecret = (id: number) =>
  api<WebhookEndpointWithSecret>(`/api/integration/webhooks/${id}`, {
    method: 'PATCH',
    body: { rotate_secret: true },
  });

/** Pauses (events are not sent to it) or resumes an endpoint. */
export const setWebhookActive = (id: number, isActive: boolean) =>
  api<WebhookEndpoint>(`/api/integration/webhooks/${id}`, {
    method: 'PATCH',
    body: { is_active: isActive },
  });

/** Deletes the endpoint with its delivery log. */
export const deleteWebhook = (id: number) =>
  api<undefined>(`/api/integration/webhooks/${id}`, { method: 'DELETE' });
