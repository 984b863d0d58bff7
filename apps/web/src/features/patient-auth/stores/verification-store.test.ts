import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client';
import { initialSessionState, useSessionStore } from '../../../lib/patient-session/session-store';
import { apiError, json, stubApi } from '../../../test/fake-api';
import {
  initialVerificationState,
  useVerificationStore,
  type PendingVerification,
} from './verification-store';

const patient = { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' };
const reload = vi.fn();

function pending(changes: Partial<PendingVerification> = {}): PendingVerification {
  return {
    clinicId: 1,
    mode: 'login',
    idNumber: '39845125',
    phone: '050-1234567',
    firstName: '',
    lastName: '',
    resendAt: Date.now() + 60_000,
    ...changes,
  };
}

/** The stores as a page load starts them. */
function startPage() {
  useSessionStore.setState(initialSessionState());
  useVerificationStore.setState(initialVerificationState());
  return useVerificationStore.getState();
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api', reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  reload.mockReset();
  sessionStorage.clear();
});

describe('verification store: page load', () => {
  it('resumes a pending code from sessionStorage, and ignores a broken one', () => {
    sessionStorage.setItem(
      'verification',
      JSON.stringify({ ...pending(), twoFactorToken: 'tft-1' }),
    );
    expect(startPage()).toMatchObject({
      verification: pending({ resendAt: expect.any(Number) as number }),
      twoFactorToken: 'tft-1',
      idNumber: '039845125',
    });

    sessionStorage.setItem('verification', '{"mode":"login"');
    expect(startPage()).toMatchObject({ verification: null, twoFactorToken: null });
    sessionStorage.setItem('verification', JSON.stringify({ ...pending(), mode: 'other' }));
    expect(startPage()).toMatchObject({ verification: null, twoFactorToken: null });
  });
});

describe('verification store', () => {
  it('login keeps the two-factor token, the normalised ID number and the pending code', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z') });
    const { callsTo } = stubApi({
      'POST /api/patient-auth/login': () => json({ twoFactorToken: 'tft-1' }),
    });
    await startPage().login({ clinicId: 1, idNumber: '39845125', phone: '050-1234567' });

    expect(callsTo('POST /api/patient-auth/login')[0]?.body).toEqual({
      clinicId: 1,
      idNumber: '39845125',
      phone: '050-1234567',
    });
    const expected = pending({ resendAt: Date.now() + 60_000 });
    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: 'tft-1',
      idNumber: '039845125',
      verification: expected,
    });
    expect(JSON.parse(sessionStorage.getItem('verification') ?? '')).toEqual({
      ...expected,
      twoFactorToken: 'tft-1',
    });
  });

  it('a refused login leaves nothing pending and rejects with the error', async () => {
    stubApi({
      'POST /api/patient-auth/login': () => apiError(400, 'invalid_phone', { hint: '567' }),
    });
    await expect(
      startPage().login({ clinicId: 1, idNumber: '39845125', phone: '0529999567' }),
    ).rejects.toMatchObject({ code: 'invalid_phone', hint: '567' });
    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: null,
      verification: null,
    });
    expect(sessionStorage.getItem('verification')).toBeNull();
  });

  it('resend repeats a sign-up with the names', async () => {
    const { callsTo } = stubApi({
      'POST /api/patient-auth/sign-up': [
        () => json({ twoFactorToken: 'tft-1' }),
        () => json({ twoFactorToken: 'tft-2' }),
      ],
    });
    const request = {
      clinicId: 1,
      idNumber: '39845125',
      phone: '0501234567',
      firstName: 'נועה',
      lastName: 'כהן',
    };
    await startPage().signUp(request);
    await useVerificationStore.getState().resendCode();

    expect(callsTo('POST /api/patient-auth/sign-up').map((call) => call.body)).toEqual([
      request,
      request,
    ]);
    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: 'tft-2',
      verification: { mode: 'signUp', firstName: 'נועה' },
    });
  });

  it('a 400 drops the two-factor token and lets a code be sent at once', async () => {
    sessionStorage.setItem(
      'verification',
      JSON.stringify({ ...pending(), twoFactorToken: 'tft-1' }),
    );
    stubApi({
      'POST /api/patient-auth/two-factor': () => apiError(400, 'invalid_two_factor_token'),
    });
    await expect(startPage().verifyCode('123456')).rejects.toMatchObject({ status: 400 });

    const state = useVerificationStore.getState();
    expect(state.twoFactorToken).toBeNull();
    expect(state.verification?.resendAt).toBeLessThanOrEqual(Date.now());
    expect(JSON.parse(sessionStorage.getItem('verification') ?? '')).toMatchObject({
      twoFactorToken: null,
    });
  });

  it('a wrong code restarts the resend countdown and keeps the token', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z') });
    sessionStorage.setItem(
      'verification',
      JSON.stringify({ ...pending({ resendAt: Date.now() + 5_000 }), twoFactorToken: 'tft-1' }),
    );
    stubApi({ 'POST /api/patient-auth/two-factor': () => apiError(404, 'wrong_code') });
    await expect(startPage().verifyCode('123456')).rejects.toMatchObject({ status: 404 });

    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: 'tft-1',
      verification: { resendAt: Date.now() + 60_000 },
    });
  });

  it('success stores the session token and the patient and forgets the pending code', async () => {
    sessionStorage.setItem(
      'verification',
      JSON.stringify({ ...pending(), twoFactorToken: 'tft-1' }),
    );
    const { callsTo } = stubApi({
      'POST /api/patient-auth/two-factor': () => json({ patient, token: 'session-token' }),
    });
    await expect(startPage().verifyCode('123456')).resolves.toEqual(patient);

    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toEqual({
      idNumber: '039845125',
      code: '123456',
      twoFactorToken: 'tft-1',
    });
    expect(localStorage.getItem('token')).toBe('session-token');
    expect(sessionStorage.getItem('verification')).toBeNull();
    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: null,
      verification: null,
    });
    expect(useSessionStore.getState()).toMatchObject({
      token: 'session-token',
      patient,
      authenticatedBy: 'code',
      session: 'checked',
    });
  });
});

describe('verification store: logout', () => {
  it('forgets the code on its way with the session', async () => {
    localStorage.setItem('token', 'session-token');
    sessionStorage.setItem(
      'verification',
      JSON.stringify({ ...pending(), twoFactorToken: 'tft-1' }),
    );
    stubApi({ 'GET /api/patient-auth/logout': () => json({ status: 'ok' }) });
    expect(startPage().twoFactorToken).toBe('tft-1');

    await useSessionStore.getState().logout();

    expect(sessionStorage.getItem('verification')).toBeNull();
    expect(useVerificationStore.getState()).toMatchObject({
      twoFactorToken: null,
      idNumber: null,
      verification: null,
    });
  });
});
