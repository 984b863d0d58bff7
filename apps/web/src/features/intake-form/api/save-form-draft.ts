import type { FormDraft } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/save-form-draft`: the link's unsent answers and step, kept on the server so that
 * nothing stays on the device; 404 when the link is not valid any more.
 */
export async function saveFormDraft(token: string, draft: FormDraft): Promise<void> {
  await apiRequest('POST', '/save-form-draft', {
    body: { token, ...draft },
  });
}
