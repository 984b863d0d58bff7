import type { ShaamAuthResponse } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/shaam-auth` (docs/product/connections.md#tax-authority-callback): the server checks
 * the state and exchanges the code; the answer's `url` is where the clinic asked the browser to go
 * back to.
 */
export async function completeShaamAuth(code: string, state: string): Promise<string> {
  const { url } = await apiRequest<ShaamAuthResponse>('POST', '/shaam-auth', {
    body: { code, state },
  });
  return url;
}
