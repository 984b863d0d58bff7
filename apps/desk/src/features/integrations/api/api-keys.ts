import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const apiKeysQueryKey = ['integrations', 'api-keys'] as const;

/** The clinic's keys, revoked ones included (never the keys themselves). */
export const useApiKeys = () =>
  useQuery({
    queryKey: apiKeysQueryKey,
    queryFn: () => api<ApiKey[]>('/api/integration/api-keys'),
  });

/** A new key: the answer holds it, this once. */
export const createApiKey = (body: CreateApiKeyBody) =>
  api<CreatedApiKey>('/api/integration/api-keys', { method: 'POST', body });

/** Revokes a key at once; 404 for one already revoked. */
export const revokeApiKey = (id: number) =>
  api<undefined>(`/api/integration/api-keys/${id}`, { method: 'DELETE' });
