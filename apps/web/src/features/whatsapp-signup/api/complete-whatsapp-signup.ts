import type { WaSignupBody } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/wa-signup` (docs/product/connections.md#whatsapp-sign-up): the server exchanges the
 * code with Meta and connects the clinic of the link. 400 when the link is unknown, used or
 * expired; 502 when Meta refuses.
 */
export async function completeWhatsAppSignup(body: WaSignupBody): Promise<void> {
  await apiRequest('POST', '/wa-signup', { body });
}
