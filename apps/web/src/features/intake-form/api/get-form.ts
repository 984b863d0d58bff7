import type { GetFormResponse } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/get-form` (docs/product/intake-form.md#calls): the form behind a link, and the answers
 * saved as its draft; 404 when the link is not valid.
 */
export async function getForm(token: string, signal?: AbortSignal): Promise<GetFormResponse> {
  return apiRequest('POST', '/get-form', {
    body: { token },
    signal,
  });
}

/** The query of the form behind a link; the server fills it for a page it renders (ADR 021). */
export function intakeFormQueryKey(token: string) {
  return ['intake-form', token] as const;
}
