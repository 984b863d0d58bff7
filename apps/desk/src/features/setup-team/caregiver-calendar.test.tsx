// Over 400 lines: the calendar section's states and dialogs share one caregiver, its answers and
// the page's routes.
import type {
  CalendarConnectionLink,
  CalendarProvider,
  CalendarSyncStatus,
  IntegrationCaregiver,
  StaffSession,
} from '@marpe/shared';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { CaregiverPage } from './caregiver-page';

// The caregiver's page is a long form: on a loaded machine its first render takes seconds.
configure({ asyncUtilTimeout: 10_000 });

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

const noHours = {
  sunday: [],
  monday: [],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
};

const dana = (calendarId: string | null): IntegrationCaregiver => ({
  id: 3,
  name: 'ד"ר דנה לוי',
  image: null,
  license_number: '12345',
  google_calendar_sync_calendar_id: calendarId,
  is_active: true,
  sort_order: 0,
  appointment_type_ids: [],
  marpe_rules: {
    slot_step_minutes: null,
    min_notice_minutes: null,
    booking_horizon_days: null,
    weekly_hours: { ...noHours, sunday: [{ start: '09:00', end: '17:00' }] },
    breaks: [],
    exceptions: [],
  },
});

// What the page reads of the clinic: its clocks and default rules.
const clinic = {
  timezone: 'Asia/Jerusalem',
  default_marpe_rules: { slot_step_minutes: 15, min_notice_minutes: 120, booking_horizon_days: 60 },
};

type Calendar = CalendarSyncStatus['caregivers'][number];

const connected = (overrides: Partial<Calendar> = {}): Calendar => ({
  caregiver_id: 3,
  calendar_id: 'dana.levi@gmail.com',
  state: 'syncing',
  last_error: null,
  // 08:05 UTC is 10:05 at the clinic in winter.
  last_synced_at: '2026-11-28T08:05:00.000Z',
  push: true,
  connection: 'oauth',
  account_email: 'dana.levi@gmail.com',
  provider: 'google',
  ...overrides,
});

const link: CalendarConnectionLink = {
  url: 'http://localhost:3000/calendar/connect/abc123',
  // 12:30 UTC is 14:30 at the clinic.
  expires_at: '2099-11-29T12:30:00.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/**
 * The clinic API as the test answers it: the caregiver, the sync status (what `state` holds when
 * asked), and the connection calls, answered by `connect` and `disconnect`.
 */
function fakeApi(options: {
  caregiver: IntegrationCaregiver;
  state: {
    calendars: Calendar[];
    serviceAccount: string | null;
    /** The providers the server makes links for (default: Google only). */
    providers?: CalendarProvider[];
  };
  connect?: () => Response;
  disconnect?: () => Response;
}) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body });
    const route = `${method} ${url.pathname}`;
    switch (route) {
      case 'GET /api/integration/clinic':
        return json(200, clinic);
      case 'GET /api/integration/appointment-types':
        return json(200, []);
      case 'GET /api/integration/caregivers':
        return json(200, [options.caregiver]);
      case 'GET /api/integration/caregivers/3':
        return json(200, options.caregiver);
      case 'PATCH /api/integration/caregivers/3':
        return json(200, options.caregiver);
      case 'GET /api/integration/calendar-sync':
        return json(200, {
          service_account_email: options.state.serviceAccount,
          connect_providers: options.state.providers ?? ['google'],
          caregivers: options.state.calendars,
        } satisfies CalendarSyncStatus);
      case 'POST /api/integration/caregivers/3/calendar-connection':
        return options.connect ? options.connect() : json(201, link);
      case 'DELETE /api/integration/caregivers/3/calendar-connection':
        return options.disconnect ? options.disconnect() : new Response(null, { status: 204 });
      default:
        return json(404, { code: 'not_found', message: url.pathname });
    }
  });
  return { fetch, calls };
}

async function renderPage(
  fetch: ReturnType<typeof fakeApi>['fetch'],
  { clinicContext = owner, language = 'en' as 'en' | 'he' } = {},
) {
  vi.stubGlobal('fetch', fetch);
  const i18n = await initDeskI18n(language);
  const router = createMemoryRouter(
    [
      { path: '/setup/caregivers/:id', element: <CaregiverPage /> },
      { path: '/setup/caregivers', element: <h1>The list</h1> },
    ],
    { initialEntries: ['/setup/caregivers/3'] },
  );
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <ClinicContext.Provider value={clinicContext}>
        <NotifyProvider>
          <RouterProvider router={router} />
        </NotifyProvider>
      </ClinicContext.Provider>
    </DeskProviders>,
  );
  // The form's first render is slow on a loaded machine: waited for once, here.
  if (clinicContext.isOwner) {
    await screen.findByRole('region', { name: /Calendar sync|סנכרון יומן/ }, { timeout: 20_000 });
  }
}

const section = () => screen.getByRole('region', { name: 'Calendar sync' });

describe("a caregiver's calendar on the desk", { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes a connection link, shows it to copy or open, and sees the calendar connected', async () => {
    const user = userEvent.setup();
    const state = { calendars: [] as Calendar[], serviceAccount: null };
    const api = fakeApi({ caregiver: dana(null), state });
    await renderPage(api.fetch);

    await screen.findByText('Not connected');
    expect(
      within(section()).getByText("Marpe neither reads nor writes this caregiver's calendar."),
    ).toBeVisible();
    // No service account on this server: the typed id is not offered at all.
    expect(screen.queryByRole('button', { name: /Advanced/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Connect Google Calendar' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'A link to connect ד"ר דנה לוי\'s calendar',
    });
    expect(
      api.calls.find((c) => c.method === 'POST' && c.path.endsWith('/calendar-connection'))?.body,
    ).toEqual({ provider: 'google' });
    const field = within(dialog).getByRole('textbox', { name: 'Connection link' });
    expect(field).toHaveValue(link.url);
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveAccessibleDescription(
      'Works until 29.11.2099 14:30. A new link makes this one stop working.',
    );
    const open = within(dialog).getByRole('link', { name: 'Open here' });
    expect(open).toHaveAttribute('href', link.url);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', expect.stringContaining('noopener'));

    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(link.url);
    expect(within(dialog).getByRole('status')).toHaveTextContent('The link was copied.');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The link waits for the caregiver; the desk can show it again or replace it.
    expect(within(section()).getByText(/works until 29\.11\.2099 14:30/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send a new link' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Show the link' }));
    expect(
      within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Connection link' }),
    ).toHaveValue(link.url);
    await user.click(screen.getByRole('button', { name: 'Close' }));

    // The caregiver consents on their phone: the open page learns of it by itself.
    state.calendars = [connected({ state: 'pending', last_synced_at: null })];
    expect(await screen.findByText('Being synced', {}, { timeout: 8_000 })).toBeVisible();
    state.calendars = [connected()];
    expect(await screen.findByText('Connected', {}, { timeout: 8_000 })).toBeVisible();
    const box = section();
    expect(within(box).getByText('dana.levi@gmail.com')).toBeVisible();
    expect(within(box).getByText(/^Connected as/)).toHaveTextContent(
      'Connected as dana.levi@gmail.com',
    );
    expect(within(box).getByText('Last synced 28.11.2026 10:05')).toBeVisible();
    expect(within(box).queryByRole('button', { name: 'Show the link' })).not.toBeInTheDocument();
    expect(within(box).getByRole('button', { name: 'Send a new link' })).toBeVisible();
  });

  it('disconnects after saying what happens, and the calendar shows as not connected', async () => {
    const user = userEvent.setup();
    const state = { calendars: [connected()], serviceAccount: null };
    const api = fakeApi({ caregiver: dana('dana.levi@gmail.com'), state });
    await renderPage(api.fetch);

    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Disconnect ד"ר דנה לוי\'s calendar?',
    });
    expect(dialog).toHaveAccessibleDescription(
      /stops reading and writing this calendar: its busy times leave the diary.*The events Marpe already wrote stay in Google Calendar.*access to the caregiver's Google account is revoked/,
    );
    state.calendars = [];
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Not connected')).toBeVisible();
    expect(
      api.calls.filter((c) => c.method === 'DELETE' && c.path.endsWith('/calendar-connection')),
    ).toHaveLength(1);
    expect(await screen.findByText('ד"ר דנה לוי\'s calendar was disconnected')).toBeVisible();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Connect Google Calendar' })).toHaveFocus(),
    );

    // A save afterwards does not bring the old id back.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { name: 'The list' });
    const patch = api.calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).not.toHaveProperty('google_calendar_sync_calendar_id');
  });

  it('says what went wrong, translated, when the API refuses', async () => {
    const user = userEvent.setup();
    const state = { calendars: [connected()], serviceAccount: null };
    let answer = json(404, { code: 'not_found', message: 'No caregiver 3' });
    const api = fakeApi({
      caregiver: dana('dana.levi@gmail.com'),
      state,
      connect: () => answer,
      disconnect: () => json(409, { code: 'conflict', message: 'Busy' }),
    });
    await renderPage(api.fetch);

    const again = await screen.findByRole('button', { name: 'Send a new link' });
    await user.click(again);
    expect(await within(section()).findByText('This clinic has no such caregiver.')).toBeVisible();
    answer = json(503, { code: 'service_unavailable', message: 'No GOOGLE_OAUTH_CLIENT_ID' });
    await user.click(again);
    expect(
      await within(section()).findByText(
        /^Connecting this kind of calendar is not set up on this server/,
      ),
    ).toBeVisible();
    answer = json(400, {
      code: 'validation_failed',
      message: 'Invalid body',
      details: { issues: [{ path: 'provider', message: 'Invalid option' }] },
    });
    await user.click(again);
    expect(await within(section()).findByText('Some fields need fixing. (provider)')).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(
      await within(dialog).findByText('This changed meanwhile. Refresh and try again.'),
    ).toBeVisible();
    // Still connected: nothing pretends otherwise.
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });

  it.each([
    ['no_access', /^Microsoft no longer lets Marpe reach this calendar/],
    ['not_found', /^Microsoft has no such calendar any more/],
    ['error', /^Microsoft answered with an error: HTTP 429/],
  ] as const)('a Microsoft calendar in state %s names Microsoft', async (state, text) => {
    const api = fakeApi({
      caregiver: dana('AAMkDana'),
      state: {
        calendars: [
          connected({
            state,
            provider: 'microsoft',
            calendar_id: 'AAMkDana',
            last_error: state === 'error' ? 'HTTP 429: Too many requests' : null,
          }),
        ],
        serviceAccount: null,
      },
    });
    await renderPage(api.fetch);
    expect(await within(section()).findByText(text)).toBeVisible();
  });

  it.each([
    ['read_only', 'Read only', /can only be read.*Send a new link/],
    ['no_access', 'No access', /no longer lets Marpe reach this calendar.*new link/],
    ['not_found', 'Calendar not found', /no such calendar any more/],
  ] as const)('a consent connection in state %s says what to do', async (state, title, text) => {
    const api = fakeApi({
      caregiver: dana('dana.levi@gmail.com'),
      state: { calendars: [connected({ state })], serviceAccount: null },
    });
    await renderPage(api.fetch);
    expect(await screen.findByText(title)).toBeVisible();
    expect(within(section()).getByText(text)).toBeVisible();
  });

  it("an error says Google's message and when it last synced", async () => {
    const api = fakeApi({
      caregiver: dana('dana.levi@gmail.com'),
      state: {
        calendars: [connected({ state: 'error', last_error: 'Google answered 503' })],
        serviceAccount: null,
      },
    });
    await renderPage(api.fetch);
    expect(await screen.findByText('Sync error')).toBeVisible();
    expect(
      within(section()).getByText(/Google answered with an error: Google answered 503\./),
    ).toBeVisible();
    expect(within(section()).getByText('Last synced 28.11.2026 10:05')).toBeVisible();
  });

  it('the service-account path: its state, the id under "advanced", sent only when changed', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      caregiver: dana('dana@clinic.example'),
      state: {
        calendars: [
          connected({
            calendar_id: 'dana@clinic.example',
            state: 'no_access',
            last_error: 'Forbidden',
            last_synced_at: null,
            connection: 'service_account',
            account_email: null,
          }),
        ],
        serviceAccount: 'marpe@demo.iam.gserviceaccount.com',
      },
    });
    await renderPage(api.fetch);
    expect(await screen.findByText('No access')).toBeVisible();
    const box = section();
    expect(within(box).getByText("Connected through Marpe's service account")).toBeVisible();
    expect(
      within(box).getByText(/share it with marpe@demo\.iam\.gserviceaccount\.com with/),
    ).toBeVisible();
    expect(within(box).getByText('Not synced yet.')).toBeVisible();
    // The clinic uses the service account already: the advanced part is open.
    const advanced = within(box).getByRole('button', { name: /Advanced/ });
    expect(advanced).toHaveAttribute('aria-expanded', 'true');
    const id = within(box).getByRole('textbox', { name: 'Google Calendar ID (optional)' });
    expect(id).toHaveValue('dana@clinic.example');

    await user.clear(id);
    await user.type(id, 'dana.levi@clinic.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { name: 'The list' });
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      google_calendar_sync_calendar_id: 'dana.levi@clinic.example',
    });
  });

  it('in Hebrew: the words of the spec, right to left', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      caregiver: dana(null),
      state: { calendars: [], serviceAccount: 'marpe@demo.iam.gserviceaccount.com' },
    });
    await renderPage(api.fetch, { language: 'he' });
    const box = await screen.findByRole('region', { name: 'סנכרון יומן' });
    expect(await within(box).findByText('לא מחובר')).toBeVisible();
    // Folded away by default: the consent link is the main way.
    expect(within(box).getByRole('button', { name: /מתקדם/ })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await user.click(within(box).getByRole('button', { name: 'חיבור יומן Google' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'העתקה' })).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'פתיחה כאן' })).toBeVisible();
    expect(
      within(dialog).getByText('בתוקף עד 29.11.2099 14:30. קישור חדש מבטל את הקישור הזה.'),
    ).toBeVisible();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('offers Microsoft 365 beside Google where the server has both, and names the provider of a connected calendar', async () => {
    const user = userEvent.setup();
    const state = {
      calendars: [] as Calendar[],
      serviceAccount: null,
      providers: ['google', 'microsoft'] as CalendarProvider[],
    };
    const api = fakeApi({ caregiver: dana(null), state });
    await renderPage(api.fetch);
    await screen.findByText('Not connected');
    expect(screen.getByRole('button', { name: 'Connect Google Calendar' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Connect Microsoft 365 / Outlook' }));
    await screen.findByRole('dialog', { name: 'A link to connect ד"ר דנה לוי\'s calendar' });
    expect(
      api.calls.find((c) => c.method === 'POST' && c.path.endsWith('/calendar-connection'))?.body,
    ).toEqual({ provider: 'microsoft' });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    // The caregiver consents with their Microsoft account: the open page learns of it.
    state.calendars = [
      connected({
        calendar_id: 'AAMkDana',
        account_email: 'dana@clinic.onmicrosoft.com',
        provider: 'microsoft',
      }),
    ];
    expect(await screen.findByText('Connected', {}, { timeout: 8_000 })).toBeVisible();
    expect(within(section()).getByText('Microsoft 365 / Outlook')).toBeVisible();
    // A new link for a connected calendar is for its own provider, and there is one button.
    expect(
      screen.queryByRole('button', { name: 'Connect Google Calendar' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a new link' })).toBeVisible();

    // Disconnecting says where the events stay, and that Microsoft's access is removed there.
    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Disconnect ד"ר דנה לוי\'s calendar?',
    });
    expect(dialog).toHaveAccessibleDescription(
      /The events Marpe already wrote stay in Microsoft 365 \/ Outlook\..*Marpe forgets its access\. To take it away in Microsoft too/,
    );
    expect(dialog).not.toHaveAccessibleDescription(/Google/);
  });

  it('front desk reads that the page is for owners, and asks nothing', async () => {
    const api = fakeApi({ caregiver: dana(null), state: { calendars: [], serviceAccount: null } });
    await renderPage(api.fetch, {
      clinicContext: { ...owner, role: 'front_desk', isOwner: false },
    });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      "For the clinic's owners only",
    );
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
