import type {
  IntegrationCaregiver,
  IntegrationWaitlistEntry,
  StaffSession,
  WaitlistSlots,
} from '@marpe/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { WaitlistPage } from './waitlist-page';

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

const caregiver = (id: number, name: string, typeIds: number[]) =>
  ({ id, name, is_active: true, appointment_type_ids: typeIds }) as IntegrationCaregiver;

const entry = (id: number, first: string, overrides: Partial<IntegrationWaitlistEntry> = {}) =>
  ({
    id,
    patient: {
      id: id * 10,
      id_number: String(id).padStart(9, '0'),
      first_name: first,
      last_name: 'Cohen',
      phone: `05270000${String(id).padStart(2, '0')}`,
    },
    caregiver: { id: 1, name: 'Dr Dana' },
    appointment_type: { id: 5, name: 'Checkup' },
    from_date: '2031-03-02',
    to_date: '2031-03-04',
    part_of_day: 'morning',
    joined_at: '2031-02-27T08:00:00Z',
    ...overrides,
  }) satisfies IntegrationWaitlistEntry;

const slots: WaitlistSlots = {
  entry_id: 1,
  caregiver_id: 1,
  slots: [
    {
      start: '2031-03-02T09:00:00+02:00',
      end: '2031-03-02T09:30:00+02:00',
      in_part_of_day: true,
      offered: true,
    },
    {
      start: '2031-03-02T09:30:00+02:00',
      end: '2031-03-02T10:00:00+02:00',
      in_part_of_day: true,
      offered: false,
    },
    {
      start: '2031-03-03T13:00:00+02:00',
      end: '2031-03-03T13:30:00+02:00',
      in_part_of_day: false,
      offered: false,
    },
  ],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The clinic API as the page meets it; `offer` answers the offers in turn. */
function fakeApi(entries: IntegrationWaitlistEntry[][], offers: Response[]) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url === '/api/integration/clinic') return json(200, { timezone: 'Asia/Jerusalem' });
    if (url === '/api/integration/caregivers') {
      return json(200, [
        caregiver(1, 'Dr Dana', [5]),
        caregiver(2, 'Dr Ron', [5]),
        caregiver(3, 'Dr Eli', [6]),
      ]);
    }
    if (url.startsWith('/api/integration/waitlist/entries?')) {
      const after = new URL(url, 'http://x').searchParams.get('after');
      return json(200, after === null ? entries[0] : (entries[1] ?? []));
    }
    if (url.startsWith('/api/integration/waitlist/entries/1/slots')) return json(200, slots);
    if (url === '/api/integration/waitlist/entries/1/offer' && init?.method === 'POST') {
      return offers.shift() ?? json(500, { code: 'internal_error', message: 'no more' });
    }
    return json(404, { code: 'not_found', message: url });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

async function renderPage(path = '/waitlist') {
  const i18n = await initDeskI18n('en');
  const router = createMemoryRouter(
    [
      { path: '/waitlist', element: <WaitlistPage /> },
      { path: '/patients/:idNumber', element: <p>patient page</p> },
    ],
    { initialEntries: [path] },
  );
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

describe('the waitlist page', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists who waits a page at a time, filters by caregiver in the address, links to the patient', async () => {
    const first = Array.from({ length: 50 }, (_, i) => entry(i + 1, `P${i + 1}`));
    const calls = fakeApi([first, [entry(51, 'Last')]], []);
    const router = await renderPage();
    // Text queries: role queries over 50 rows take seconds in jsdom.
    expect(await screen.findByText('P50 Cohen', { selector: 'a' })).toBeInTheDocument();
    expect(screen.queryByText('Last Cohen', { selector: 'a' })).toBeNull();
    await userEvent.click(screen.getByText('Show more'));
    expect(await screen.findByText('Last Cohen', { selector: 'a' })).toHaveAttribute(
      'href',
      '/patients/000000051',
    );
    expect(calls.some((c) => c.url.includes('after=50'))).toBe(true);
    await waitFor(() => expect(screen.queryByText('Show more')).toBeNull());

    await userEvent.selectOptions(screen.getByLabelText('Caregiver'), 'Dr Ron');
    expect(router.state.location.search).toBe('?caregiver=2');
    await waitFor(() => expect(calls.some((c) => c.url.includes('caregiver_id=2'))).toBe(true));

    await userEvent.click(screen.getByText('P1 Cohen', { selector: 'a' }));
    expect(router.state.location.pathname).toBe('/patients/000000001');
  });

  it('offers a chosen free time, keeps the choice when the server refuses, and says what happened', async () => {
    const calls = fakeApi(
      [[entry(1, 'Yael')]],
      [
        json(409, {
          code: 'conflict',
          message: 'offered',
          details: { reason: 'already_offered' },
        }),
        json(201, {
          entry_id: 1,
          caregiver_id: 1,
          start_date: '2031-03-02T09:30:00+02:00',
          end_date: '2031-03-02T10:00:00+02:00',
          offered_at: '2031-02-28T08:00:00.000Z',
          quiet_until: null,
        }),
      ],
    );
    await renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Offer a time.*Yael Cohen/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Offer a time to Yael Cohen' });

    // Nothing chosen: said at the times.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the offer' }));
    expect(await within(dialog).findByText('Choose a time')).toBeInTheDocument();

    // Offered already: disabled; the afternoon one only when asked for.
    expect(await within(dialog).findByRole('radio', { name: /09:00/ })).toBeDisabled();
    expect(within(dialog).queryByRole('radio', { name: /13:00/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /other times of day/ }));
    expect(within(dialog).getByRole('radio', { name: /13:00/ })).toBeEnabled();

    await userEvent.click(within(dialog).getByRole('radio', { name: /09:30/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the offer' }));
    expect(
      await within(dialog).findByText(
        'This time was offered to the patient already. Choose another.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /09:30/ })).toBeChecked();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the offer' }));
    expect(await screen.findByText(/Offer sent to Yael Cohen: .* at 09:30\./)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const offers = calls.filter((c) => c.url.endsWith('/offer'));
    expect(offers.map((c) => c.body)).toEqual([
      { start_date: '2031-03-02T09:30:00+02:00' },
      { start_date: '2031-03-02T09:30:00+02:00' },
    ]);
  });

  it('offers another caregiver’s time, only among those who offer the type', async () => {
    const calls = fakeApi(
      [[entry(1, 'Yael')]],
      [
        json(400, {
          code: 'validation_failed',
          message: 'Invalid request: start_date',
          details: { issues: [{ path: 'start_date', message: 'Not a time' }] },
        }),
      ],
    );
    await renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Offer a time.*Yael Cohen/ }));
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByRole('combobox', { name: 'Caregiver' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Dr Dana', 'Dr Ron']);
    await userEvent.selectOptions(select, 'Dr Ron');
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('slots?caregiver_id=2'))).toBe(true),
    );
    await userEvent.click(await within(dialog).findByRole('radio', { name: /09:30/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the offer' }));
    expect(await within(dialog).findByText(/This time cannot be offered now/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/offer')).map((c) => c.body)).toEqual([
      { start_date: '2031-03-02T09:30:00+02:00', caregiver_id: 2 },
    ]);
  });
});
