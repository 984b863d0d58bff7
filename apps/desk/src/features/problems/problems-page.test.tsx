import type { CalendarSyncStatus, MessageFailure, StaffSession } from '@marpe/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { ProblemsPage } from './problems-page';

const session: StaffSession = {
  account: { id: 5, name: 'רונית מזרחי', phone: '0527000001' },
  memberships: [{ clinic_id: 7, clinic_name: 'מרפאה', role: 'owner' }],
  method: 'sms',
  expires_at: '2031-01-01T00:00:00Z',
  idle_timeout_minutes: 60,
  has_passkey: false,
};

const owner: ClinicContextValue = {
  clinicId: 7,
  clinicName: 'מרפאה',
  role: 'owner',
  memberships: session.memberships,
  isOwner: true,
  session,
  switchClinic: () => undefined,
};

const failure = (id: number, overrides: Partial<MessageFailure> = {}): MessageFailure => ({
  id,
  kind: 'reminder',
  channel: 'sms',
  recipient: '052-***-4567',
  status: 'failed',
  attempts: 14,
  last_error: 'Error: SMS gateway answered 503',
  created_at: '2031-01-08T12:00:00.000Z',
  ended_at: '2031-01-10T12:00:00.000Z',
  ...overrides,
});

/** 21 failures: a page of 20, then one more. */
const failures = [
  failure(21, { kind: 'login_code', status: 'expired', recipient: '054-***-4321' }),
  ...Array.from({ length: 19 }, (_, i) => failure(20 - i)),
  failure(1, { kind: 'payment_link', channel: 'whatsapp', recipient: null }),
];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeApi(sync: CalendarSyncStatus, messages: MessageFailure[]) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    switch (url.pathname) {
      case '/api/integration/clinic':
        return json(200, { timezone: 'Asia/Jerusalem' });
      case '/api/integration/caregivers':
        return json(200, [{ id: 3, name: 'ד"ר דנה' }]);
      case '/api/integration/calendar-sync':
        return json(200, sync);
      case '/api/integration/calendar-sync/conflicts':
        return json(200, []);
      case '/api/integration/message-failures': {
        const before = url.searchParams.get('before');
        const rows = messages.filter((m) => before === null || m.id < Number(before));
        return json(200, rows.slice(0, Number(url.searchParams.get('limit'))));
      }
      default:
        return json(404, { code: 'not_found', message: url.pathname });
    }
  });
}

async function renderPage(fetch: ReturnType<typeof fakeApi>, clinic = owner) {
  vi.stubGlobal('fetch', fetch);
  const i18n = await initDeskI18n('en');
  const router = createMemoryRouter([{ path: '/problems', element: <ProblemsPage /> }], {
    initialEntries: ['/problems'],
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
}

describe('the problems page', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists failed messages in words, masked, and pages on; calendars in trouble stand out', async () => {
    await renderPage(
      fakeApi(
        {
          service_account_email: 'marpe@example.iam.gserviceaccount.com',
          connect_providers: ['google'],
          caregivers: [
            {
              caregiver_id: 3,
              calendar_id: 'dana@example.com',
              state: 'no_access',
              last_error: 'Forbidden',
              last_synced_at: null,
              push: false,
              connection: 'service_account',
              account_email: null,
              provider: 'google',
            },
          ],
        },
        failures,
      ),
    );
    const messages = await screen.findByRole('table', { name: 'Messages not sent' });
    const code = within(messages).getByRole('rowheader', { name: 'Sign-in code' }).closest('tr');
    expect(code).toHaveTextContent('054-***-4321');
    expect(code).toHaveTextContent('Expired');
    // 12:00 UTC is 14:00 at the clinic.
    expect(code).toHaveTextContent('14:00');
    expect(within(messages).getAllByText('Appointment reminder')).toHaveLength(19);
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    const link = (await within(messages).findByRole('rowheader', { name: 'Payment link' })).closest(
      'tr',
    );
    expect(link).toHaveTextContent('Unknown');
    expect(link).toHaveTextContent('WhatsApp');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();

    const calendars = screen.getByRole('table', { name: 'Google Calendar sync' });
    const dana = within(calendars).getByRole('rowheader', { name: 'ד"ר דנה' }).closest('tr');
    expect(dana).toHaveTextContent('No access to the calendar');
    expect(dana).toHaveTextContent('Not yet');
    expect(screen.getByText(/Share each calendar with marpe@example/)).toBeVisible();
    expect(screen.getByText('No conflicts.')).toBeVisible();
  });

  it('advises a new connection link, not a share, for a calendar connected by consent', async () => {
    await renderPage(
      fakeApi(
        {
          service_account_email: 'marpe@example.iam.gserviceaccount.com',
          connect_providers: ['google'],
          caregivers: [
            {
              caregiver_id: 3,
              calendar_id: 'dana@example.com',
              state: 'no_access',
              last_error: 'Google no longer accepts this connection',
              last_synced_at: null,
              push: false,
              connection: 'oauth',
              account_email: 'dana@example.com',
              provider: 'google',
            },
          ],
        },
        [],
      ),
    );
    expect(await screen.findByText(/send them a new connection link/)).toBeVisible();
    expect(screen.queryByText(/Share each calendar with/)).not.toBeInTheDocument();
  });

  it('says plainly when there is nothing wrong', async () => {
    await renderPage(
      fakeApi({ service_account_email: null, connect_providers: [], caregivers: [] }, []),
    );
    expect(await screen.findByText('No failed messages.')).toBeVisible();
    expect(await screen.findByText('No synced calendars.')).toBeVisible();
    expect(await screen.findByText('No conflicts.')).toBeVisible();
  });

  it('front desk reads that the page is for owners, and asks nothing', async () => {
    const fetch = fakeApi(
      { service_account_email: null, connect_providers: [], caregivers: [] },
      failures,
    );
    await renderPage(fetch, { ...owner, role: 'front_desk', isOwner: false });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      "For the clinic's owners only",
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
