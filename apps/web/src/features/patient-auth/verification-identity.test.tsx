import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/fake-api';
import {
  idNumber,
  otherIdNumber,
  phone,
  patient,
  ok,
  setup,
  he,
  fillIdentity,
  reachCodeStep,
  setUpVerificationTests,
} from './test/verification-form-harness';

// The verification form, step 1: ID number and phone.
setUpVerificationTests();

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
