import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../test/fake-api';
import { useVerificationStore } from './stores/verification-store';
import {
  idNumber,
  phone,
  ok,
  setup,
  he,
  fillIdentity,
  setUpVerificationTests,
} from './test/verification-form-harness';

// The verification form's sign-up branch: a new patient's names.
setUpVerificationTests();

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
