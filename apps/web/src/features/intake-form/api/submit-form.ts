import { submitFormResponseSchema, type InputData } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/submit` (SPEC § 7): the answer must be `{ status: 'ok' }` (anything else fails the
 * schema and rejects); 404 when the link is not valid any more.
 */
export async function submitForm(token: string, inputData: InputData): Promise<void> {
  await apiRequest('POST', '/submit', {
    body: { token, inputData },
    schema: submitFormResponseSchema,
  });
}
