import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { navigation, ShaamAuthPage } from './shaam-auth-page';

const routes = [{ path: 'shaam-auth', element: <ShaamAuthPage /> }];

let replace: ReturnType<typeof vi.spyOn>;
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  configureApiClient({ baseUrl: '/api' });
  replace = vi.spyOn(navigation, 'replace').mockImplementation(() => {});
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const open = (search: string, language: 'he' | 'en' = 'he') =>
  renderRoutes(routes, { initialEntries: [`/shaam-auth${search}`], language });

describe('Tax Authority callback page', () => {
  it('shows a spinner, posts code and state once, then replaces the location with the answer', async () => {
    let answer: (response: Response) => void = () => {};
    const api = stubApi({
      'POST /api/shaam-auth': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    open('?code=abc&state=xyz');

    expect(
      await screen.findByRole('progressbar', { name: 'משלימים את החיבור לרשות המסים…' }),
    ).toBeVisible();
    answer(json({ url: 'https://pms.example/back?ok=1' }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith('https://pms.example/back?ok=1'));
    expect(api.callsTo('POST /api/shaam-auth').map((call) => call.body)).toEqual([
      { code: 'abc', state: 'xyz' },
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('shows the failure texts and logs the error when the server refuses', async () => {
    stubApi({ 'POST /api/shaam-auth': () => apiError(400, 'validation_failed') });
    open('?code=abc&state=used');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'לא ניתן להשלים את התהליך' }),
    ).toBeVisible();
    expect(screen.getByText('אנא נסו שוב מאוחר יותר או פנו לתמיכה')).toBeVisible();
    expect(replace).not.toHaveBeenCalled();
    expect(consoleError).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'ApiError', status: 400 }),
    );
  });

  it('fails at once without code or state, calling nobody', async () => {
    const api = stubApi({});
    open('?state=xyz', 'en');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'The process could not be completed' }),
    ).toBeVisible();
    expect(screen.getByText('Please try again later or contact support')).toBeVisible();
    expect(api.calls).toEqual([]);
    expect(consoleError).toHaveBeenCalled();
  });
});
