import type { LoginBody, TwoFactorTokenResponse } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

export type { LoginBody, TwoFactorTokenResponse };

/**
 * `POST /api/patient-auth/login` (docs/product/login.md#calls): sends a code to a known patient.
 * Rejects with `invalid_phone` (and a `hint`) when the ID number is known with another phone.
 */
export function login(body: LoginBody): Promise<TwoFactorTokenResponse> {
  return apiRequest('POST', '/patient-auth/login', { body });
}
