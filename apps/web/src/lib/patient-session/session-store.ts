import type { Patient } from '@marpe/shared';
import { create } from 'zustand';
import { ApiError } from '../api-client';
import { tokenStorageKey, verificationStorageKey } from '../auth-storage-keys';
import { getPatient } from './get-patient';
import { logout } from './logout';

/** 'unchecked': a stored token has not been tried yet; 'checking': it is being tried. */
export type SessionCheck = 'unchecked' | 'checking' | 'checked';

/**
 * The patient's session, which every page of a clinic reads. How a patient becomes known, the
 * login flow's code and its steps, is the patient-auth feature's (its verification store), which
 * hands the session over here with `signedIn`.
 */
export interface SessionState {
  /** The session token, also kept in localStorage under 'token' (docs/product/login.md#session). */
  token: string | null;
  patient: Patient | null;
  /** How the patient became known: a stored session, or a code verified on this page load. */
  authenticatedBy: 'session' | 'code' | null;
  session: SessionCheck;
  /** The stored token's patient; a token the server refuses is dropped silently. */
  fetchPatient: () => Promise<void>;
  /** A code was verified: keeps the session's token and its patient. */
  signedIn: (token: string, patient: Patient) => void;
  /**
   * Clears the patient, the stored token and any code on its way (the verification store empties
   * with it), and tells the server.
   */
  logout: () => Promise<void>;
}

/** Nobody logged in: after a logout, and on the server. */
const loggedOut = {
  token: null,
  patient: null,
  authenticatedBy: null,
  session: 'checked',
} as const satisfies Partial<SessionState>;

/** The state a page load starts from: the stored token, not yet checked. */
export function initialSessionState(): Pick<
  SessionState,
  'token' | 'patient' | 'authenticatedBy' | 'session'
> {
  // Rendered on the server (ADR 021): nobody is logged in there. A browser with a session or a
  // code on its way renders such a page afresh instead of hydrating it (ADR 025).
  if (typeof window === 'undefined') return loggedOut;
  const token = window.localStorage.getItem(tokenStorageKey);
  return { token, patient: null, authenticatedBy: null, session: token ? 'unchecked' : 'checked' };
}

const logoutListeners = new Set<() => void>();

/**
 * Calls `listener` at every logout: what keeps a login's state of its own in memory (the login
 * flow's pending code) forgets it too. The stored code is removed here, whether or not that code
 * was ever loaded.
 */
export function onLogout(listener: () => void): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/** A server that answered and refused the token; not a network failure or a server fault. */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export const useSessionStore = create<SessionState>()((set, get) => {
  let patientCheck: Promise<void> | null = null;

  return {
    ...initialSessionState(),

    fetchPatient: () => {
      if (get().session !== 'unchecked') return patientCheck ?? Promise.resolve();
      const token = get().token;
      if (!token) {
        set({ session: 'checked' });
        return Promise.resolve();
      }
      set({ session: 'checking' });
      patientCheck = getPatient()
        .then((patient) => set({ patient, authenticatedBy: 'session', session: 'checked' }))
        .catch((error: unknown) => {
          // A token the server refused is dropped; an unreachable or failing server is no proof
          // the session ended, so the token stays for the next load (see ADR 006).
          if (isRefusal(error) && window.localStorage.getItem(tokenStorageKey) === token) {
            window.localStorage.removeItem(tokenStorageKey);
            set({ token: null });
          }
          set({ session: 'checked' });
        })
        .finally(() => {
          patientCheck = null;
        });
      return patientCheck;
    },

    signedIn: (token, patient) => {
      window.localStorage.setItem(tokenStorageKey, token);
      set({ token, patient, authenticatedBy: 'code', session: 'checked' });
    },

    logout: async () => {
      // The request reads the stored token as it starts, so everything can be cleared at once.
      const request = logout();
      window.localStorage.removeItem(tokenStorageKey);
      window.sessionStorage.removeItem(verificationStorageKey);
      set(loggedOut);
      for (const listener of logoutListeners) listener();
      try {
        await request;
      } catch {
        // Already logged out on the server (401) or unreachable: nothing is left here either way.
      }
    },
  };
});
