import { isValidIsraeliId, OTP_LENGTH } from '@marpe/shared/rules';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TopBar } from '../../app/layouts/top-bar';
import { configureApiClient } from '../../lib/api-client';
import { useClinicStore } from '../../lib/clinic/clinic-store';
import { initialSessionState, useSessionStore } from '../../lib/patient-session/session-store';
import { clinicFixture } from '../../test/clinic-fixture';
import { apiError, json, stubApi, type Answer } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { LoginPage } from './login-page';
import { initialVerificationState, useVerificationStore } from './stores/verification-store';
import { hideVerifiedNotice } from './verified-notice';

// The stepper as a patient meets it, on the login page (the booking page shows the same form).

function validId(base: string): string {
  for (let digit = 0; digit < 10; digit++) {
    if (isValidIsraeliId(`${base}${digit}`)) return `${base}${digit}`;
  }
  throw new Error(`no check digit for ${base}`);
}

const idNumber = validId('03984512');
const otherIdNumber = validId('20547718');
const phone = '0501234567';
const patient = { id: 7, id_number: idNumber, first_name: 'דנה', last_name: 'לוי', phone };

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

const ok =
  (body: unknown): Answer =>
  () =>
    json(body);

function clinicAnswer(acceptNewPatients = true): Answer {
  const data = clinicFixture();
  data.clinic.settings.is_accept_new_patients = acceptNewPatients;
  return () => json(data);
}

function setup(
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

const he = {
  idNumber: 'מספר תעודת זהות',
  phone: 'טלפון נייד',
  firstName: 'שם פרטי',
  lastName: 'שם משפחה',
  code: 'קוד אימות',
  continue: 'המשך',
  verify: 'אימות',
  back: 'חזרה',
};

async function fillIdentity(user: ReturnType<typeof setup>['user'], id = idNumber, tel = phone) {
  const idField = await screen.findByRole('textbox', { name: he.idNumber });
  await user.clear(idField);
  await user.type(idField, id);
  const phoneField = screen.getByRole('textbox', { name: he.phone });
  await user.clear(phoneField);
  await user.type(phoneField, tel);
}

async function reachCodeStep(answers: Record<string, Answer | Answer[]> = {}) {
  const context = setup({
    'POST /api/patient-auth/login': ok({ twoFactorToken: 'tft-1' }),
    ...answers,
  });
  await fillIdentity(context.user);
  await context.user.click(screen.getByRole('button', { name: he.continue }));
  await screen.findByRole('heading', { level: 2, name: he.code });
  return context;
}

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

describe('step 1: ID number and phone', () => {
  it('has labelled, required fields and enables continue only when both are valid', async () => {
    const { user } = setup();

    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    const phoneField = screen.getByRole('textbox', { name: he.phone });
    expect(idField).toBeRequired();
    expect(idField).toHaveAttribute('inputmode', 'numeric');
    expect(phoneField).toBeRequired();
    expect(phoneField).toHaveAttribute('type', 'tel');
    expect(screen.getByRole('heading', { level: 2, name: 'תעודת זהות וטלפון' })).toBeVisible();
    const next = screen.getByRole('button', { name: he.continue });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('button', { name: he.back })).not.toBeInTheDocument();

    await user.type(idField, idNumber);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.type(phoneField, '050-123-4567');
    expect(next).not.toHaveAttribute('aria-disabled');
    await user.type(idField, '1');
    expect(next).toHaveAttribute('aria-disabled', 'true');
  });

  it('shows a field error once the field is left with a bad value', async () => {
    const { user } = setup();
    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    const phoneField = screen.getByRole('textbox', { name: he.phone });

    await user.click(idField);
    await user.tab();
    // Left empty: nothing to complain about yet.
    expect(idField).not.toHaveAccessibleDescription();

    await user.type(idField, '123456789');
    expect(idField).not.toHaveAccessibleDescription();
    await user.tab();
    expect(idField).toHaveAccessibleDescription('מספר תעודת זהות לא תקין');
    expect(idField).toBeInvalid();

    await user.type(phoneField, '031234567');
    await user.tab();
    expect(phoneField).toHaveAccessibleDescription('מספר טלפון לא תקין');

    await user.clear(idField);
    await user.type(idField, idNumber);
    expect(idField).not.toHaveAccessibleDescription();
    expect(idField).toBeValid();
  });

  it('Enter with missing fields explains every one and focuses the first', async () => {
    const { user } = setup();
    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    const phoneField = screen.getByRole('textbox', { name: he.phone });

    await user.type(phoneField, '05{Enter}');

    expect(idField).toHaveAccessibleDescription('שדה חובה');
    expect(phoneField).toHaveAccessibleDescription('מספר טלפון לא תקין');
    expect(idField).toHaveFocus();
  });

  it('a tap on continue before the fields are valid is answered: it explains what is missing', async () => {
    const { user, callsTo } = setup();
    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    const phoneField = screen.getByRole('textbox', { name: he.phone });
    const next = screen.getByRole('button', { name: he.continue });
    // Unavailable, yet it takes the tap: a disabled button would drop it without a trace.
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).toBeEnabled();

    await user.type(idField, idNumber);
    await user.click(next);

    expect(phoneField).toHaveAccessibleDescription('שדה חובה');
    expect(phoneField).toHaveFocus();
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(0);
  });

  it('an ID known with another phone: the hint, the 3-digit rule, cleared by a new ID', async () => {
    const { user, callsTo } = setup({
      'POST /api/patient-auth/login': [
        () => apiError(400, 'invalid_phone', { hint: '321' }),
        ok({ twoFactorToken: 'tft-1' }),
      ],
    });
    await fillIdentity(user);
    const next = screen.getByRole('button', { name: he.continue });
    await user.click(next);

    const phoneField = screen.getByRole('textbox', { name: he.phone });
    await waitFor(() =>
      expect(phoneField).toHaveAccessibleDescription(
        'קיים מספר תעודת זהות עם טלפון אחר שמסתיים בספרות 321',
      ),
    );
    expect(phoneField).toHaveFocus();
    expect(phoneField).toBeInvalid();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    // No sign-up: still the first step.
    expect(screen.getByRole('heading', { level: 2, name: 'תעודת זהות וטלפון' })).toBeVisible();

    // Only the last three digits count.
    await user.clear(phoneField);
    await user.type(phoneField, '0527654320');
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.clear(phoneField);
    await user.type(phoneField, '0527654321');
    expect(next).not.toHaveAttribute('aria-disabled');
    expect(phoneField).toBeValid();

    // Another ID number: the hint no longer applies.
    await user.clear(phoneField);
    await user.type(phoneField, phone);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    const idField = screen.getByRole('textbox', { name: he.idNumber });
    await user.clear(idField);
    await user.type(idField, otherIdNumber);
    expect(phoneField).not.toHaveAccessibleDescription();
    expect(next).not.toHaveAttribute('aria-disabled');

    await user.click(next);
    await screen.findByRole('heading', { level: 2, name: he.code });
    expect(callsTo('POST /api/patient-auth/login').map((call) => call.body)).toEqual([
      { clinicId: 1, idNumber, phone },
      { clinicId: 1, idNumber: otherIdNumber, phone },
    ]);
  });

  it.each([
    [429, 'too_many_requests', 'Too Many Requests'],
    [500, 'internal_error', "We couldn't send the code. Please try again in a few moments."],
    [503, 'service_unavailable', "We couldn't send the code. Please try again in a few moments."],
  ])('a login %i stays on step 1 with a message', async (status, code, message) => {
    const { user } = setup(
      { 'POST /api/patient-auth/login': () => apiError(status, code) },
      { language: 'en' },
    );
    const idField = await screen.findByRole('textbox', { name: 'ID number' });
    await user.type(idField, idNumber);
    await user.type(screen.getByRole('textbox', { name: 'Mobile phone' }), phone);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('heading', { level: 2, name: 'ID and phone' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'First name' })).not.toBeInTheDocument();
  });

  it('a second code asked for too soon: the seconds left count down, then continue comes back', async () => {
    const { user, callsTo } = setup({
      'POST /api/patient-auth/login': [
        () => apiError(429, 'too_many_requests', { details: { retryAfterSeconds: 3 } }),
        ok({ twoFactorToken: 'tft-1' }),
      ],
    });
    await fillIdentity(user);
    const next = screen.getByRole('button', { name: he.continue });
    await user.click(next);

    const alert = await screen.findByRole('alert');
    const wait = (text: string) => `כבר נשלח קוד לפני רגע. אפשר לבקש קוד חדש בעוד ${text}.`;
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(within(alert).getAllByText(wait('3 שניות'))).toHaveLength(2);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // On screen the seconds tick, hidden from screen readers: they hear the wait once, as said.
    expect(within(alert).getByText(wait('שתי שניות'))).toHaveAttribute('aria-hidden', 'true');
    expect(within(alert).getByText(wait('3 שניות'))).not.toHaveAttribute('aria-hidden');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(within(alert).getByText(wait('שנייה אחת'))).toBeInTheDocument();
    expect(next).toHaveAttribute('aria-disabled', 'true');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(next).not.toHaveAttribute('aria-disabled');
    await user.click(next);
    await screen.findByRole('heading', { level: 2, name: he.code });
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(2);
  });

  it('the ID number known with another phone: the way on is to correct the details or call the clinic', async () => {
    const { user } = setup({
      'POST /api/patient-auth/login': () => apiError(400, 'invalid_phone', { hint: '321' }),
    });
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));

    // The spec's text stays under the phone; the step's message gives the next step.
    const phoneField = screen.getByRole('textbox', { name: he.phone });
    await waitFor(() =>
      expect(phoneField).toHaveAccessibleDescription(
        'קיים מספר תעודת זהות עם טלפון אחר שמסתיים בספרות 321',
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'אפשר לתקן את מספר תעודת הזהות או את הטלפון, או להתקשר למרפאה: 03-5551234',
    );
    const call = within(alert).getByRole('link', { name: '03-5551234' });
    expect(call).toHaveAttribute('href', 'tel:035551234');

    // Another ID number: the hint, and its next step, no longer apply.
    const idField = screen.getByRole('textbox', { name: he.idNumber });
    await user.clear(idField);
    await user.type(idField, otherIdNumber);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('back from the code, a new code refused for now: the code sent before can still be typed', async () => {
    const { user, callsTo } = await reachCodeStep({
      'POST /api/patient-auth/login': [
        ok({ twoFactorToken: 'tft-1' }),
        () => apiError(429, 'too_many_requests', { details: { retryAfterSeconds: 40 } }),
      ],
      'POST /api/patient-auth/two-factor': ok({ patient, token: 'session-token' }),
    });
    await user.click(screen.getByRole('button', { name: he.back }));
    await screen.findByRole('heading', { level: 2, name: 'תעודת זהות וטלפון' });
    await user.click(screen.getByRole('button', { name: he.continue }));

    const alert = await screen.findByRole('alert');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(alert).toHaveTextContent('אפשר לבקש קוד חדש בעוד 40 שניות');
    await user.click(within(alert).getByRole('button', { name: 'הקלדת הקוד שכבר נשלח' }));

    // The code step again, the wait on its resend button, the code sent first taken.
    const code = await screen.findByRole('textbox', { name: he.code });
    await waitFor(() => expect(code).toHaveFocus());
    expect(screen.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:(40|39)$/ })).toBeDisabled();
    await user.type(code, '123456');
    await screen.findByRole('heading', { level: 1, name: 'Appointments' });
    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toMatchObject({
      twoFactorToken: 'tft-1',
      code: '123456',
    });
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(2);
  });

  it('a new code refused for other details offers no way back to the code sent before', async () => {
    const { user } = await reachCodeStep({
      'POST /api/patient-auth/login': [
        ok({ twoFactorToken: 'tft-1' }),
        () => apiError(429, 'too_many_requests', { details: { retryAfterSeconds: 40 } }),
      ],
    });
    await user.click(screen.getByRole('button', { name: he.back }));
    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    await user.clear(idField);
    await user.type(idField, otherIdNumber);
    await user.click(screen.getByRole('button', { name: he.continue }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('אפשר לבקש קוד חדש בעוד');
    expect(within(alert).queryByRole('button')).not.toBeInTheDocument();
  });

  it('a long wait reads in minutes, in English too', async () => {
    const { user } = setup(
      {
        'POST /api/patient-auth/login': () =>
          apiError(429, 'too_many_requests', { details: { retryAfterSeconds: 1800 } }),
      },
      { language: 'en' },
    );
    await user.type(await screen.findByRole('textbox', { name: 'ID number' }), idNumber);
    await user.type(screen.getByRole('textbox', { name: 'Mobile phone' }), phone);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const alert = await screen.findByRole('alert');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(
      within(alert).getAllByText(
        'Too many codes were sent. You can ask for a new one in 30 minutes.',
      ),
    ).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('an unreachable server stays on step 1 too', async () => {
    const { user } = setup({
      'POST /api/patient-auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));

    expect(await screen.findByRole('alert')).toHaveTextContent('לא הצלחנו לשלוח את הקוד');
    expect(screen.getByRole('textbox', { name: he.idNumber })).toBeInTheDocument();
  });
});

describe('sign-up branch', () => {
  it('an unknown patient adds the names step (step 2 of 3) and the code becomes step 3', async () => {
    const { user, callsTo } = setup({
      'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found'),
      'POST /api/patient-auth/sign-up': ok({ twoFactorToken: 'tft-new' }),
    });
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));

    const firstName = await screen.findByRole('textbox', { name: he.firstName });
    await waitFor(() => expect(firstName).toHaveFocus());
    expect(screen.getByRole('heading', { level: 2, name: 'פרטים אישיים' })).toBeVisible();
    expect(screen.getByText(/כדי להירשם כמטופלים חדשים/)).toBeVisible();
    // The stepper now has three steps, the second current.
    const steps = screen.getAllByText(/^(תעודת זהות וטלפון|פרטים אישיים|קוד אימות)$/, {
      ignore: 'h2',
    });
    expect(steps.map((step) => step.textContent)).toEqual([
      'תעודת זהות וטלפון',
      'פרטים אישיים',
      'קוד אימות',
    ]);
    expect(steps[1]?.closest('[aria-current="step"]')).not.toBeNull();

    const lastName = screen.getByRole('textbox', { name: he.lastName });
    expect(firstName).toBeRequired();
    const next = screen.getByRole('button', { name: he.continue });
    expect(next).toHaveAttribute('aria-disabled', 'true');

    // Enter explains what is missing.
    await user.type(firstName, 'נועה{Enter}');
    expect(lastName).toHaveAccessibleDescription('שדה חובה');
    expect(lastName).toHaveFocus();
    expect(firstName).not.toHaveAccessibleDescription();

    await user.type(lastName, 'כהן');
    expect(next).not.toHaveAttribute('aria-disabled');
    await user.click(next);

    await screen.findByRole('heading', { level: 2, name: he.code });
    expect(callsTo('POST /api/patient-auth/sign-up')[0]?.body).toEqual({
      clinicId: 1,
      idNumber,
      phone,
      firstName: 'נועה',
      lastName: 'כהן',
    });
    const current = screen
      .getAllByText('קוד אימות', { ignore: 'h2, label, label *' })
      .find((element) => element.closest('[aria-current="step"]'));
    expect(current).toBeDefined();
  });

  it('blank names are required', async () => {
    const { user } = setup({
      'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found'),
    });
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));
    const firstName = await screen.findByRole('textbox', { name: he.firstName });

    await user.type(firstName, '   ');
    await user.type(screen.getByRole('textbox', { name: he.lastName }), 'כהן');
    expect(screen.getByRole('button', { name: he.continue })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.keyboard('{Enter}');
    expect(firstName).toHaveAccessibleDescription('שדה חובה');
  });

  it(
    'back from the code step returns to the names, dropping the code but keeping the names',
    { timeout: 20_000 },
    async () => {
      const { user, callsTo } = setup({
        'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found'),
        'POST /api/patient-auth/sign-up': ok({ twoFactorToken: 'tft-new' }),
      });
      await fillIdentity(user);
      await user.click(screen.getByRole('button', { name: he.continue }));
      await user.type(await screen.findByRole('textbox', { name: he.firstName }), 'נועה');
      await user.type(screen.getByRole('textbox', { name: he.lastName }), 'כהן');
      await user.click(screen.getByRole('button', { name: he.continue }));
      await user.type(await screen.findByRole('textbox', { name: he.code }), '12');
      expect(useVerificationStore.getState().twoFactorToken).toBe('tft-new');
      expect(sessionStorage.getItem('verification')).not.toBeNull();

      await user.click(screen.getByRole('button', { name: he.back }));

      const firstName = await screen.findByRole('textbox', { name: he.firstName });
      await waitFor(() => expect(firstName).toHaveFocus());
      expect(firstName).toHaveValue('נועה');
      expect(screen.getByRole('textbox', { name: he.lastName })).toHaveValue('כהן');
      expect(useVerificationStore.getState().twoFactorToken).toBeNull();
      expect(useVerificationStore.getState().verification).toBeNull();
      expect(sessionStorage.getItem('verification')).toBeNull();

      // Back once more: step 1 with what was typed.
      await user.click(screen.getByRole('button', { name: he.back }));
      const idField = await screen.findByRole('textbox', { name: he.idNumber });
      expect(idField).toHaveValue(idNumber);
      await waitFor(() => expect(idField).toHaveFocus());

      // Forward again: a new code is asked for, and a fresh code step has an empty code.
      await user.click(screen.getByRole('button', { name: he.continue }));
      await user.click(await screen.findByRole('button', { name: he.continue }));
      expect(await screen.findByRole('textbox', { name: he.code })).toHaveValue('');
      expect(callsTo('POST /api/patient-auth/sign-up')).toHaveLength(2);
    },
  );

  it('a clinic that takes no new patients says to contact it instead of asking for names', async () => {
    const { user, callsTo } = setup(
      { 'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found') },
      { acceptNewPatients: false },
    );
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('המרפאה אינה מקבלת כרגע מטופלים חדשים דרך האתר');
    expect(within(alert).getByRole('link', { name: 'התקשרו למרפאה' })).toHaveAttribute(
      'href',
      'tel:035551234',
    );
    expect(screen.queryByRole('textbox', { name: he.firstName })).not.toBeInTheDocument();
    expect(callsTo('POST /api/patient-auth/sign-up')).toHaveLength(0);

    // Other details: the message goes.
    await user.type(screen.getByRole('textbox', { name: he.idNumber }), '{Backspace}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a 403 not_accepting_new_patients on sign-up returns to step 1 with that message', async () => {
    const { user } = setup({
      'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found'),
      'POST /api/patient-auth/sign-up': () => apiError(403, 'not_accepting_new_patients'),
    });
    await fillIdentity(user);
    await user.click(screen.getByRole('button', { name: he.continue }));
    await user.type(await screen.findByRole('textbox', { name: he.firstName }), 'נועה');
    await user.type(screen.getByRole('textbox', { name: he.lastName }), 'כהן');
    await user.click(screen.getByRole('button', { name: he.continue }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'המרפאה אינה מקבלת כרגע מטופלים חדשים',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'תעודת זהות וטלפון' })).toBeVisible();
  });

  it('a sign-up 429 stays on the names step with the message', async () => {
    const { user } = setup(
      {
        'POST /api/patient-auth/login': () => apiError(404, 'patient_not_found'),
        'POST /api/patient-auth/sign-up': () => apiError(429, 'too_many_requests'),
      },
      { language: 'en' },
    );
    await user.type(await screen.findByRole('textbox', { name: 'ID number' }), idNumber);
    await user.type(screen.getByRole('textbox', { name: 'Mobile phone' }), phone);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Noa');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Cohen');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Too Many Requests');
    expect(screen.getByRole('textbox', { name: 'First name' })).toBeInTheDocument();
  });
});

describe('code step', () => {
  it('is one numeric one-time-code input, focused, that submits itself when complete', async () => {
    const { user, callsTo, router } = await reachCodeStep({
      'POST /api/patient-auth/two-factor': ok({ patient, token: 'session-token' }),
    });

    const code = screen.getByRole('textbox', { name: he.code });
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAccessibleDescription(
      `שלחנו קוד בן ${OTP_LENGTH} ספרות ב־SMS למספר שמסתיים ב־567.`,
    );
    const verify = screen.getByRole('button', { name: he.verify });
    expect(verify).toHaveAttribute('aria-disabled', 'true');

    // Letters are dropped; the sixth digit submits.
    await user.type(code, '12a345');
    expect(code).toHaveValue('12345');
    expect(callsTo('POST /api/patient-auth/two-factor')).toHaveLength(0);
    await user.type(code, '6');

    expect(await screen.findByRole('status')).toHaveTextContent('האימות הצליח');
    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toEqual({
      idNumber,
      code: '123456',
      twoFactorToken: 'tft-1',
    });
    expect(localStorage.getItem('token')).toBe('session-token');
    expect(useSessionStore.getState().patient).toEqual(patient);
    expect(sessionStorage.getItem('verification')).toBeNull();

    // The page moves on to the patient's appointments, replacing itself.
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/appointments/1');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('a pasted code with spaces submits; verify is enabled only when complete', async () => {
    const { user, callsTo } = await reachCodeStep({
      'POST /api/patient-auth/two-factor': () => apiError(404, 'wrong_code'),
    });
    const code = screen.getByRole('textbox', { name: he.code });
    const verify = screen.getByRole('button', { name: he.verify });

    await user.click(code);
    await user.paste('123 456');

    await screen.findByRole('alert');
    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toMatchObject({
      code: '123456',
    });
    await user.type(code, '65432');
    expect(verify).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    expect(code).toHaveAccessibleDescription(expect.stringContaining('שדה חובה'));
    expect(callsTo('POST /api/patient-auth/two-factor')).toHaveLength(1);
  });

  it('a wrong code says so, clears the code and restarts the countdown', async () => {
    const { user } = await reachCodeStep({
      'POST /api/patient-auth/two-factor': () => apiError(404, 'wrong_code'),
    });
    await act(() => vi.advanceTimersByTimeAsync(45_000));
    expect(screen.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:1\d$/ })).toBeDisabled();

    const code = screen.getByRole('textbox', { name: he.code });
    await user.type(code, '111111');

    expect(await screen.findByRole('alert')).toHaveTextContent('קוד שגוי');
    expect(code).toHaveValue('');
    expect(code).toBeInvalid();
    await waitFor(() => expect(code).toHaveFocus());
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: /^שליחת קוד חדש בעוד (1:00|0:59)$/ }),
      ).toBeDisabled(),
    );
  });

  it('in English: Wrong Code, Try Again (resend at once), Too Many Requests (input disabled)', async () => {
    const { user } = setup(
      {
        'POST /api/patient-auth/login': ok({ twoFactorToken: 'tft-1' }),
        'POST /api/patient-auth/two-factor': [
          () => apiError(404, 'wrong_code'),
          () => apiError(400, 'invalid_two_factor_token'),
          () => apiError(429, 'too_many_requests'),
        ],
      },
      { language: 'en' },
    );
    await user.type(await screen.findByRole('textbox', { name: 'ID number' }), idNumber);
    await user.type(screen.getByRole('textbox', { name: 'Mobile phone' }), phone);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const code = await screen.findByRole('textbox', { name: 'Verification code' });
    expect(screen.getByRole('button', { name: 'Resend code in 1:00' })).toBeDisabled();

    await user.type(code, '111111');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong Code');

    // 400: the two-factor token is gone, so a new code can be sent at once.
    await user.type(code, '222222');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Try Again'));
    expect(useVerificationStore.getState().twoFactorToken).toBeNull();
    const resend = await screen.findByRole('button', { name: 'Resend code' });
    expect(resend).toBeEnabled();
    await waitFor(() => expect(resend).toHaveFocus());
    expect(code).toBeDisabled();

    await user.click(resend);
    await waitFor(() => expect(code).toBeEnabled());
    await user.type(code, '333333');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too Many Requests'));
    expect(code).toBeDisabled();
  });

  it('a 429 disables the code input until a new code is sent', async () => {
    const { user, callsTo } = await reachCodeStep({
      'POST /api/patient-auth/two-factor': [
        () => apiError(429, 'too_many_requests'),
        ok({ patient, token: 'session-token' }),
      ],
    });
    const code = screen.getByRole('textbox', { name: he.code });
    await user.type(code, '333333');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('יותר מדי ניסיונות. נסו שוב מאוחר יותר');
    expect(code).toBeDisabled();
    await waitFor(() => expect(alert).toHaveFocus());

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await user.click(screen.getByRole('button', { name: 'שליחת קוד חדש' }));
    await waitFor(() => expect(code).toBeEnabled());
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(2);
    await user.type(code, '444444');
    expect(await screen.findByRole('status')).toHaveTextContent('האימות הצליח');
  });

  it('resend waits 60 s, then clears the code, sends again and restarts the countdown', async () => {
    const { user, callsTo } = await reachCodeStep({
      'POST /api/patient-auth/login': [
        ok({ twoFactorToken: 'tft-1' }),
        ok({ twoFactorToken: 'tft-2' }),
      ],
      'POST /api/patient-auth/two-factor': ok({ patient, token: 'session-token' }),
    });
    const resendWaiting = screen.getByRole('button', { name: 'שליחת קוד חדש בעוד 1:00' });
    expect(resendWaiting).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('button', { name: 'שליחת קוד חדש בעוד 0:59' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(58_000));
    expect(screen.getByRole('button', { name: 'שליחת קוד חדש בעוד 0:01' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(1000));

    const code = screen.getByRole('textbox', { name: he.code });
    await user.type(code, '12');
    const resend = screen.getByRole('button', { name: 'שליחת קוד חדש' });
    expect(resend).toBeEnabled();
    await user.click(resend);

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('נשלח קוד חדש.'));
    expect(code).toHaveValue('');
    await waitFor(() => expect(code).toHaveFocus());
    expect(screen.getByRole('button', { name: /^שליחת קוד חדש בעוד (1:00|0:59)$/ })).toBeDisabled();
    expect(callsTo('POST /api/patient-auth/login').map((call) => call.body)).toEqual([
      { clinicId: 1, idNumber, phone },
      { clinicId: 1, idNumber, phone },
    ]);

    await user.type(code, '654321');
    await screen.findByText('האימות הצליח');
    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toMatchObject({
      twoFactorToken: 'tft-2',
    });
  });

  it('back in login mode returns to step 1 and forgets the code sent', async () => {
    const { user } = await reachCodeStep();
    await user.click(screen.getByRole('button', { name: he.back }));

    const idField = await screen.findByRole('textbox', { name: he.idNumber });
    expect(idField).toHaveValue(idNumber);
    expect(screen.getByRole('textbox', { name: he.phone })).toHaveValue(phone);
    await waitFor(() => expect(idField).toHaveFocus());
    expect(useVerificationStore.getState().twoFactorToken).toBeNull();
    expect(sessionStorage.getItem('verification')).toBeNull();
  });

  it('fills and submits the code the browser reads from the SMS (WebOTP)', async () => {
    let signal: AbortSignal | undefined;
    const get = vi.fn((options: CredentialRequestOptions) => {
      signal = options.signal;
      return Promise.resolve({ code: '246810', type: 'otp', id: '' } as unknown as Credential);
    });
    vi.stubGlobal(
      'OTPCredential',
      class OTPCredential {
        readonly code = '';
      },
    );
    vi.stubGlobal('navigator', { ...navigator, credentials: { get } });

    const { callsTo } = await reachCodeStep({
      'POST /api/patient-auth/two-factor': ok({ patient, token: 'session-token' }),
    });

    expect(await screen.findByRole('status')).toHaveTextContent('האימות הצליח');
    expect(get).toHaveBeenCalledWith(expect.objectContaining({ otp: { transport: ['sms'] } }));
    expect(callsTo('POST /api/patient-auth/two-factor')[0]?.body).toMatchObject({
      code: '246810',
    });
    // The code step is gone, and its request with it.
    expect(signal?.aborted).toBe(true);
  });
});

describe('resuming and leaving', () => {
  it('a code sent before a reload resumes at the code step, the countdown running on', async () => {
    sessionStorage.setItem(
      'verification',
      JSON.stringify({
        clinicId: 1,
        mode: 'signUp',
        idNumber,
        phone,
        firstName: 'נועה',
        lastName: 'כהן',
        resendAt: Date.now() + 20_000,
        twoFactorToken: 'tft-kept',
      }),
    );
    useSessionStore.setState(initialSessionState());
    useVerificationStore.setState(initialVerificationState());
    const { user, callsTo } = setup({
      'POST /api/patient-auth/two-factor': ok({ patient, token: 'session-token' }),
    });

    const code = await screen.findByRole('textbox', { name: he.code });
    expect(screen.getByRole('button', { name: /^שליחת קוד חדש בעוד 0:(20|19)$/ })).toBeDisabled();
    expect(code).toHaveAccessibleDescription(expect.stringContaining('567'));

    await user.click(screen.getByRole('button', { name: he.back }));
    expect(await screen.findByRole('textbox', { name: he.firstName })).toHaveValue('נועה');

    await user.click(screen.getByRole('button', { name: he.back }));
    expect(await screen.findByRole('textbox', { name: he.idNumber })).toHaveValue(idNumber);
    expect(callsTo('POST /api/patient-auth/two-factor')).toHaveLength(0);
  });

  it('a code sent for another clinic does not resume here', async () => {
    sessionStorage.setItem(
      'verification',
      JSON.stringify({
        clinicId: 2,
        mode: 'login',
        idNumber,
        phone,
        firstName: '',
        lastName: '',
        resendAt: Date.now() + 20_000,
        twoFactorToken: 'tft-elsewhere',
      }),
    );
    useSessionStore.setState(initialSessionState());
    useVerificationStore.setState(initialVerificationState());
    setup();

    expect(await screen.findByRole('textbox', { name: he.idNumber })).toHaveValue('');
  });

  it('a second Enter while the code is being sent sends nothing more', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { user, callsTo } = setup({
      'POST /api/patient-auth/login': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await fillIdentity(user);
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: he.continue }));
    await user.keyboard('{Enter}');
    answer(json({ twoFactorToken: 'tft-1' }));

    await screen.findByRole('heading', { level: 2, name: he.code });
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(1);
  });

  it('Enter on a step whose continue is enabled goes on', async () => {
    const { user, callsTo } = setup({
      'POST /api/patient-auth/login': ok({ twoFactorToken: 'tft-1' }),
    });
    await fillIdentity(user);
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 2, name: he.code });
    expect(callsTo('POST /api/patient-auth/login')).toHaveLength(1);
  });
});
