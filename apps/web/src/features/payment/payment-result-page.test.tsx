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

/** A confirmed charge in 3 payments, as get-payment-request gives it once paid. */
const receipt = {
  amount: 1250.5,
  payments: 3,
  cardLast4: '4321',
  confirmationCode: '0123456',
  email: 'dana@example.com',
  paidAt: '2026-11-29T08:05:00.000Z',
};

/** A description list's terms and their definitions, in order. */
function detailsOf(list: HTMLElement): [string, string][] {
  return [...list.querySelectorAll('dt')].map((term) => [
    term.textContent ?? '',
    term.nextElementSibling?.textContent ?? '',
  ]);
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
      await screen.findByRole('heading', { level: 1, name: 'התשלום התקבל' }, { timeout: 4000 }),
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

  it('once confirmed, shows the confirmed charge: sum, payments, last 4, confirmation, receipt email', async () => {
    stubApi({
      'POST /api/get-payment-request': () =>
        json({ data: paymentRequestFixture({ status: 'paid', receipt }) }),
    });
    open('Response=000&ConfirmationCode=9999999&ccno=0000');

    const list = await screen.findByLabelText('פרטי התשלום');
    // Who was paid (the clinic's name beside its logo), what for, and when.
    expect(screen.getByText('מרפאת השן הלבנה')).toBeVisible();
    expect(screen.getByRole('img', { name: 'לוגו המרפאה' })).toBeVisible();
    expect(detailsOf(list)).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['סכום', '₪1,250.50'],
      ['תשלומים', '3 תשלומים: הראשון ₪416.84, ואחריו 2 × ₪416.83'],
      ['תאריך התשלום', '29.11.2026 10:05יום ראשון, 29 בנובמבר 2026, בשעה 10:05'],
      ['כרטיס', 'מסתיים ב-4321'],
      // The server's, confirmed with the provider: not what the address says.
      ['מספר אישור', '0123456'],
      ['הקבלה תישלח אל', 'dana@example.com'],
    ]);
    // The way onward: the clinic's page; nothing to try again.
    expect(screen.getByRole('link', { name: 'לדף המרפאה' })).toHaveAttribute('href', '/clinic/7');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('the confirmed charge in English, a single payment, without what the provider left out', async () => {
    stubApi({
      'POST /api/get-payment-request': () =>
        json({
          data: paymentRequestFixture({
            status: 'paid',
            amount: 300,
            purpose: '',
            receipt: { ...receipt, amount: 300, payments: 1, confirmationCode: null, email: '' },
          }),
        }),
    });
    open('Response=000', 'en');

    expect(detailsOf(await screen.findByLabelText('Payment details'))).toEqual([
      ['Amount', '₪300'],
      ['Payments', '1 payment'],
      ['Date paid', '29.11.2026 10:05Sunday, 29 November 2026, at 10:05'],
      ['Card', 'ending in 4321'],
    ]);
    expect(screen.getByRole('link', { name: "The clinic's page" })).toBeVisible();
  });

  it('a failure code: the error with its Hebrew description, what to do, and try again', async () => {
    serverSays('pending');
    const { user, router } = open('Response=033&index=18');

    const heading = screen.getByRole('heading', { level: 1, name: 'שגיאה בתשלום: כרטיס פגום' });
    expect(heading).toBeVisible();
    expect(screen.getByText('בדקו את פרטי הכרטיס ונסו שוב, או נסו כרטיס אחר.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'ניסיון נוסף' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/p/tok'));
    expect(await screen.findByRole('heading', { name: 'payment request' })).toBeVisible();
  });

  it.each([
    ['036', 'Payment error: card expired'],
    ['006', 'Payment error: wrong CVV'],
    // The group of terminal and card restrictions, and a code listed apart inside it.
    ['140', 'Payment error: no permission on the terminal, or a restriction on the card'],
    ['173', 'Payment error: duplicate transaction'],
  ])('in English the description of %s is translated', (code, name) => {
    open(`Response=${code}`, 'en');

    expect(screen.getByRole('heading', { level: 1, name })).toBeVisible();
    expect(
      screen.getByText('Check the card details and try again, or try another card.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  it('an unknown code or no results: the error without a description', () => {
    open('Response=999');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^שגיאה בתשלום$/);
    expect(screen.getByRole('button', { name: 'ניסיון נוסף' })).toBeVisible();
  });

  it('an unknown code in English: the error without a description either', () => {
    open('Response=999', 'en');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Payment error$/);
  });

  it('no results at all is a failure', () => {
    open(null);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^שגיאה בתשלום$/);
  });

  it('a failure says who asked, what for, the sum and the day tried, with the clinic to call', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T21:30:00.000Z'), shouldAdvanceTime: true });
    try {
      const api = serverSays('pending');
      open('Response=004');

      expect(screen.getByRole('heading', { level: 1, name: 'שגיאה בתשלום: סירוב' })).toBeVisible();
      const list = await screen.findByLabelText('פרטי התשלום');
      expect(screen.getByText('מרפאת השן הלבנה')).toBeVisible();
      // 23:30 in Jerusalem: the clinic's day, not the UTC one.
      expect(detailsOf(list)).toEqual([
        ['עבור', 'טיפול שורש – שן 36'],
        ['סכום', '₪1,250.50'],
        ['תאריך', '29.11.2026יום ראשון, 29 בנובמבר 2026'],
      ]);
      expect(screen.getByRole('button', { name: 'ניסיון נוסף' })).toBeVisible();
      const call = screen.getByRole('link', { name: 'התקשרו למרפאה 03-5551234' });
      expect(call).toHaveAttribute('href', 'tel:035551234');
      expect(screen.getByRole('link', { name: 'לדף המרפאה' })).toHaveAttribute('href', '/clinic/7');
      // Asked once: a failure is not polled.
      await vi.advanceTimersByTimeAsync(5000);
      expect(api.callsTo('POST /api/get-payment-request')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failure in English names the call button with a space before the number', async () => {
    serverSays('pending');
    open('Response=036', 'en');

    expect(await screen.findByRole('link', { name: 'Call the clinic 03-5551234' })).toBeVisible();
    expect(screen.getByRole('link', { name: "The clinic's page" })).toBeVisible();
  });

  it('a failure on a link that can no longer be paid: no try again, says whom to ask', async () => {
    stubApi({ 'POST /api/get-payment-request': () => apiError(404, 'not_found') });
    open('Response=004');

    expect(
      await screen.findByText('קישור התשלום כבר אינו בתוקף. לתשלום, פנו למרפאה.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'ניסיון נוסף' })).not.toBeInTheDocument();
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

    expect(await screen.findByRole('heading', { level: 1, name: 'התשלום התקבל' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('התשלום התקבל'));
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
