import type { StaffPasskey } from '@marpe/shared';
import {
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { api } from '../../../lib/api';

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
