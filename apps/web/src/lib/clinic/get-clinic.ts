import type { ClinicData } from '@marpe/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api-client';

export type { ClinicData };

/**
 * `GET /api/clinic/:id` (docs/product/clinic-page.md#clinic-data): the clinic, its caregivers and
 * its appointment types.
 */
export function getClinic(clinicId: number, signal?: AbortSignal): Promise<ClinicData> {
  return apiRequest('GET', `/clinic/${clinicId}`, { signal });
}

export function clinicQueryOptions(clinicId: number) {
  return queryOptions({
    queryKey: ['clinic', clinicId],
    queryFn: ({ signal }) => getClinic(clinicId, signal),
  });
}

/** The clinic's data; `null` (an id that cannot exist) fetches nothing. */
export function useClinic(clinicId: number | null) {
  return useQuery({
    ...clinicQueryOptions(clinicId ?? 0),
    enabled: clinicId !== null,
  });
}

/** A clinic id from the address: a positive integer, else `null` (the clinic cannot exist). */
export function parseClinicId(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d*$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : null;
}
