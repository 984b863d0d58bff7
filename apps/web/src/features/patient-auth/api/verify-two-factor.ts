import type { TwoFactorBody, TwoFactorResponse } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

export type { TwoFactorBody, TwoFactorResponse };

/**
 * `POST /api/patient-auth/two-factor` (docs/product/login.md#calls): the code against the
 * two-factor token; answers the patient and the session token. 400: the token is unknown, expired
 * or used; 404: wrong code; 429: too many tries.
 */
export function verifyTwoFactor(body: TwoFactorBody): Promise<TwoFactorResponse> {
  return apiRequest('POST', '/patient-auth/two-factor', { body });
}
