import type {
  CreatedPaymentRequest,
  CreatePaymentRequestBody,
  IntegrationPatient,
  PaymentRequest,
  PaymentRequestStage,
  PaymentTransaction,
} from '@marpe/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';

/** While the page is open, a patient's payment shows up within a few seconds. */
export const PAYMENTS_REFRESH_MS = 3000;
export const PAYMENTS_PAGE_SIZE = 25;

export const paymentRequestsKey = ['payments', 'requests'] as const;

/** The clinic's payment requests, newest first, a page at a time (`before` the last one's id). */
export const usePaymentRequests = (stage: PaymentRequestStage | null) =>
  useInfiniteQuery({
    queryKey: [...paymentRequestsKey, stage] as const,
    queryFn: ({ pageParam, signal }) =>
      api<PaymentRequest[]>(
        `/api/integration/payment-requests?${new URLSearchParams({
          limit: String(PAYMENTS_PAGE_SIZE),
          ...(stage ? { stage } : {}),
          ...(pageParam === null ? {} : { before: String(pageParam) }),
        })}`,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length < PAYMENTS_PAGE_SIZE ? undefined : (last.at(-1)?.id ?? undefined),
    refetchInterval: PAYMENTS_REFRESH_MS,
    placeholderData: (previous) => previous,
  });

/** A new payment link (sent to `send_to_phone` when given); its url is in this answer only. */
export const createPaymentRequest = (body: CreatePaymentRequestBody) =>
  api<CreatedPaymentRequest>('/api/integration/payment-requests', { method: 'POST', body });

/** Cancels a pending (or expired) request: its link stops working. 409 once it is paid. */
export const cancelPaymentRequest = (id: number) =>
  api<PaymentRequest>(`/api/integration/payment-requests/${id}/cancel`, { method: 'POST' });

/** The card attempts on a request, oldest first; live while shown. */
export const usePaymentTransactions = (id: number | null) =>
  useQuery({
    queryKey: ['payments', 'transactions', id] as const,
    queryFn: ({ signal }) =>
      api<PaymentTransaction[]>(`/api/integration/payment-requests/${id}/transactions`, {
        signal,
      }),
    enabled: id !== null,
    refetchInterval: PAYMENTS_REFRESH_MS,
  });

/**
 * The patient a page was opened for (`?send=<idNumber>`): by ID number, or, where the server has no
 * such route, the search's exact match. null when the clinic has no such patient.
 */
export async function findPatient(
  idNumber: string,
  signal?: AbortSignal,
): Promise<IntegrationPatient | null> {
  try {
    return await api<IntegrationPatient>(
      `/api/integration/patients/${encodeURIComponent(idNumber)}`,
      { signal },
    );
  } catch (failure) {
    if (!(failure instanceof ApiError) || failure.status !== 404) throw failure;
    if (failure.code === 'patient_not_found') return null;
  }
  const found = await api<IntegrationPatient[]>(
    `/api/integration/patients?${new URLSearchParams({ q: idNumber, limit: '10' })}`,
    { signal },
  );
  const bare = idNumber.replace(/^0+/, '');
  return found.find((p) => p.id_number.replace(/^0+/, '') === bare) ?? null;
}

export const usePatientToSend = (idNumber: string | null) =>
  useQuery({
    queryKey: ['payments', 'patient', idNumber] as const,
    queryFn: ({ signal }) => findPatient(idNumber ?? '', signal),
    enabled: idNumber !== null && idNumber !== '',
    staleTime: 60_000,
  });
