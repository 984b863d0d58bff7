import type { SignUpBody, TwoFactorTokenResponse } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

export type { SignUpBody };

/**
 * `POST /api/patient-auth/sign-up` (docs/product/login.md#calls): registers a new patient and sends
 * a code.
 */
export function signUp(body: SignUpBody): Promise<TwoFactorTokenResponse> {
  return apiRequest('POST', '/patient-auth/sign-up', { body });
}
