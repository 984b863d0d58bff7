import type { IntegrationPatient, PaymentRequest, StaffSession } from '@marpe/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { PaymentsPage } from './payments-page';

const session: StaffSession = {
  account: { id: 1, name: 'רונית מזרחי', phone: '0527000001' },
  memberships: [{ clinic_id: 7, clinic_name: 'מרפאה', role: 'front_desk' }],
  method: 'sms',
  expires_at: '2031-01-01T00:00:00Z',
  idle_timeout_minutes: 60,
  has_passkey: false,
};

const clinic: ClinicContextValue = {
  clinicId: 7,
  clinicName: 'מרפאה',
  role: 'front_desk',
  memberships: session.memberships,
  isOwner: false,
  session,
  switchClinic: () => undefined,
};

const dana: IntegrationPatient = {
  id: 4,
  id_number: '039845128',
  first_name: 'Dana',
  last_name: 'Levi',
  phone: '0521234567',
};

const request = (change: Partial<PaymentRequest>): PaymentRequest => ({
  id: 1,
  status: 'pending',
  stage: 'pending',
  card_last4: null,
  approval_number: null,
  amount: 250,
  max_payments: 1,
  terminal: 'term',
  patient_id_number: '039845128',
  patient_name_remarks: 'Dana Levi',
  patient_email: '',
  description: '',
  purpose: 'Cleaning',
  created_at: '2031-01-01T08:00:00Z',
  expires_at: '2031-01-31T08:00:00Z',
  paid_at: null,
  ...change,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function renderPage(path: string) {
  const i18n = await initDeskI18n('en');
  const router = createMemoryRouter([{ path: '/payments', element: <PaymentsPage /> }], {
    initialEntries: [path],
  });
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <ClinicContext.Provider value={clinic}>
        <NotifyProvider>
          <RouterProvider router={router} />
        </NotifyProvider>
      </ClinicContext.Provider>
    </DeskProviders>,
  );
  return router;
}

describe('the payments page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists requests with their stage, and the paying card and approval', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/integration/payment-requests?')) {
        return json(200, [
          request({
            id: 2,
            status: 'paid',
            stage: 'paid',
            card_last4: '4321',
            approval_number: '0654321',
            amount: 1250.5,
            max_payments: 3,
          }),
          request({ id: 1, stage: 'failed' }),
        ]);
      }
      return json(404, { code: 'not_found', message: url });
    });
    vi.stubGlobal('fetch', fetch);
    await renderPage('/payments?stage=paid');
    const table = await screen.findByRole('table', { name: 'Payment requests' });
    const [, paid, failed] = within(table).getAllByRole('row');
    if (!paid || !failed) throw new Error('two rows expected');
    expect(paid).toHaveTextContent('Dana Levi');
    expect(paid).toHaveTextContent('₪1,250.50');
    expect(paid).toHaveTextContent('Up to 3 payments');
    expect(paid).toHaveTextContent('Paid');
    expect(paid).toHaveTextContent('Card ending 4321');
    expect(paid).toHaveTextContent('Approval 0654321');
    // Only what can still be paid can be cancelled.
    expect(within(paid).queryByRole('button', { name: /Cancel the request/ })).toBeNull();
    expect(failed).toHaveTextContent('Failed');
    expect(within(failed).getByRole('button', { name: /Cancel the request/ })).toBeEnabled();
    // The filter from the address is sent to the server.
    expect(screen.getByRole('combobox', { name: 'Show by state' })).toHaveValue('paid');
    expect(String(fetch.mock.calls[0]?.[0])).toContain('stage=paid');
  });

  it('opens the request for the patient the address names, keeps what was typed on a refusal, then shows the link once', async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url === '/api/integration/patients/039845128') return json(200, dana);
        if (url === '/api/integration/payment-requests' && init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          return posted.length === 1
            ? json(400, {
                code: 'validation_failed',
                message: 'Invalid request: payment_provider',
                details: { issues: [{ path: 'payment_provider', message: 'is not set up' }] },
              })
            : json(201, {
                ...request({ id: 9, amount: 350 }),
                url: 'https://clinic.example/p/token',
              });
        }
        if (url.startsWith('/api/integration/payment-requests?')) return json(200, []);
        return json(404, { code: 'not_found', message: url });
      }),
    );
    const router = await renderPage('/payments?send=039845128');
    const dialog = await screen.findByRole('dialog', { name: 'Request a payment' });
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Find a patient' })).toHaveValue(
        'Dana Levi · 039845128 · 052-1234567',
      ),
    );
    const send = within(dialog).getByRole('checkbox', { name: 'Send the link to 052-1234567' });
    expect(send).toBeChecked();

    // Nothing typed: the sum is refused at its field, nothing is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the request' }));
    expect(within(dialog).getByRole('textbox', { name: /Amount/ })).toHaveAccessibleDescription(
      /Enter a sum in shekels/,
    );
    expect(posted).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Amount/ }), '350');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'What the payment is for' }),
      'Crown',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the request' }));
    expect(await within(dialog).findByText(/card terminal is not set up/)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Amount/ })).toHaveValue('350');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the request' }));
    const created = await screen.findByRole('dialog', { name: 'Payment request created' });
    expect(created).toHaveTextContent('The link to pay ₪350 was sent to 052-1234567.');
    expect(within(created).getByRole('textbox', { name: 'Payment link' })).toHaveValue(
      'https://clinic.example/p/token',
    );
    expect(posted[1]).toEqual({
      amount: 350,
      max_payments: 1,
      expires_in_days: 30,
      purpose: 'Crown',
      patient_id_number: '039845128',
      patient_name_remarks: 'Dana Levi',
      send_to_phone: '0521234567',
    });
    expect(await screen.findByText('Payment request for ₪350 created and sent')).toBeVisible();
    await userEvent.click(within(created).getByRole('button', { name: 'Done' }));
    // The address no longer opens the dialog.
    expect(router.state.location.search).toBe('');
    // jsdom and typing, key by key, are slow on a busy machine.
  }, 30_000);
});
