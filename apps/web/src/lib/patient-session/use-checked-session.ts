import { useEffect } from 'react';
import { useSessionStore } from './session-store';

/**
 * The stored session, checked with the server once the page mounts (docs/product/login.md#session):
 * `session` is 'checked' once `patient` can be trusted, null meaning nobody is logged in.
 */
export function useCheckedSession() {
  const session = useSessionStore((state) => state.session);
  const patient = useSessionStore((state) => state.patient);
  const fetchPatient = useSessionStore((state) => state.fetchPatient);
  useEffect(() => {
    void fetchPatient();
  }, [fetchPatient]);
  return { session, patient };
}
