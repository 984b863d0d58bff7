import type { FormTemplateSummary } from '@marpe/shared';
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
