import type {
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationClinic,
} from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';

/** A day the whole clinic is closed (set-up's closures); the desk reads only these fields. */
export interface ClinicClosure {
  date: string;
  note?: string | null;
}

/** What the diary is drawn from: the clinic (its time zone), caregivers, types and closures. */
export const diarySetupKeys = {
  clinic: ['diary', 'clinic'] as const,
  caregivers: ['diary', 'caregivers'] as const,
  types: ['diary', 'appointment-types'] as const,
  closures: ['diary', 'closures'] as const,
};

export const useDiaryClinic = () =>
  useQuery({
    queryKey: diarySetupKeys.clinic,
    queryFn: () => api<IntegrationClinic>('/api/integration/clinic'),
    staleTime: 5 * 60_000,
  });

export const useDiaryCaregivers = () =>
  useQuery({
    queryKey: diarySetupKeys.caregivers,
    queryFn: () => api<IntegrationCaregiver[]>('/api/integration/caregivers'),
    staleTime: 60_000,
  });

export const useDiaryTypes = () =>
  useQuery({
    queryKey: diarySetupKeys.types,
    queryFn: () => api<IntegrationAppointmentType[]>('/api/integration/appointment-types'),
    staleTime: 60_000,
  });

/** The clinic's closures; a server without the route yet (404) has none. */
export const useDiaryClosures = () =>
  useQuery({
    queryKey: diarySetupKeys.closures,
    queryFn: async (): Promise<ClinicClosure[]> => {
      try {
        const answer = await api<unknown>('/api/integration/closures');
        const list = Array.isArray(answer)
          ? answer
          : Array.isArray((answer as { items?: unknown })?.items)
            ? (answer as { items: unknown[] }).items
            : [];
        return list.filter(
          (item): item is ClinicClosure => typeof (item as ClinicClosure | null)?.date === 'string',
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
