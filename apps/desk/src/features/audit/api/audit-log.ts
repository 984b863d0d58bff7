import type { ApiKey, AuditLogEntry, StaffList } from '@marpe/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const AUDIT_PAGE_SIZE = 50;

/** What the log is narrowed to: the API's filters, instants already in the clinic's zone. */
export interface AuditFilter {
  /** `staff:12`, `api_key:3`, `cli`. */
  actor: string | null;
  /** A prefix: `appointment.`. */
  action: string | null;
  /** ISO instants, [from, to). */
  from: string | null;
  to: string | null;
}

export const auditKeys = {
  log: ['audit', 'log'] as const,
  staff: ['audit', 'staff'] as const,
  keys: ['audit', 'api-keys'] as const,
};

export function auditLogPath(filter: AuditFilter, before: number | null): string {
  const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  if (filter.actor !== null) query.set('actor', filter.actor);
  if (filter.action !== null) query.set('action', filter.action);
  if (filter.from !== null) query.set('from', filter.from);
  if (filter.to !== null) query.set('to', filter.to);
  if (before !== null) query.set('before', String(before));
  return `/api/integration/audit-log?${query.toString()}`;
}

/** The log, newest first, a page at a time (`before` the last entry shown). */
export const useAuditLog = (filter: AuditFilter) =>
  useInfiniteQuery({
    queryKey: [...auditKeys.log, filter],
    queryFn: ({ pageParam, signal }) =>
      api<AuditLogEntry[]>(auditLogPath(filter, pageParam), { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length < AUDIT_PAGE_SIZE ? null : (last[last.length - 1]?.id ?? null),
  });

/** The staff members, to pick one as the actor. */
export const useAuditStaff = () =>
  useQuery({
    queryKey: auditKeys.staff,
    queryFn: ({ signal }) => api<StaffList>('/api/integration/staff', { signal }),
    staleTime: 60_000,
  });

/** The clinic's API keys (revoked ones too: their past actions stay in the log). */
export const useAuditKeys = () =>
  useQuery({
    queryKey: auditKeys.keys,
    queryFn: ({ signal }) => api<ApiKey[]>('/api/integration/api-keys', { signal }),
    staleTime: 60_000,
  });
