import type { StaffSession, WhatsAppStatus } from '@marpe/shared';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../app/providers';
import { NotifyProvider } from '../../lib/notify';
import { ClinicContext, type ClinicContextValue } from '../../lib/session';
import { ChannelPage } from './channel-page';

const session: StaffSession = {
  account: { id: 1, name: 'רונית מזרחי', phone: '0527000001' },
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

const notConnected: WhatsAppStatus = {
  connected: false,
  waba_id: null,
  phone_number_id: null,
  business_id: null,
  connected_at: null,
  messaging_channel: 'sms',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The API as the page meets it: the status answers in turn, and the connect call's answer. */
function fakeApi(statuses: WhatsAppStatus[], connect: Response) {
  let asked = 0;
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/integration/whatsapp/connect' && init?.method === 'POST') return connect;
    if (url === '/api/integration/whatsapp') {
      const status = statuses[Math.min(asked, statuses.length - 1)];
      asked += 1;
      return json(200, status);
    }
    return json(404, { code: 'not_found', message: url });
  });
}

async function renderPage() {
  const i18n = await initDeskI18n('en');
  const router = createMemoryRouter([{ path: '/setup/channel', element: <ChannelPage /> }], {
    initialEntries: ['/setup/channel'],
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

describe('the channel step', () => {
  let open: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    open = vi.fn(() => null);
    vi.stubGlobal('open', open);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens the connection page in a new tab, and shows WhatsApp connected once the owner is back', async () => {
    const connected: WhatsAppStatus = {
      ...notConnected,
      connected: true,
      phone_number_id: '1234567890',
      connected_at: '2031-03-01T10:00:00Z',
    };
    const url = 'http://localhost/whatsapp-signup/abc';
    vi.stubGlobal(
      'fetch',
      fakeApi(
        [notConnected, connected],
        json(200, { client_id: 'abc', url, expires_at: '2031-03-02T10:00:00Z' }),
      ),
    );
    await renderPage();
    await screen.findByText('WhatsApp is not connected yet, so messages go by SMS.');
    expect(screen.getByRole('radio', { name: 'WhatsApp' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: /Connect WhatsApp/ }));
    expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener');
    // Should the browser not open it, the link is there.
    expect(await screen.findByRole('link', { name: /Open the connection page/ })).toHaveAttribute(
      'href',
      url,
    );

    // Back from the other tab: the page asks again and shows the connection.
    await act(async () => {
      window.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    await screen.findByText(/WhatsApp connected since/);
    expect(screen.getByRole('radio', { name: 'WhatsApp' })).toBeEnabled();
    expect(screen.getByText('1234567890')).toBeInTheDocument();
  });

  it('says plainly that this server cannot connect WhatsApp, and that SMS goes on', async () => {
    vi.stubGlobal(
      'fetch',
      fakeApi(
        [notConnected],
        json(503, { code: 'service_unavailable', message: 'WhatsApp is not set up' }),
      ),
    );
    await renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Connect WhatsApp/ }));
    expect(
      await screen.findByText(/WhatsApp cannot be connected on this server/),
    ).toHaveTextContent('Messages keep going by SMS.');
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Connect WhatsApp/ })).toBeDisabled();
  });
});
