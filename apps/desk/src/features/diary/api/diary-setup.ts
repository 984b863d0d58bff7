import type {
  Closure,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationClinic,
} from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

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

/** The clinic's closures from today on (the set-up's closures step). */
export const useDiaryClosures = () =>
  useQuery({
    queryKey: diarySetupKeys.closures,
    queryFn: () => api<Closure[]>('/api/integration/closures'),
    staleTime: 5 * 60_000,
  });
