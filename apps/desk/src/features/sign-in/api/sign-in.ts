import type {
  StaffInvitationView,
  StaffSession,
  StaffSignInBody,
  StaffTwoFactorBody,
  TwoFactorTokenResponse,
} from '@marpe/shared';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api } from '../../../lib/api';

export const requestCode = (body: StaffSignInBody) =>
  api<TwoFactorTokenResponse>('/api/staff-auth/sign-in', { method: 'POST', body });

export const verifyCode = (body: StaffTwoFactorBody) =>
  api<StaffSession>('/api/staff-auth/two-factor', { method: 'POST', body });

export const getInvitation = (token: string) =>
  api<StaffInvitationView>(`/api/staff-auth/invitations/${encodeURIComponent(token)}`);

export const requestInvitationCode = (token: string) =>
  api<TwoFactorTokenResponse>(`/api/staff-auth/invitations/${encodeURIComponent(token)}/code`, {
    method: 'POST',
  });

export const canUsePasskeys = (): boolean => browserSupportsWebAuthn();

/** Signs in with a passkey of this site: the browser asks which, and for the device's lock. */
export async function signInWithPasskey(): Promise<StaffSession> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>(
    '/api/staff-auth/passkey-sign-in/options',
    { method: 'POST' },
  );
  const response = await startAuthentication({ optionsJSON });
  return api<StaffSession>('/api/staff-auth/passkey-sign-in', {
    method: 'POST',
    body: { response },
  });
}
