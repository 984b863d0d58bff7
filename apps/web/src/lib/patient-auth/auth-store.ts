import type { Patient } from '@marpe/shared';
import { normaliseIdNumber, OTP_RESEND_SECONDS } from '@marpe/shared/rules';
import { create } from 'zustand';
import { ApiError } from '../api-client';
import { tokenStorageKey, verificationStorageKey } from '../auth-storage-keys';
import { getPatient } from './get-patient';
import { login } from './login';
import { logout } from './logout';
import { signUp } from './sign-up';
import { verifyTwoFactor } from './verify-two-factor';

export type VerificationMode = 'login' | 'signUp';

export interface LoginRequest {
  clinicId: number;
  idNumber: string;
  phone: string;
}

export interface SignUpRequest extends LoginRequest {
  firstName: string;
  lastName: string;
}

/** Names the patient typed before the login succeeded are kept with the pending code all the same. */
export type LoginWithNames = LoginRequest & Partial<Pick<SignUpRequest, 'firstName' | 'lastName'>>;

/**
 * A code that was sent and not yet used: what the patient typed (as typed, so a reload shows the
 * same), and when the next code may be asked for. Kept in sessionStorage with the two-factor token.
 */
export interface PendingVerification extends SignUpRequest {
  mode: VerificationMode;
  /** Epoch milliseconds from which the code may be sent again. */
  resendAt: number;
}

/** 'unchecked': a stored token has not been tried yet; 'checking': it is being tried. */
export type SessionCheck = 'unchecked' | 'checking' | 'checked';

export interface AuthState {
  /** The session token, also kept in localStorage under 'token' (docs/product/login.md#session). */
  token: string | null;
  patient: Patient | null;
  /** How the patient became known: a stored session, or a code verified on this page load. */
  authenticatedBy: 'session' | 'code' | null;
  twoFactorToken: string | null;
  /** Normalised (9 digits): the one the code was sent for. */
  idNumber: string | null;
  verification: PendingVerification | null;
  session: SessionCheck;
  /** The stored token's patient; a token the server refuses is dropped silently. */
  fetchPatient: () => Promise<void>;
  /** Sends a code to a known patient. Rejects with the ApiError (invalid_phone carries a hint). */
  login: (request: LoginWithNames) => Promise<void>;
  /** Registers a new patient and sends a code. */
  signUp: (request: SignUpRequest) => Promise<void>;
  /** Sends a new code the way the pending one was sent. */
  resendCode: () => Promise<void>;
  /**
   * Trades the code for a session. On 400 the two-factor token is dropped (the code can be sent
   * again at once); on 404 (wrong code) the resend countdown starts over. Rejects with the error.
   */
  verifyCode: (code: string) => Promise<Patient>;
  /** Forgets the code that was sent (the patient went back from the code step). */
  cancelVerification: () => void;
  /**
   * Takes back a code forgotten by going back from the code step, which the server still takes:
   * a new one was refused for now (429), and the patient returns to type this one.
   */
  resumeVerification: (verification: PendingVerification, twoFactorToken: string) => void;
  /** Clears patient, tokens, ID number and the stored token, and tells the server. */
  logout: () => Promise<void>;
}

function isPendingVerification(value: unknown): value is PendingVerification {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.clinicId === 'number' &&
    (v.mode === 'login' || v.mode === 'signUp') &&
    typeof v.idNumber === 'string' &&
    typeof v.phone === 'string' &&
    typeof v.firstName === 'string' &&
    typeof v.lastName === 'string' &&
    typeof v.resendAt === 'number'
  );
}

interface StoredVerification {
  verification: PendingVerification;
  twoFactorToken: string | null;
}

function readStoredVerification(): StoredVerification | null {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(verificationStorageKey) ?? '');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { twoFactorToken, ...verification } = parsed as Record<string, unknown>;
    if (!isPendingVerification(verification)) return null;
    return {
      verification,
      twoFactorToken: typeof twoFactorToken === 'string' ? twoFactorToken : null,
    };
  } catch {
    return null;
  }
}

function storeVerification(
  verification: PendingVerification | null,
  twoFactorToken: string | null,
) {
  if (verification) {
    window.sessionStorage.setItem(
      verificationStorageKey,
      JSON.stringify({ ...verification, twoFactorToken }),
    );
  } else {
    window.sessionStorage.removeItem(verificationStorageKey);
  }
}

/** Nobody logged in and no code on its way: after a logout, and on the server. */
const loggedOut = {
  token: null,
  patient: null,
  authenticatedBy: null,
  twoFactorToken: null,
  idNumber: null,
  verification: null,
  session: 'checked',
} as const satisfies Partial<AuthState>;

/** The state a page load starts from: the stored token (not yet checked) and any pending code. */
export function initialAuthState(): Pick<
  AuthState,
  | 'token'
  | 'patient'
  | 'authenticatedBy'
  | 'twoFactorToken'
  | 'idNumber'
  | 'verification'
  | 'session'
> {
  // Rendered on the server (ADR 021): nobody is logged in there. A browser with a session or a
  // code on its way renders such a page afresh instead of hydrating it (ADR 025).
  if (typeof window === 'undefined') return loggedOut;
  const stored = readStoredVerification();
  const token = window.localStorage.getItem(tokenStorageKey);
  return {
    token,
    patient: null,
    authenticatedBy: null,
    twoFactorToken: stored?.twoFactorToken ?? null,
    idNumber: stored ? normaliseIdNumber(stored.verification.idNumber) : null,
    verification: stored?.verification ?? null,
    session: token ? 'unchecked' : 'checked',
  };
}

function resendAfterCountdown(): number {
  return Date.now() + OTP_RESEND_SECONDS * 1000;
}

/** A server that answered and refused the token; not a network failure or a server fault. */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export const useAuthStore = create<AuthState>()((set, get) => {
  let patientCheck: Promise<void> | null = null;

  function codeSent(verification: PendingVerification, twoFactorToken: string) {
    storeVerification(verification, twoFactorToken);
    set({ verification, twoFactorToken, idNumber: normaliseIdNumber(verification.idNumber) });
  }

  function updateVerification(
    changes: Partial<PendingVerification>,
    twoFactorToken: string | null,
  ) {
    const current = get().verification;
    const verification = current ? { ...current, ...changes } : null;
    storeVerification(verification, twoFactorToken);
    set({ verification, twoFactorToken });
  }

  async function sendLogin({ firstName = '', lastName = '', ...request }: LoginWithNames) {
    const { twoFactorToken } = await login({
      clinicId: request.clinicId,
      idNumber: request.idNumber,
      phone: request.phone,
    });
    codeSent(
      { ...request, firstName, lastName, mode: 'login', resendAt: resendAfterCountdown() },
      twoFactorToken,
    );
  }

  async function sendSignUp(request: SignUpRequest) {
    const { twoFactorToken } = await signUp({
      clinicId: request.clinicId,
      idNumber: request.idNumber,
      phone: request.phone,
      firstName: request.firstName,
      lastName: request.lastName,
    });
    codeSent({ ...request, mode: 'signUp', resendAt: resendAfterCountdown() }, twoFactorToken);
  }

  return {
    ...initialAuthState(),

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

    login: sendLogin,

    signUp: sendSignUp,

    resendCode: async () => {
      const verification = get().verification;
      if (!verification) throw new Error('resendCode without a pending verification');
      if (verification.mode === 'signUp') await sendSignUp(verification);
      else await sendLogin(verification);
    },

    verifyCode: async (code) => {
      const { idNumber, twoFactorToken } = get();
      if (!idNumber || !twoFactorToken) throw new Error('verifyCode without a code sent');
      try {
        const { patient, token } = await verifyTwoFactor({ idNumber, code, twoFactorToken });
        window.localStorage.setItem(tokenStorageKey, token);
        storeVerification(null, null);
        set({
          token,
          patient,
          authenticatedBy: 'code',
          twoFactorToken: null,
          verification: null,
          session: 'checked',
        });
        return patient;
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) {
          updateVerification({ resendAt: Date.now() }, null);
        } else if (error instanceof ApiError && error.status === 404) {
          updateVerification({ resendAt: resendAfterCountdown() }, twoFactorToken);
        }
        throw error;
      }
    },

    cancelVerification: () => {
      storeVerification(null, null);
      set({ verification: null, twoFactorToken: null });
    },

    resumeVerification: codeSent,

    logout: async () => {
      // The request reads the stored token as it starts, so everything can be cleared at once.
      const request = logout();
      window.localStorage.removeItem(tokenStorageKey);
      storeVerification(null, null);
      set(loggedOut);
      try {
        await request;
      } catch {
        // Already logged out on the server (401) or unreachable: nothing is left here either way.
      }
    },
  };
});
