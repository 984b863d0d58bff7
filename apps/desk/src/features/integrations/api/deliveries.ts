import type { WebhookDelivery, WebhookDeliveryStatus } from '@marpe/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const DELIVERIES_PAGE_SIZE = 20;

export const deliveriesQueryKey = ['integrations', 'webhook-deliveries'] as const;

export interface DeliveryFilter {
  endpointId: number | null;
  status: WebhookDeliveryStatus | null;
}

function deliveriesPath(filter: DeliveryFilter, before: number | null): string {
  const query = new URLSearchParams({ limit: String(DELIVERIES_PAGE_SIZE) });
  if (filter.endpointId !== null) query.set('endpoint_id', String(filter.endpointId));
  if (filter.status !== null) query.set('status', filter.status);
  if (before !== null) query.set('before', String(before));
  return `/api/integration/webhook-deliveries?${query.toString()}`;
}

/**
 * The delivery log, newest first, page by page (`before` the last one shown); live while the
 * page is open, since deliveries change state by themselves.
 */
export const useDeliveries = (filter: DeliveryFilter) =>
  useInfiniteQuery({
    queryKey: [...deliveriesQueryKey, filter],
    queryFn: ({ pageParam, signal }) =>
      api<WebhookDelivery[]>(deliveriesPath(filter, pageParam), { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length < DELIVERIES_PAGE_SIZE ? null : (last[last.length - 1]?.id ?? null),
    refetchInterval: 3000,
  });

/**
 * Sends a failed delivery again (the same event, signed with the address's current secret): it
 * answers the delivery, pending once more. 409 (`details.reason`) when it cannot be.
 */
export const retryDelivery = (id: number) =>
  api<WebhookDelivery>(`/api/integration/webhook-deliveries/${id}/retry`, { method: 'POST' });
