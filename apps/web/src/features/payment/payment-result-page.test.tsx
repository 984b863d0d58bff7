import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../app/router';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { PaymentResultPage } from './payment-result-page';
import { paymentRequestFixture } from './test/payment-request-fixture';

const routes: RouteObject[] = [
  { path: 'tranzila/:token', element: <PaymentResultPage /> },
  { path: 'p/:token', element: <h1>payment request</h1> },
];

/** The result route as the return endpoint sends it: `results` holds the provider's pairs. */
function open(results: string | null, language: 'he' | 'en' = 'he') {
  const query = results === null ? '' : `?results=${encodeURIComponent(results)}`;
  return renderRoutes(routes, { initialEntries: [`/tranzila/tok${query}`], language });
}

/** get-payment-request answering the server's state of the request, in turn. */
function serverSays(...statuses: ('pending' | 'verifying' | 'paid')[]) {
  return stubApi({
    'POST /api/get-payment-request': statuses.map(
      (status) => () => json({ data: paymentRequestFixture({ status }) }),
    ),
  });
}

beforeEach(() => {
  configureApiClient({ baseUrl: '/api', reload: () => {} });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('payment result view', () => {
  it('Response 000: processing until the server has confirmed it, then payment received', async () => {
    const api = serverSays('verifying', 'paid');
    open('Response=000&index=17&ConfirmationCode=0000000&sum=1250.50');

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('מאשרים את התשלום מול חברת האשראי…');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'תשלום התקבל' }, { timeout: 4000 }),
    ).toBeVisible();
    expect(screen.getByText('תודה!')).toBeVisible();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/get-payment-request')).toHaveLength(2);
    expect(api.calls[0]?.body).toEqual({ token: 'tok' });
  });

  it('Response 000 in the address is not trusted: a request the server left unpaid is not confirmed', async () => {
    serverSays('pending');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      open('Response=000', 'en');
      await screen.findByRole('status');
      for (let i = 0; i < 6; i++) await vi.advanceTimersByTimeAsync(2000);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'The payment was not confirmed' }),
      ).toBeVisible();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
    } finally {
      vi.useRealTimers();
    }
  });

  it('Response 000 on a link that is not valid (404): not confirmed, asked once', async () => {
    const api = stubApi({
      'POST /api/get-payment-request': () => apiError(404, 'NOT_FOUND'),
    });
    open('Response=000');

    expect(await screen.findByRole('heading', { level: 1, name: 'התשלום לא אושר' })).toBeVisible();
    expect(api.callsTo('POST /api/get-payment-request')).toHaveLength(1);
  });

  it('Response 000 in English, once confirmed', async () => {
    serverSays('paid');
    open('Response=000', 'en');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Payment received' }),
    ).toBeVisible();
    expect(screen.getByText('Thank you!')).toBeVisible();
  });

  it('a failure code: the error with its Hebrew description, and try again', async () => {
    const { user, router } = open('Response=033&index=18');

    const heading = screen.getByRole('heading', { level: 1, name: 'שגיאה בתשלום: כרטיס פגום' });
    expect(heading).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'ניסיון נוסף' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/p/tok'));
    expect(await screen.findByRole('heading', { name: 'payment request' })).toBeVisible();
  });

  it('in English the description stays Hebrew, marked as such', () => {
    open('Response=006', 'en');

    const heading = screen.getByRole('heading', { level: 1, name: 'Payment error: מספר CVV שגוי' });
    expect(heading.querySelector('bdi')).toHaveAttribute('lang', 'he');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  it('an unknown code or no results: the error without a description', () => {
    open('Response=999');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^שגיאה בתשלום$/);
    expect(screen.getByRole('button', { name: 'ניסיון נוסף' })).toBeVisible();
  });

  it('no results at all is a failure', () => {
    open(null);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^שגיאה בתשלום$/);
  });

  it('is routed at /tranzila/:token and titles the document with its heading', async () => {
    serverSays('paid');
    renderRoutes(
      createRoutes({
        parentSiteUrl: 'https://marpe.example/',
        publicOrigin: 'http://localhost:3000',
      }),
      {
        initialEntries: [`/tranzila/tok?results=${encodeURIComponent('Response=000')}`],
      },
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'תשלום התקבל' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('תשלום התקבל'));
  });

  it('inside a frame of our origin: moves the whole window to itself, shows no result there', () => {
    const replace = vi.fn();
    const top = { location: { origin: window.location.origin, replace } };
    vi.spyOn(window, 'top', 'get').mockReturnValue(top as unknown as Window);
    open('Response=000');

    expect(replace).toHaveBeenCalledWith(window.location.href);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });
});
