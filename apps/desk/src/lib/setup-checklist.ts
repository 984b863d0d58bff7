import type { SetupChecklist } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** The set-up checklist's query: the set-up pages show it, the home page reads readiness from it. */
export const setupChecklistQueryKey = ['setup', 'checklist'] as const;

export const getSetupChecklist = () => api<SetupChecklist>('/api/integration/setup');

export const useSetupChecklist = (options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: setupChecklistQueryKey,
    queryFn: getSetupChecklist,
    enabled: options.enabled ?? true,
  });
