import { getFormResponseSchema, type IntakeFormData } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/get-form` (SPEC § 7): the form behind a link; 404 when the link is not valid. */
export async function getForm(token: string, signal?: AbortSignal): Promise<IntakeFormData> {
  const { data } = await apiRequest('POST', '/get-form', {
    body: { token },
    schema: getFormResponseSchema,
    signal,
  });
  return data;
}
