import type { ClinicData, GetFormResponse, PaymentRequestData } from '@marpe/shared';
import type { QueryClient } from '@tanstack/react-query';
import { intakeFormQueryKey } from '../features/intake-form/api/get-form';
import {
  paymentRequestQueryKey,
  paymentResultQueryKey,
} from '../features/payment/api/get-payment-request';
import { clinicQueryOptions } from '../lib/clinic/get-clinic';
import { createQueryClient } from './providers';

/**
 * What a page rendered on the server was rendered with (ADR 021). The server writes it into the
 * page as JSON in `<script type="application/json" id="marpe-data">` (data, never run, so the
 * CSP needs no inline script); the browser reads it before hydrating, so that its first render
 * shows what the HTML shows.
 */
export interface PageData {
  /** The clinic page's `GET /api/clinic/:id` answer. */
  clinic?: ClinicData;
  /** The payment page's `POST /api/get-payment-request` answer, for the link's token. */
  paymentRequest?: { token: string; data: PaymentRequestData };
  /**
   * The payment result page's request: the same answer, or null when the link is not valid (that
   * route's 404).
   */
  paymentResult?: { token: string; data: PaymentRequestData | null };
  /** The form page's `POST /api/get-form` answer (the form and its draft), for the link's token. */
  intakeForm?: { token: string; data: GetFormResponse };
  /**
   * The address the HTML was rendered for, when the server sent it at another: the appointments
   * page of a patient without a session is the login page, where the app would send them.
   */
  path?: string;
}

export const pageDataElementId = 'marpe-data';

/** A query client that already holds the page's data, as the page's own queries key it. */
export function pageDataQueryClient(data: PageData): QueryClient {
  const queryClient = createQueryClient();
  if (data.clinic) {
    queryClient.setQueryData(clinicQueryOptions(data.clinic.clinic.id).queryKey, data.clinic);
  }
  if (data.paymentRequest) {
    const { token, data: request } = data.paymentRequest;
    queryClient.setQueryData(paymentRequestQueryKey(token), request);
  }
  if (data.paymentResult) {
    const { token, data: request } = data.paymentResult;
    queryClient.setQueryData(paymentResultQueryKey(token), request);
  }
  if (data.intakeForm) {
    const { token, data: form } = data.intakeForm;
    queryClient.setQueryData(intakeFormQueryKey(token), form);
  }
  return queryClient;
}

/** The page's data from its HTML; none on a page the server did not render with any. */
export function readPageData(doc: Document): PageData {
  const text = doc.getElementById(pageDataElementId)?.textContent;
  return text ? (JSON.parse(text) as PageData) : {};
}
