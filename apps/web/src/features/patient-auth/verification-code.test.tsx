import { OTP_LENGTH } from '@marpe/shared/rules';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initialSessionState, useSessionStore } from '../../lib/patient-session/session-store';
import { apiError, json } from '../../test/fake-api';
import { initialVerificationState, useVerificationStore } from './stores/verification-store';
import {
  idNumber,
  phone,
  patient,
  ok,
  setup,
  he,
  fillIdentity,
  reachCodeStep,
  setUpVerificationTests,
} from './test/verification-form-harness';

// The verification form, the code step; resuming a code sent before, and leaving.
setUpVerificationTests();

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
