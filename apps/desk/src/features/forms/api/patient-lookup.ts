import type { IntegrationPatient } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * One of the clinic's patients by ID number: the patient's own address when the API has it, else
 * the search's exact match; null when the clinic has no such patient.
 */
export async function findPatient(
  idNumber: string,
  signal?: AbortSignal,
): Promise<IntegrationPatient | null> {
  const wanted = idNumber.trim().padStart(9, '0');
  try {
    const patient = await api<IntegrationPatient>(
      `/api/integration/patients/${encodeURIComponent(wanted)}`,
      { signal },
    );
    if (patient.id_number === wanted) return patient;
  } catch {
    // Not there (or not answered): the search finds them too.
  }
  const found = await api<IntegrationPatient[]>(
    `/api/integration/patients?${new URLSearchParams({ q: wanted, limit: '5' })}`,
    { signal },
  );
  return found.find((p) => p.id_number === wanted) ?? null;
}

export const usePatientByIdNumber = (idNumber: string | null) =>
  useQuery({
    queryKey: ['forms', 'patient', idNumber] as const,
    queryFn: ({ signal }) => findPatient(idNumber ?? '', signal),
    enabled: idNumber !== null && idNumber !== '',
    staleTime: 30_000,
  });
