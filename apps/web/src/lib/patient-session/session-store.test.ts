import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, stubApi } from '../../test/fake-api';
import { configureApiClient } from '../api-client';
import { initialSessionState, useSessionStore } from './session-store';

const patient = { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' };
const reload = vi.fn();

/** The store as a page load starts it. */
function startPage() {
  useSessionStore.setState(initialSessionState());
  return useSessionStore.getState();
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api', reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
  reload.mockReset();
  sessionStorage.clear();
});

describe('session store: page load', () => {
  it('with no stored token there is nothing to check', async () => {
    const { fetchMock } = stubApi({});
    const state = startPage();
    expect(state.session).toBe('checked');
    await state.fetchPatient();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSessionStore.getState().patient).toBeNull();
  });

  it('fetches the patient of the stored token once, however often asked', async () => {
    localStorage.setItem('token', 'session-token');
    const { callsTo } = stubApi({ 'GET /api/patient-auth': () => json(patient) });
    const state = startPage();
    expect(state.token).toBe('session-token');
    expect(state.session).toBe('unchecked');

    const first = state.fetchPatient();
    expect(useSessionStore.getState().session).toBe('checking');
    await Promise.all([first, useSessionStore.getState().fetchPatient()]);
    await useSessionStore.getState().fetchPatient();

    expect(callsTo('GET /api/patient-auth')).toHaveLength(1);
    expect(useSessionStore.getState()).toMatchObject({
      patient,
      authenticatedBy: 'session',
      session: 'checked',
    });
  });

  it('a refused token is dropped without reloading', async () => {
    localStorage.setItem('token', 'expired');
    stubApi({ 'GET /api/patient-auth': () => apiError(401, 'unauthorized') });
    await startPage().fetchPatient();

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState()).toMatchObject({
      token: null,
      patient: null,
      session: 'checked',
    });
    expect(reload).not.toHaveBeenCalled();
  });

  it('an unreachable or failing server keeps the token for the next load', async () => {
    localStorage.setItem('token', 'session-token');
    stubApi({ 'GET /api/patient-auth': () => apiError(503, 'service_unavailable') });
    await startPage().fetchPatient();

    expect(localStorage.getItem('token')).toBe('session-token');
    expect(useSessionStore.getState()).toMatchObject({ patient: null, session: 'checked' });
  });
});

describe('session store: logout', () => {
  it('clears the session and any stored code, and tells the server, with the session token', async () => {
    localStorage.setItem('token', 'session-token');
    sessionStorage.setItem('verification', JSON.stringify({ twoFactorToken: 'tft-1' }));
    const { callsTo } = stubApi({
      'GET /api/patient-auth': () => json(patient),
      'GET /api/patient-auth/logout': () => json({ status: 'ok' }),
    });
    await startPage().fetchPatient();

    await useSessionStore.getState().logout();

    expect(callsTo('GET /api/patient-auth/logout')[0]?.headers.get('Authorization')).toBe(
      'Bearer session-token',
    );
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('verification')).toBeNull();
    expect(useSessionStore.getState()).toMatchObject({
      token: null,
      patient: null,
      authenticatedBy: null,
    });
  });

  it('a session that already expired logs out quietly, without reloading', async () => {
    localStorage.setItem('token', 'expired');
    stubApi({ 'GET /api/patient-auth/logout': () => apiError(401, 'unauthorized') });

    await expect(startPage().logout()).resolves.toBeUndefined();
    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
