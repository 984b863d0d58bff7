// Over 400 lines: the payment request page's states (the form, the card frame, a charge being
// confirmed, paid, load failures) share one request fixture and the page's routes.
import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../app/router';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { PaymentRequestPage } from './payment-request-page';
import { paymentRequestFixture as request } from './test/payment-request-fixture';

const routes: RouteObject[] = [
  { path: 'p/:token', element: <PaymentRequestPage /> },
  { path: 'expired', element: <h1>expired</h1> },
];

beforeEach(() => {
  configureApiClient({ baseUrl: '/api' });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function open(options: { token?: string; language?: 'he' | 'en' } = {}) {
  const { token = 'tok', language } = options;
  return renderRoutes(routes, { initialEntries: [`/p/${token}`], language });
}

const frame = () => document.querySelector('iframe');

/** A description list's terms and their definitions, in order. */
function detailsOf(list: Element | null): [string, string][] {
  return [...(list?.querySelectorAll('dt') ?? [])].map((term) => [
    term.textContent ?? '',
    term.nextElementSibling?.textContent ?? '',
  ]);
}

describe('payment request page', () => {
  it('shows the logo, the amount with ₪, the prefilled email and the payments selector', async () => {
    const api = stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    open();

    expect(await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' })).toBeVisible();
    expect(screen.getByRole('img', { name: 'לוגו המרפאה' })).toHaveAttribute('src', '/logo.png');
    // Isolated left to right, so the sign stays before the number in the Hebrew page.
    const amount = screen.getByText('₪1,250.50');
    expect(amount).toHaveAttribute('dir', 'ltr');
    expect(amount.closest('dd')?.previousElementSibling).toHaveTextContent('סכום לתשלום');
    const email = screen.getByRole('textbox', { name: 'דוא״ל לקבלה' });
    expect(email).toHaveValue('dana@example.com');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    const count = screen.getByRole('combobox', { name: 'מספר תשלומים' });
    expect(count).toHaveValue('1');
    expect(
      within(count)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['רגיל', '2 תשלומים', '3 תשלומים']);
    expect(screen.getByRole('button', { name: 'המשך לתשלום' })).toBeVisible();
    expect(frame()).toBeNull();
    expect(api.callsTo('POST /api/get-payment-request')[0]?.body).toEqual({ token: 'tok' });
  });

  it('says who asks, what for and for whom, and never the clinic’s own description', async () => {
    stubApi({
      'POST /api/get-payment-request': () =>
        json({ data: { ...request(), description: 'הערה פנימית' } }),
    });
    open();

    await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' });
    // The clinic's name beside its logo.
    const name = screen.getByText('מרפאת השן הלבנה');
    expect(name.closest('div')).toContainElement(screen.getByRole('img', { name: 'לוגו המרפאה' }));
    expect(detailsOf(screen.getByText('עבור').closest('dl'))).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['שם המטופל/ת', 'דנה לוי'],
      ['סכום לתשלום', '₪1,250.50'],
    ]);
    expect(document.body).not.toHaveTextContent('הערה פנימית');
  });

  it('leaves out what the clinic did not set', async () => {
    stubApi({
      'POST /api/get-payment-request': () =>
        json({ data: request({ purpose: '', patientNameRemarks: '', clinicName: '' }) }),
    });
    open();

    await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' });
    expect(detailsOf(screen.getByText('סכום לתשלום').closest('dl'))).toEqual([
      ['סכום לתשלום', '₪1,250.50'],
    ]);
  });

  it('says the split before the frame opens, as the frame will charge it', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    const { user } = open();

    const count = await screen.findByRole('combobox', { name: 'מספר תשלומים' });
    // One payment: the spec's label, and nothing to split.
    expect(count).not.toHaveAccessibleDescription();
    await user.selectOptions(count, '3');
    expect(count).toHaveAccessibleDescription('3 תשלומים: הראשון ₪416.84, ואחריו 2 × ₪416.83');
    await user.selectOptions(count, '2');
    expect(count).toHaveAccessibleDescription('2 תשלומים: הראשון ₪625.25, והשני ₪625.25');

    // With the frame open, the details above it keep the split.
    await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));
    // A definition of its own, not run on from the sum's; its "then" part never breaks.
    const then = screen.getByText('והשני ₪625.25');
    expect(then).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(then.closest('dd')).toHaveTextContent(/^2 תשלומים: הראשון ₪625\.25, והשני ₪625\.25$/);
    expect(then.closest('dd')).toBeVisible();
  });

  it('says the split in English', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    const { user } = open({ language: 'en' });

    const count = await screen.findByRole('combobox', { name: 'Number of payments' });
    await user.selectOptions(count, '3');
    expect(count).toHaveAccessibleDescription('3 payments: first ₪416.84, then 2 × ₪416.83');
  });

  it('names the card provider whose secure page takes the card', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    open();

    expect(
      await screen.findByText(
        'בשלב הבא מזינים את פרטי הכרטיס בדף התשלום המאובטח של טרנזילה (Tranzila), חברת הסליקה של המרפאה.',
      ),
    ).toBeVisible();
  });

  it('in demo mode says plainly that the card page is a test that charges nothing', async () => {
    stubApi({
      'POST /api/get-payment-request': () => json({ data: request({ cardProvider: 'sandbox' }) }),
    });
    open({ language: 'en' });

    expect(await screen.findByText(/^This is a demo: .* No card is charged\.$/)).toBeVisible();
    expect(screen.queryByText(/secure payment page of Tranzila/)).not.toBeInTheDocument();
  });

  it('labels the payments in English', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    open({ language: 'en' });

    const count = await screen.findByRole('combobox', { name: 'Number of payments' });
    expect(
      within(count)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Regular', '2 payments', '3 payments']);
    expect(screen.getByRole('textbox', { name: 'Email for the receipt' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Payment request' })).toBeVisible();
  });

  it('offers no selector for a single payment, and no logo when there is none', async () => {
    stubApi({
      'POST /api/get-payment-request': () =>
        json({ data: request({ numPayments: 1, clinicLogo: '', amount: 300 }) }),
    });
    const { user } = open();

    await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' });
    expect(screen.getByText('₪300')).toBeVisible();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));
    const src = new URL(frame()?.getAttribute('src') ?? '');
    expect(src.searchParams.get('sum')).toBe('300.00');
    expect(src.searchParams.get('cred_type')).toBe('1');
    expect(src.searchParams.has('npay')).toBe(false);
  });

  it('a bad email marks the field, takes the focus and shows no frame', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    const { user } = open();

    const email = await screen.findByRole('textbox', { name: 'דוא״ל לקבלה' });
    await user.clear(email);
    await user.type(email, 'dana@');
    await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));

    expect(email).toBeInvalid();
    expect(email).toHaveAccessibleDescription('כתובת הדוא״ל אינה תקינה');
    expect(screen.getByText('כתובת הדוא״ל אינה תקינה')).toBeVisible();
    expect(email).toHaveFocus();
    expect(frame()).toBeNull();

    // An empty email is as bad; a good one clears the mark as it is typed.
    await user.clear(email);
    await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));
    expect(frame()).toBeNull();
    await user.type(email, 'dana@example.com');
    expect(email).toBeValid();
    expect(screen.queryByText('כתובת הדוא״ל אינה תקינה')).not.toBeInTheDocument();
  });

  it('a good email replaces the form with the card frame; back returns to it as it was', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    const { user } = open();

    const email = await screen.findByRole('textbox', { name: 'דוא״ל לקבלה' });
    await user.clear(email);
    await user.type(email, '  new@example.com ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'מספר תשלומים' }), '3');
    await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));

    const iframe = frame();
    expect(iframe).toHaveAttribute('title', 'טופס תשלום מאובטח');
    await waitFor(() => expect(iframe).toHaveFocus());
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'המשך לתשלום' })).not.toBeInTheDocument();
    // The amount stays in view above the frame.
    expect(screen.getByText('₪1,250.50')).toBeVisible();

    const src = new URL(iframe?.getAttribute('src') ?? '');
    expect(`${src.origin}${src.pathname}`).toBe(
      'http://localhost:3000/api/sandbox/demo/iframenew.php',
    );
    expect(Object.fromEntries(src.searchParams)).toEqual({
      sum: '1250.50',
      currency: '1',
      cred_type: '8',
      npay: '2',
      fpay: '416.84',
      spay: '416.83',
      lang: 'il',
      nologo: '1',
      trButtonColor: '00BCD4',
      trTextColor: '212121',
      buttonLabel: 'לתשלום',
      contact: '123456782',
      remarks: 'דנה לוי',
      email: 'new@example.com',
      // Back to this page's own origin (see the page), on which the result page may leave the frame.
      success_url_address: 'http://localhost:3000/api/payment-return/tok',
      fail_url_address: 'http://localhost:3000/api/payment-return/tok',
      notify_url_address: 'http://localhost:3000/api/notify-payment/tok',
      // The request's own reference, which the provider keeps with the charge.
      marpe_ref: 'ref_abc123',
    });

    await user.click(screen.getByRole('button', { name: 'חזרה לפרטי התשלום' }));
    expect(frame()).toBeNull();
    expect(screen.getByRole('textbox', { name: 'דוא״ל לקבלה' })).toHaveValue('new@example.com');
    expect(screen.getByRole('combobox', { name: 'מספר תשלומים' })).toHaveValue('3');
    await waitFor(() => expect(screen.getByRole('button', { name: 'המשך לתשלום' })).toHaveFocus());
    // Typed key by key, twice through the form: over 5 s on a busy 2-core machine.
  }, 15_000);

  it('opens the frame with the handshake token that pins the sum, when the server has one', async () => {
    stubApi({
      'POST /api/get-payment-request': () => json({ data: request({ thtk: 'pinned-token-1' }) }),
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'המשך לתשלום' }));
    const src = new URL(frame()?.getAttribute('src') ?? '');
    expect(src.searchParams.get('thtk')).toBe('pinned-token-1');
    expect(src.searchParams.get('new_process')).toBe('1');
  });

  it('a charge being confirmed shows that, not the form', async () => {
    stubApi({
      'POST /api/get-payment-request': () => json({ data: request({ status: 'verifying' }) }),
    });
    open();

    expect(await screen.findByRole('heading', { level: 1, name: 'התשלום בבדיקה' })).toBeVisible();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('an already paid request shows that and its confirmed charge, not the form', async () => {
    const receipt = {
      amount: 1250.5,
      payments: 1,
      cardLast4: '4321',
      confirmationCode: '0123456',
      email: 'dana@example.com',
      paidAt: '2026-11-29T08:05:00.000Z',
    };
    stubApi({
      'POST /api/get-payment-request': () => json({ data: request({ status: 'paid', receipt }) }),
    });
    open();

    expect(await screen.findByRole('heading', { level: 1, name: 'הבקשה כבר שולמה' })).toBeVisible();
    // Who was paid, what for and when (on the clinic's clock, said in words to a screen reader).
    expect(screen.getByText('מרפאת השן הלבנה')).toBeVisible();
    expect(detailsOf(screen.getByLabelText('פרטי התשלום'))).toEqual([
      ['עבור', 'טיפול שורש – שן 36'],
      ['סכום', '₪1,250.50'],
      ['תשלומים', 'תשלום אחד'],
      ['תאריך התשלום', '29.11.2026 10:05יום ראשון, 29 בנובמבר 2026, בשעה 10:05'],
      ['כרטיס', 'מסתיים ב-4321'],
      ['מספר אישור', '0123456'],
      ['הקבלה תישלח אל', 'dana@example.com'],
    ]);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    // The way onward: the clinic's page.
    expect(screen.getByRole('link', { name: 'לדף המרפאה' })).toHaveAttribute('href', '/clinic/7');
  });

  it('the paid state in English', async () => {
    stubApi({
      'POST /api/get-payment-request': () => json({ data: request({ status: 'paid' }) }),
    });
    open({ language: 'en' });

    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'This request has already been paid',
      }),
    ).toBeVisible();
  });

  it.each([
    ['expired', '/expired?clinic=7&ended=expired'],
    ['cancelled', '/expired?clinic=7&ended=cancelled'],
  ])(
    'a 404 of a link %s goes to the expired page saying so, with its clinic',
    async (ended, to) => {
      stubApi({
        'POST /api/get-payment-request': () =>
          apiError(404, 'not_found', { details: { ended, clinicId: 7 } }),
      });
      const { router } = open({ token: 'gone' });
      await waitFor(() =>
        expect(router.state.location.pathname + router.state.location.search).toBe(to),
      );
    },
  );

  it('a 404 goes to the expired page', async () => {
    stubApi({ 'POST /api/get-payment-request': () => apiError(404, 'payment_request_not_found') });
    const { router } = open({ token: 'gone' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
    // Replaced: back does not return to the dead link.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('another load failure offers a reload', async () => {
    const api = stubApi({
      'POST /api/get-payment-request': [
        () => apiError(500, 'internal'),
        () => apiError(500, 'internal'),
        () => json({ data: request() }),
      ],
    });
    const { user } = open();

    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'לא הצלחנו לטעון את בקשת התשלום' },
        { timeout: 4000 },
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'טעינה מחדש' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' })).toBeVisible();
    expect(api.callsTo('POST /api/get-payment-request').length).toBeGreaterThanOrEqual(2);
  });

  it('an amount the frame cannot charge is a load failure', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request({ amount: 12.345 }) }) });
    open();

    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'לא הצלחנו לטעון את בקשת התשלום' },
        { timeout: 4000 },
      ),
    ).toBeVisible();
  });

  it('is routed at /p/:token with its title', async () => {
    stubApi({ 'POST /api/get-payment-request': () => json({ data: request() }) });
    renderRoutes(
      createRoutes({
        parentSiteUrl: 'https://marpe.example/',
        publicOrigin: 'http://localhost:3000',
      }),
      {
        initialEntries: ['/p/tok'],
      },
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'בקשת תשלום' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('בקשת תשלום'));
  });
});
