import {
  formRequestStages,
  type CreatedFormRequest,
  type CreateFormRequestBody,
  type FormRequest,
  type FormRequestStage,
  type FormSubmission,
  type ResendFormRequestBody,
  type ResentFormRequest,
} from '@marpe/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** How often a page that shows requests asks again while it is open (states change live). */
export const FORMS_REFRESH_MS = 3000;
export const FORMS_PAGE_SIZE = 25;

export const formRequestsKey = ['forms', 'requests'] as const;

/** The list's filters, as the address holds them. */
export interface FormRequestFilters {
  stage: FormRequestStage | null;
  /** YYYY-MM-DD, the clinic's days. */
  from: string | null;
  to: string | null;
}

export const isStage = (value: string | null): value is FormRequestStage =>
  (formRequestStages as readonly string[]).includes(value ?? '');

/** Stages where the patient may still fill the form in: it can be resent or cancelled. */
export const isPending = (stage: FormRequestStage) =>
  stage === 'sent' || stage === 'opened' || stage === 'draft_saved';

/** The clinic's requests, newest first, a page at a time (`before` the last one shown). */
export const useFormRequests = (filters: FormRequestFilters) =>
  useInfiniteQuery({
    queryKey: [...formRequestsKey, 'list', filters] as const,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(FORMS_PAGE_SIZE) });
      if (filters.stage) query.set('stage', filters.stage);
      if (filters.from) query.set('from', filters.from);
      if (filters.to) query.set('to', filters.to);
      if (pageParam !== null) query.set('before', String(pageParam));
      return api<FormRequest[]>(`/api/integration/form-requests?${query}`, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (page) =>
      page.length < FORMS_PAGE_SIZE ? undefined : (page.at(-1)?.id ?? undefined),
    refetchInterval: FORMS_REFRESH_MS,
  });

/** One request; asked again every few seconds while the patient may still act on it. */
export const useFormRequest = (id: number) =>
  useQuery({
    queryKey: [...formRequestsKey, 'one', id] as const,
    queryFn: ({ signal }) => api<FormRequest>(`/api/integration/form-requests/${id}`, { signal }),
    refetchInterval: (query) => {
      const stage = query.state.data?.stage;
      return stage === undefined || isPending(stage) ? FORMS_REFRESH_MS : false;
    },
    retry: (count, error) => count < 2 && !('status' in error && error.status === 404),
  });

/** What the patient submitted, with the form as they saw it. */
export const useFormSubmission = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: [...formRequestsKey, 'submission', id] as const,
    queryFn: ({ signal }) =>
      api<FormSubmission>(`/api/integration/form-requests/${id}/submission`, { signal }),
    enabled,
    staleTime: Infinity,
  });

/** A new link (sent to `send_to_phone` by the clinic's channel when given). */
export const createFormRequest = (body: CreateFormRequestBody) =>
  api<CreatedFormRequest>('/api/integration/form-requests', { method: 'POST', body });

/** A fresh link for a pending request: the one sent before stops working. */
export const resendFormRequest = (id: number, body: ResendFormRequestBody) =>
  api<ResentFormRequest>(`/api/integration/form-requests/${id}/resend`, { method: 'POST', body });

/** The link stops working; the request stays, cancelled. */
export const cancelFormRequest = (id: number) =>
  api<FormRequest>(`/api/integration/form-requests/${id}/cancel`, { method: 'POST' });
