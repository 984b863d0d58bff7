import type { Patient } from '@marpe/shared';
import { normaliseIdNumber, OTP_RESEND_SECONDS } from '@marpe/shared/rules';
import { create } from 'zustand';
import { ApiError } from '../../../lib/api-client';
import { verificationStorageKey } from '../../../lib/auth-storage-keys';
import { onLogout, useSessionStore } from '../../../lib/patient-session/session-store';
import { login } from '../api/login';
import { signUp } from '../api/sign-up';
import { verifyTwoFactor } from '../api/verify-two-factor';

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

/**
 * The login flow's code (docs/product/login.md#steps): sent, resent, verified. A verified code
 * becomes the session (lib/patient-session), which the other pages read.
 */
export interface VerificationState {
  twoFactorToken: string | null;
  /** Normalised (9 digits): the one the code was sent for. */
  idNumber: string | null;
  verification: PendingVerification | null;
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

/** No code on its way: after a verified code or a logout, and on the server. */
const noCode = { twoFactorToken: null, idNumber: null, verification: null } as const;

/** The state a page load starts from: any code on its way, from sessionStorage. */
export function initialVerificationState(): Pick<
  VerificationState,
  'twoFactorToken' | 'idNumber' | 'verification'
> {
  // Rendered on the server (ADR 021): no code is on its way there.
  if (typeof window === 'undefined') return noCode;
  const stored = readStoredVerification();
  return {
    twoFactorToken: stored?.twoFactorToken ?? null,
    idNumber: stored ? normaliseIdNumber(stored.verification.idNumber) : null,
    verification: stored?.verification ?? null,
  };
}

function resendAfterCountdown(): number {
  return Date.now() + OTP_RESEND_SECONDS * 1000;
}

export const useVerificationStore = create<VerificationState>()((set, get) => {
  onLogout(() => set(noCode));

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
    ...initialVerificationState(),

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
        storeVerification(null, null);
        set({ twoFactorToken: null, verification: null });
        useSessionStore.getState().signedIn(token, patient);
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
      set({ twoFactorToken: null, verification: null });
    },

    resumeVerification: codeSent,
  };
});
