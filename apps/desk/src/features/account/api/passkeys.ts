import type { StaffPasskey } from '@marpe/shared';
import {
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import type { QueryClient } from '@tanstack/react-query';
import { api, ApiError, SESSION_ENDED, sessionEvents } from '../../../lib/api';
import { sessionQueryKey } from '../../../lib/session';

export const passkeysQueryKey = ['account', 'passkeys'] as const;

export const listPasskeys = () => api<StaffPasskey[]>('/api/staff-auth/passkeys');

/** Makes a passkey on this device (the browser asks for the device's lock) and stores it. */
export async function addPasskey(name: string): Promise<StaffPasskey> {
  const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>(
    '/api/staff-auth/passkeys/registration-options',
    { method: 'POST' },
  );
  const response = await startRegistration({ optionsJSON });
  return api<StaffPasskey>('/api/staff-auth/passkeys', {
    method: 'POST',
    body: { name, response },
  });
}

export const removePasskey = (id: number) =>
  api<undefined>(`/api/staff-auth/passkeys/${id}`, { method: 'DELETE' });

export const signOutEverywhere = () =>
  api<undefined>('/api/staff-auth/sign-out-everywhere', { method: 'POST' });

/**
 * The account's calls go to /api/staff-auth, whose 401 the API client leaves to the caller (it is
 * how sign-in learns no one is signed in). Here a 401 means the session ended mid-work, so it
 * opens the sign-in dialog over the page as any clinic call's would; not after a sign-out here,
 * which has already forgotten the session.
 */
export function reportEndedSession(queryClient: QueryClient, error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  if (!queryClient.getQueryData(sessionQueryKey)) return;
  sessionEvents.dispatchEvent(new Event(SESSION_ENDED));
}
