import { isValidIsraeliId } from '@marpe/shared/rules';
import { screen } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { TopBar } from '../../../app/layouts/top-bar';
import { configureApiClient } from '../../../lib/api-client';
import { useClinicStore } from '../../../lib/clinic/clinic-store';
import { initialSessionState, useSessionStore } from '../../../lib/patient-session/session-store';
import { clinicFixture } from '../../../test/clinic-fixture';
import { json, stubApi, type Answer } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from '../login-page';
import { initialVerificationState, useVerificationStore } from '../stores/verification-store';
import { hideVerifiedNotice } from '../verified-notice';

// The stepper as a patient meets it, on the login page (the booking page shows the same form):
// what the verification form's test files share.

export function validId(base: string): string {
  for (let digit = 0; digit < 10; digit++) {
    if (isValidIsraeliId(`${base}${digit}`)) return `${base}${digit}`;
  }
  throw new Error(`no check digit for ${base}`);
}

export const idNumber = validId('03984512');
export const otherIdNumber = validId('20547718');
export const phone = '0501234567';
export const patient = { id: 7, id_number: idNumber, first_name: 'דנה', last_name: 'לוי', phone };

// Under the top bar, as in the app: the success message shows from there on the next page.
const routes: RouteObject[] = [
  {
    element: (
      <>
        <TopBar />
        <Outlet />
      </>
    ),
    children: [
      { path: 'login/:clinicId', element: <LoginPage /> },
      { path: 'clinic/:clinicId', element: <h1>Clinic</h1> },
      { path: 'appointments/:clinicId', element: <h1>Appointments</h1> },
      { path: 'booking/:clinicId', element: <h1>Booking</h1> },
    ],
  },
];

export const ok =
  (body: unknown): Answer =>
  () =>
    json(body);

function clinicAnswer(acceptNewPatients = true): Answer {
  const data = clinicFixture();
  data.clinic.settings.is_accept_new_patients = acceptNewPatients;
  return () => json(data);
}

export function setup(
  answers: Record<string, Answer | Answer[]> = {},
  {
    language = 'he',
    acceptNewPatients = true,
  }: { language?: 'he' | 'en'; acceptNewPatients?: boolean } = {},
) {
  const api = stubApi({ 'GET /api/clinic/1': clinicAnswer(acceptNewPatients), ...answers });
  const rendered = renderRoutes(routes, {
    initialEntries: ['/login/1'],
    language,
    userOptions: { advanceTimers: vi.advanceTimersByTime },
  });
  return { ...api, ...rendered };
}

export const he = {
  idNumber: 'מספר תעודת זהות',
  phone: 'טלפון נייד',
  firstName: 'שם פרטי',
  lastName: 'שם משפחה',
  code: 'קוד אימות',
  continue: 'המשך',
  verify: 'אימות',
  back: 'חזרה',
};

export async function fillIdentity(
  user: ReturnType<typeof setup>['user'],
  id = idNumber,
  tel = phone,
) {
  const idField = await screen.findByRole('textbox', { name: he.idNumber });
  await user.clear(idField);
  await user.type(idField, id);
  const phoneField = screen.getByRole('textbox', { name: he.phone });
  await user.clear(phoneField);
  await user.type(phoneField, tel);
}

export async function reachCodeStep(answers: Record<string, Answer | Answer[]> = {}) {
  const context = setup({
    'POST /api/patient-auth/login': ok({ twoFactorToken: 'tft-1' }),
    ...answers,
  });
  await fillIdentity(context.user);
  await context.user.click(screen.getByRole('button', { name: he.continue }));
  await screen.findByRole('heading', { level: 2, name: he.code });
  return context;
}

/** Each test starts on a fresh page load, with fake timers that still advance. */
export function setUpVerificationTests() {
  beforeAll(() => {
    configureApiClient({ baseUrl: '/api' });
  });

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    sessionStorage.clear();
    useSessionStore.setState(initialSessionState());
    useVerificationStore.setState(initialVerificationState());
  });

  afterEach(() => {
    hideVerifiedNotice();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    sessionStorage.clear();
    useClinicStore.setState({ clinic: null, caregivers: [], appointmentTypes: [] });
  });
}
