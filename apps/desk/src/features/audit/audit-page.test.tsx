import type { ApiKey, AuditLogEntry, StaffList, StaffSession } from '@marpe/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { AuditPage } from './audit-page';
import { dayStartIn } from './audit-labels';

const session: StaffSession = {
  account: { id: 5, name: 'רונית מזרחי', phone: '0527000001' },
  memberships: [{ clinic_id: 7, clinic_name: 'מרפאה', role: 'owner' }],
  method: 'sms',
  expires_at: '2031-01-01T00:00:00Z',
  idle_timeout_minutes: 60,
  has_passkey: false,
};

const clinic: ClinicContextValue = {
  clinicId: 7,
  clinicName: 'מרפאה',
  role: 'owner',
  memberships: session.memberships,
  isOwner: true,
  session,
  switchClinic: () => undefined,
};

const staff: StaffList = {
  members: [
    {
      id: 1,
      account_id: 5,
      name: 'רונית מזרחי',
      phone: '0527000001',
      role: 'owner',
      created_at: '2031-01-01T00:00:00Z',
    },
  ],
  invitations: [],
};

const keys: ApiKey[] = [
  {
    id: 3,
    name: 'pms',
    prefix: 'mk_abc',
    created_at: '2031-01-01T00:00:00Z',
    last_used_at: null,
    revoked_at: null,
  },
];

const entry = (id: number, actor: string, overrides: Partial<AuditLogEntry> = {}) => ({
  id,
  actor,
  actor_name: actor === 'staff:5' ? 'רונית מזרחי' : actor === 'api_key:3' ? 'pms' : null,
  action: 'appointment.book',
  target_type: 'appointment',
  target_id: String(id),
  details: {},
  // 12:00 UTC is 14:00 in Israel in winter.
  created_at: '2031-01-10T12:00:00.000Z',
  ...overrides,
});

/** 51 entries, newest first: the page shows 50, then "more". */
const log: AuditLogEntry[] = [
  entry(51, 'staff:5', { action: 'staff.invite', details: { name: 'נועה', role: 'front_desk' } }),
  entry(50, 'cli', { action: 'clinic.create', target_type: 'clinic' }),
  ...Array.from({ length: 48 }, (_, i) => entry(49 - i, 'api_key:3')),
  entry(1, 'api_key:3', { action: 'caregiver.create', target_type: 'caregiver' }),
];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeApi() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    switch (url.pathname) {
      case '/api/integration/clinic':
        return json(200, { timezone: 'Asia/Jerusalem' });
      case '/api/integration/staff':
        return json(200, staff);
      case '/api/integration/api-keys':
        return json(200, keys);
      case '/api/integration/audit-log': {
        const q = url.searchParams;
        const before = q.get('before');
        const rows = log.filter(
          (e) =>
            (before === null || e.id < Number(before)) &&
            (q.get('actor') === null || e.actor === q.get('actor')) &&
            (q.get('action') === null || e.action.startsWith(q.get('action') ?? '')),
        );
        return json(200, rows.slice(0, Number(q.get('limit'))));
      }
      default:
        return json(404, { code: 'not_found', message: url.pathname });
    }
  });
}

async function renderPage() {
  const fetch = fakeApi();
  vi.stubGlobal('fetch', fetch);
  const i18n = await initDeskI18n('en');
  const router = createMemoryRouter([{ path: '/audit', element: <AuditPage /> }], {
    initialEntries: ['/audit'],
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
  return fetch;
}

const auditCalls = (fetch: ReturnType<typeof fakeApi>) =>
  fetch.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/integration/audit-log');

describe('the audit log page', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says who did what in words, in the clinic time zone, and pages on with "more"', async () => {
    const fetch = await renderPage();
    const table = await screen.findByRole('table', { name: 'Actions, newest first' });
    const invite = within(table).getByRole('rowheader', { name: 'Staff invited' }).closest('tr');
    expect(invite).toHaveTextContent('רונית מזרחי');
    expect(invite).toHaveTextContent('14:00');
    expect(invite).toHaveTextContent('name: נועה');
    const created = within(table).getByRole('rowheader', { name: 'Clinic created' }).closest('tr');
    expect(created).toHaveTextContent('The operator (command line)');
    expect(within(table).getAllByText('API key: pms')).toHaveLength(48);
    // The header row and a page of 50.
    expect(table.querySelectorAll('tr')).toHaveLength(51);

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await within(table).findByRole('rowheader', { name: 'Caregiver added' })).toBeVisible();
    expect(auditCalls(fetch).at(-1)?.searchParams.get('before')).toBe('2');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('filters by who (staff members and keys by name) and by area', async () => {
    const fetch = await renderPage();
    await screen.findByRole('table', { name: 'Actions, newest first' });
    const who = screen.getByRole('combobox', { name: 'Who' });
    await within(who).findByRole('option', { name: 'pms' });
    await userEvent.selectOptions(who, 'pms');
    await screen.findByRole('rowheader', { name: 'Caregiver added' });
    expect(auditCalls(fetch).at(-1)?.searchParams.get('actor')).toBe('api_key:3');
    expect(screen.queryByRole('rowheader', { name: 'Staff invited' })).not.toBeInTheDocument();

    await userEvent.selectOptions(who, 'רונית מזרחי');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Area' }), 'Clinic details');
    expect(await screen.findByText('No actions match the filters.')).toBeVisible();
    expect(auditCalls(fetch).at(-1)?.searchParams.get('action')).toBe('clinic.');

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('rowheader', { name: 'Staff invited' })).toBeVisible();
  });

  it('takes dates as clinic days, the last one included, and says when they are the wrong way round', async () => {
    const fetch = await renderPage();
    await screen.findByRole('table', { name: 'Actions, newest first' });
    const from = screen.getByLabelText('From date');
    const to = screen.getByLabelText('To date (included)');
    await userEvent.type(from, '2031-01-10');
    await userEvent.type(to, '2031-01-10');
    await vi.waitFor(() =>
      expect(auditCalls(fetch).at(-1)?.searchParams.get('to')).toBe('2031-01-10T22:00:00.000Z'),
    );
    expect(auditCalls(fetch).at(-1)?.searchParams.get('from')).toBe('2031-01-09T22:00:00.000Z');

    await userEvent.clear(to);
    await userEvent.type(to, '2031-01-09');
    expect(await screen.findByText('The end date is before the start date.')).toBeVisible();
    // The range the wrong way round is never asked for (the server would refuse it).
    expect(auditCalls(fetch).map((url) => url.searchParams.get('to'))).not.toContain(
      '2031-01-09T22:00:00.000Z',
    );
  });
});

describe('dayStartIn', () => {
  it('finds midnight in the zone, across daylight saving changes', () => {
    expect(dayStartIn('2031-01-10', 'Asia/Jerusalem')).toBe('2031-01-09T22:00:00.000Z');
    expect(dayStartIn('2031-07-10', 'Asia/Jerusalem')).toBe('2031-07-09T21:00:00.000Z');
    // Israel moved its clocks forward on Friday 2027-03-26 at 02:00.
    expect(dayStartIn('2027-03-26', 'Asia/Jerusalem')).toBe('2027-03-25T22:00:00.000Z');
    expect(dayStartIn('2027-03-26', 'Asia/Jerusalem', 1)).toBe('2027-03-26T21:00:00.000Z');
  });
});
