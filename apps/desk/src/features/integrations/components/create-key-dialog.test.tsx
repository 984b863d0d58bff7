import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initDeskI18n } from '../../../app/i18n/init';
import { createDeskQueryClient, DeskProviders } from '../../../app/providers';
import { NotifyProvider } from '../../../lib/notify';
import { CreateKeyDialog } from './create-key-dialog';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const created = {
  id: 4,
  name: 'תוכנת המרפאה',
  prefix: 'mrp_AbCdEf',
  created_at: '2027-03-24T08:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
  key: 'mrp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg',
};

async function renderDialog(answers: Response[]) {
  const fetch = vi.fn(async () => answers.shift() ?? json(500, { code: 'internal_error' }));
  vi.stubGlobal('fetch', fetch);
  const onCreated = vi.fn();
  const i18n = await initDeskI18n('en');
  render(
    <DeskProviders i18n={i18n} queryClient={createDeskQueryClient()}>
      <NotifyProvider>
        <CreateKeyDialog open onClose={() => undefined} onCreated={onCreated} />
      </NotifyProvider>
    </DeskProviders>,
  );
  return { fetch, onCreated };
}

describe('creating an API key', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says at the field that a name is needed, before anything is sent', async () => {
    const { fetch } = await renderDialog([]);
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Create the key' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Required');
    expect(fetch).not.toHaveBeenCalled();
    expect(dialog).toBeInTheDocument();
  });

  it('keeps the name when the call fails, then shows the key once with a copy button', async () => {
    const { fetch, onCreated } = await renderDialog([
      json(503, { code: 'service_unavailable', message: 'down' }),
      json(201, created),
    ]);
    const name = screen.getByRole('textbox', { name: 'Name' });
    await userEvent.type(name, 'תוכנת המרפאה');
    await userEvent.click(screen.getByRole('button', { name: 'Create the key' }));
    expect(
      await screen.findByText(
        'The service is unavailable right now. Please try again in a moment.',
      ),
    ).toBeInTheDocument();
    expect(name).toHaveValue('תוכנת המרפאה');
    expect(onCreated).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Create the key' }));
    const shown = await screen.findByRole('dialog', { name: 'The key is ready' });
    expect(shown).toBeInTheDocument();
    const key = screen.getByRole('textbox', { name: 'API key' });
    expect(key).toHaveValue(created.key);
    expect(key).toHaveAttribute('readonly');
    expect(key).toHaveAccessibleDescription(/You will not see this again/);
    expect(onCreated).toHaveBeenCalledOnce();
    expect(fetch).toHaveBeenLastCalledWith(
      '/api/integration/api-keys',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ name: 'תוכנת המרפאה' }) }),
    );

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(created.key);
    expect(await screen.findByRole('status')).toHaveTextContent('Copied.');
  });
});
