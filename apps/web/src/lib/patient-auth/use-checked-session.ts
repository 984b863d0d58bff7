import { useEffect } from 'react';
import { useAuthStore } from './auth-store';

/**
 * The stored session, checked with the server once the page mounts (docs/product/login.md#session):
 * `session` is 'checked' once `patient` can be trusted, null meaning nobody is logged in.
 */
export function useCheckedSession() {
  const session = useAuthStore((state) => state.session);
  const patient = useAuthStore((state) => state.patient);
  const fetchPatient = useAuthStore((state) => state.fetchPatient);
  useEffect(() => {
    void fetchPatient();
  }, [fetchPatient]);
  return { session, patient };
}
