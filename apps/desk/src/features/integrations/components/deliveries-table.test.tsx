import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookDelivery, WebhookEndpoint } from '@marpe/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../../app/providers';
import { NotifyProvider } from '../../../lib/notify';
import { DeliveriesTable } from './deliveries-table';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const endpoint: WebhookEndpoint = {
  id: 3,
  url: 'https://pms.example/marpe',
  events: [],
  is_active: true,
  created_at: '2027-03-24T08:00:00.000Z',
  updated_at: '2027-03-24T08:00:00.000Z',
};

const delivery = (id: number, status: WebhookDelivery['status']): WebhookDelivery => ({
  id,
  endpoint_id: endpoint.id,
  event_id: `evt_${id}`,
  event_type: 'payment.succeeded',
  status,
  attempts: status === 'pending' ? 0 : 2,
  last_status_code: status === 'failed' ? 500 : status === 'delivered' ? 200 : null,
  last_error: status === 'failed' ? 'The endpoint answered 500' : null,
  created_at: '2027-03-24T08:00:00.000Z',
  last_attempt_at: status === 'pending' ? null : '2027-03-24T08:01:00.000Z',
  delivered_at: status === 'delivered' ? '2027-03-24T08:01:00.000Z' : null,
});

/** Answers the log with `log()` and each retry with the next of `retries`. */
async function renderTable(log: () => WebhookDelivery[], retries: Response[]) {
  const fetch = vi.fn(async (url: string) =>
    url.includes('/retry') ? (retries.shift() ?? json(500, {})) : json(200, log()),
  );
  vi.stubGlobal('fetch', fetch);
  const i18n = await initDeskI18n('en');
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <NotifyProvider>
        <DeliveriesTable endpoints={[endpoint]} />
      </NotifyProvider>
    </DeskProviders>,
  );
  return fetch;
}

const retryButtons = () => screen.queryAllByRole('button', { name: /^Send again/ });

describe('the delivery log: sending a failed delivery again', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers it on failed rows only; once sent, says so and the row reads pending', async () => {
    let rows = [delivery(2, 'failed'), delivery(1, 'delivered')];
    const fetch = await renderTable(() => rows, [json(200, delivery(2, 'pending'))]);
    const button = await screen.findByRole('button', { name: /^Send again/ }, { timeout: 5000 });
    // Named with its event, for the reader of a list of such buttons.
    expect(button).toHaveTextContent(/^Send again Payment succeeded, /);
    expect(retryButtons()).toHaveLength(1);
    const row = button.closest('tr') as HTMLElement;
    expect(within(row).getByText('Failed')).toBeInTheDocument();

    rows = [delivery(2, 'pending'), delivery(1, 'delivered')];
    await userEvent.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(
      '"Payment succeeded" will be sent to https://pms.example/marpe again',
    );
    expect(fetch).toHaveBeenCalledWith(
      '/api/integration/webhook-deliveries/2/retry',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(await within(row).findByText('Being sent')).toBeInTheDocument();
    expect(retryButtons()).toHaveLength(0);
  });

  it("tells why it was refused, in the reader's words", async () => {
    await renderTable(
      () => [delivery(2, 'failed')],
      [
        json(409, {
          code: 'conflict',
          message: 'The endpoint of delivery 2 is paused',
          details: { reason: 'endpoint_paused' },
        }),
        json(503, { code: 'service_unavailable', message: 'down' }),
      ],
    );
    await userEvent.click(
      await screen.findByRole('button', { name: /^Send again/ }, { timeout: 5000 }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The address is paused. Resume it, then send again.',
    );
    await userEvent.click(screen.getByRole('button', { name: /^Send again/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The service is unavailable right now. Please try again in a moment.',
    );
    // Still failed, still offered.
    expect(retryButtons()).toHaveLength(1);
  });
});
