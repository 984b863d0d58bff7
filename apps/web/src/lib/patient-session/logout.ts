import { apiRequest } from '../api-client';

/**
 * `GET /api/patient-auth/logout` (docs/product/login.md#calls). A session that already expired
 * answers 401, which must not reload the page in the middle of the navigation that logged out.
 */
export async function logout(): Promise<void> {
  await apiRequest('GET', '/patient-auth/logout', {
    reloadOnUnauthorized: false,
  });
}
