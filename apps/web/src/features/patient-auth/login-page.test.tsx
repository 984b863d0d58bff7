import { act, screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TopBar } from '../../app/layouts/top-bar';
import { createRoutes } from '../../app/router';
import { configureApiClient } from '../../lib/api-client';
import { useClinicStore } from '../../lib/clinic/clinic-store';
import { initialSessionState, useSessionStore } from '../../lib/patient-session/session-store';
import { clinicFixture } from '../../test/clinic-fixture';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { LoginPage } from './login-page';
import { initialVerificationState, useVerificationStore } from './stores/verification-store';
import { hideVerifiedNotice } from './verified-notice';

const routes: RouteObject[] = [
  { path: 'login/:clinicId', element: <LoginPage /> },
  { path: 'clinic/:clinicId', element: <h1>Clinic</h1> },
  { path: 'appointments/:clinicId', element: <h1>Appointments</h1> },
  { path: 'booking/:clinicId', element: <h1>Booking</h1> },
];

const patient = { id: 7, id_number: '039845125', first_name: 'דנה', last_name: 'לוי', phone: '' };
const reload = vi.fn();

/** A page load: the session and verification stores start from storage, as it does when the app starts. */
function load(path = '/login/1') {
  useSessionStore.setState(initialSessionState());
  useVerificationStore.setState(initialVerificationState());
  return renderRoutes(routes, { initialEntries: [path] });
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api', reload });
});

afterEach(() => {
  hideVerifiedNotice();
  vi.unstubAllGlobals();
  reload.mockReset();
  sessionStorage.clear();
  useClinicStore.setState({ clinic: null, caregivers: [], appointmentTypes: [] });
  document.title = '';
});

describe('login page', () => {
  it('shows the back link to the clinic, its logo and name, the heading and the form', async () => {
    stubApi({ 'GET /api/clinic/1': () => json(clinicFixture()) });
    load();

    expect(await screen.findByRole('heading', { level: 1, name: 'הזדהות' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'חזרה למרפאה' })).toHaveAttribute('href', '/clinic/1');
    expect(screen.getByText('מרפאת שיניים לב העיר')).toBeVisible();
    expect(document.querySelector('img[src="/img/logo.png"]')).toHaveAttribute('alt', '');
    expect(screen.getByRole('form', { name: 'תעודת זהות וטלפון' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'מספר תעודת זהות' })).toBeInTheDocument();
    await waitFor(() => expect(useClinicStore.getState().clinic?.id).toBe(1));
  });

  it('in the app: a lazy route titled for verification', async () => {
    stubApi({ 'GET /api/clinic/1': () => json(clinicFixture()) });
    useSessionStore.setState(initialSessionState());
    useVerificationStore.setState(initialVerificationState());
    renderRoutes(
      createRoutes({
        parentSiteUrl: 'https://marpe.example/',
        publicOrigin: 'http://localhost:3000',
      }),
      {
        initialEntries: ['/login/1'],
        language: 'en',
      },
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Patient verification' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Patient verification'));
    document.head.querySelector('link[rel="canonical"]')?.remove();
  });

  it('an unknown clinic is not found', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/999': () => apiError(404, 'clinic_not_found'),
    });
    load('/login/999');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }),
    ).toBeInTheDocument();
    expect(callsTo('GET /api/clinic/999')).toHaveLength(1);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('an impossible clinic id is not found without asking the server', async () => {
    const { fetchMock } = stubApi({});
    load('/login/abc');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'המרפאה לא נמצאה' }),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a code accepted goes on at once, and the next page says the patient is verified', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'POST /api/patient-auth/login': () => json({ twoFactorToken: 'tft-1' }),
      'POST /api/patient-auth/two-factor': () => json({ patient, token: 'session-token' }),
    });
    useSessionStore.setState(initialSessionState());
    useVerificationStore.setState(initialVerificationState());
    // The top bar stays across pages, as in the app's layout.
    const { router, user } = renderRoutes(
      [
        {
          element: (
            <>
              <TopBar />
              <Outlet />
            </>
          ),
          children: routes,
        },
      ],
      { initialEntries: ['/login/1?next=booking'] },
    );
    await user.type(await screen.findByRole('textbox', { name: 'מספר תעודת זהות' }), '039845128');
    await user.type(screen.getByRole('textbox', { name: 'טלפון נייד' }), '0501234567');
    await user.click(screen.getByRole('button', { name: 'המשך' }));
    await user.type(await screen.findByRole('textbox', { name: 'קוד אימות' }), '123456');

    // No pause on this page: it held the next page back 1.2 s.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking' }, { timeout: 800 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/booking/1');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(callsTo('POST /api/patient-auth/two-factor')).toHaveLength(1);
    expect(await screen.findByRole('status')).toHaveTextContent('האימות הצליח');
  });

  it('a patient already signed in goes straight on to their appointments', async () => {
    localStorage.setItem('token', 'session-token');
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
    });
    const { router } = load();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Appointments' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/appointments/1');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(callsTo('GET /api/patient-auth')[0]?.headers.get('Authorization')).toBe(
      'Bearer session-token',
    );
  });

  it('a signed-in patient who pressed the book button goes on to booking, not the appointments', async () => {
    localStorage.setItem('token', 'session-token');
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json(patient),
    });
    const { router } = load('/login/1?next=booking');

    expect(await screen.findByRole('heading', { level: 1, name: 'Booking' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/booking/1');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('a patient without an id goes on to booking', async () => {
    localStorage.setItem('token', 'session-token');
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => json({ ...patient, id: 0 }),
    });
    const { router } = load();

    expect(await screen.findByRole('heading', { level: 1, name: 'Booking' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/booking/1');
  });

  it('a stored token the server refuses is dropped silently, and the form shows', async () => {
    localStorage.setItem('token', 'expired');
    stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'GET /api/patient-auth': () => apiError(401, 'unauthorized'),
    });
    load();

    expect(await screen.findByRole('textbox', { name: 'מספר תעודת זהות' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a code whose SMS did not arrive: says so, with the clinic phone to call', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'POST /api/patient-auth/code-delivery': () =>
        json({ delivery: 'not_delivered', clinicPhone: '03-555 0000' }),
    });
    load();
    await screen.findByRole('heading', { level: 1, name: 'הזדהות' });
    act(() => useVerificationStore.setState({ twoFactorToken: 'two-factor-token' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('הקוד לא הגיע? אפשר לשלוח שוב או להתקשר למרפאה: 03-555 0000');
    expect(screen.getByRole('link', { name: '03-555 0000' })).toHaveAttribute(
      'href',
      'tel:035550000',
    );
    expect(callsTo('POST /api/patient-auth/code-delivery')[0]?.body).toEqual({
      twoFactorToken: 'two-factor-token',
    });
  });

  it('a code delivered (or not yet known) shows nothing more', async () => {
    const { callsTo } = stubApi({
      'GET /api/clinic/1': () => json(clinicFixture()),
      'POST /api/patient-auth/code-delivery': () =>
        json({ delivery: 'delivered', clinicPhone: '03-5550000' }),
    });
    load();
    await screen.findByRole('heading', { level: 1, name: 'הזדהות' });
    act(() => useVerificationStore.setState({ twoFactorToken: 'two-factor-token' }));
    await waitFor(() => expect(callsTo('POST /api/patient-auth/code-delivery')).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a clinic that fails to load offers to try again', async () => {
    stubApi({
      'GET /api/clinic/1': [
        () => apiError(500, 'internal_error'),
        () => apiError(500, 'internal_error'),
        () => json(clinicFixture()),
      ],
    });
    const { user } = load();

    await user.click(await screen.findByRole('button', { name: 'טעינה מחדש' }, { timeout: 4000 }));
    expect(await screen.findByRole('heading', { level: 1, name: 'הזדהות' })).toBeInTheDocument();
  });
});
