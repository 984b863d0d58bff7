import type { FormTemplateSummary, IntegrationClinic } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The clinic's form templates, oldest first. */
export const useFormTemplates = (enabled = true) =>
  useQuery({
    queryKey: ['forms', 'templates'] as const,
    queryFn: ({ signal }) =>
      api<FormTemplateSummary[]>('/api/integration/form-templates', { signal }),
    enabled,
    staleTime: 60_000,
  });

/** The clinic: its time zone (dates shown, days filtered) and the channel its messages go by. */
export const useFormsClinic = () =>
  useQuery({
    queryKey: ['forms', 'clinic'] as const,
    queryFn: ({ signal }) => api<IntegrationClinic>('/api/integration/clinic', { signal }),
    staleTime: 5 * 60_000,
  });

export const useClinicTimeZone = (): string => useFormsClinic().data?.timezone ?? 'Asia/Jerusalem';
