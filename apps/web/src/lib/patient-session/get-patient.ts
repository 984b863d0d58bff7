import type { Patient } from '@marpe/shared';
import { apiRequest } from '../api-client';

export type { Patient };

/**
 * `GET /api/patient-auth` (docs/product/login.md#calls): the patient of the stored session. A 401
 * is the caller's to handle (a stale token is dropped silently, docs/product/login.md#session), not
 * a reason to reload the page.
 */
export function getPatient(signal?: AbortSignal): Promise<Patient> {
  return apiRequest('GET', '/patient-auth', {
    signal,
    reloadOnUnauthorized: false,
  });
}
