import { WHATSAPP_SIGNUP_EXTRAS } from '@marpe/shared/rules';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../lib/api-client';
import { apiError, json, stubApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { loadMetaSdk, type MetaSdk } from './meta-sdk';
import { FINISH_WAIT_MS, WhatsAppSignupPage } from './whatsapp-signup-page';

vi.mock(import('../../lib/config'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    appConfig: () => ({
      ...original.appConfig(),
      meta: { appId: '1234', configId: '5678', sdkUrl: 'https://connect.facebook.net/sdk.js' },
    }),
  };
});
vi.mock(import('./meta-sdk'), async (importOriginal) => ({
  ...(await importOriginal()),
  loadMetaSdk: vi.fn(),
}));

const routes = [{ path: 'whatsapp-signup/:clientId?', element: <WhatsAppSignupPage /> }];
const CLIENT_ID = 'k'.repeat(43);
const ids = { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '555' };

type LoginCallback = Parameters<MetaSdk['login']>[0];
let login: ReturnType<typeof vi.fn<MetaSdk['login']>>;

beforeEach(() => {
  configureApiClient({ baseUrl: '/api' });
  login = vi.fn<MetaSdk['login']>();
  vi.mocked(loadMetaSdk).mockResolvedValue({ init: vi.fn(), login });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function post(origin: string, event: string, data: unknown = ids) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        origin,
        data: JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data }),
      }),
    );
  });
}

/** Opens the page and starts connecting; answers FB.login's callback. */
async function startConnecting(language: 'he' | 'en' = 'he'): Promise<LoginCallback> {
  const { user } = renderRoutes(routes, {
    initialEntries: [`/whatsapp-signup/${CLIENT_ID}`],
    language,
  });
  const start = await screen.findByRole('button', {
    name: language === 'he' ? 'התחלת חיבור' : 'Start connecting',
  });
  await waitFor(() => expect(start).toBeEnabled());
  await user.click(start);
  const callback = login.mock.lastCall?.[0];
  if (!callback) throw new Error('FB.login was not called');
  return callback;
}

describe('WhatsApp connection page', () => {
  it('shows the six steps and the tips, and asks for the link without a client id', async () => {
    const api = stubApi({});
    renderRoutes(routes, { initialEntries: ['/whatsapp-signup'] });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'חיבור WhatsApp למרפאה' }),
    ).toBeVisible();
    const steps = screen.getAllByRole('list')[0];
    expect(steps?.tagName).toBe('OL');
    expect(steps?.children).toHaveLength(6);
    expect(screen.getByText(/התחברות לפייסבוק/)).toBeVisible();
    expect(screen.getByText(/אימות המספר/)).toBeVisible();
    expect(screen.getByText(/לא התקבל קוד אימות/)).toBeVisible();
    expect(screen.getByText(/המספר כבר בשימוש ב-WhatsApp/)).toBeVisible();
    expect(screen.getByText(/החלון נסגר או לא נפתח/)).toBeVisible();
    expect(screen.getAllByText(/5–10 דקות/).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'support@marpe.co.il' })).toHaveAttribute(
      'href',
      'mailto:support@marpe.co.il',
    );
    expect(screen.getByText(/יש לפתוח את הקישור האישי/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'התחלת חיבור' })).toBeDisabled();
    // Nothing to connect: Meta is not contacted at all.
    expect(loadMetaSdk).not.toHaveBeenCalled();
    expect(api.calls).toEqual([]);
  });

  it('opens the embedded sign-up with a code response and the Israeli extras', async () => {
    stubApi({});
    await startConnecting();
    expect(loadMetaSdk).toHaveBeenCalledWith({
      appId: '1234',
      configId: '5678',
      sdkUrl: 'https://connect.facebook.net/sdk.js',
    });
    expect(login.mock.lastCall?.[1]).toEqual({
      config_id: '5678',
      response_type: 'code',
      override_default_response_type: true,
      extras: WHATSAPP_SIGNUP_EXTRAS,
    });
    expect(WHATSAPP_SIGNUP_EXTRAS.setup.business).toMatchObject({
      phone: { code: 972 },
      timezone: 'Asia/Jerusalem',
      currency: 'ILS',
    });
    expect(screen.getByRole('status')).toHaveTextContent('ממתינים לסיום התהליך בחלון של Meta…');
  });

  it("posts once both the code and Meta's FINISH are in, ignoring other origins", async () => {
    const api = stubApi({ 'POST /api/wa-signup': () => json({ status: 'ok' }) });
    const callback = await startConnecting();
    post('https://evil.example', 'FINISH', { ...ids, waba_id: '666' });
    act(() => callback({ authResponse: { code: 'meta-code' } }));
    expect(api.calls).toEqual([]);
    post('https://www.facebook.com', 'FINISH');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'WhatsApp חובר בהצלחה' }),
    ).toBeVisible();
    expect(api.callsTo('POST /api/wa-signup').map((call) => call.body)).toEqual([
      {
        code: 'meta-code',
        clientId: CLIENT_ID,
        wabaId: ids.waba_id,
        phoneId: ids.phone_number_id,
        businessId: ids.business_id,
      },
    ]);
  });

  it('says the link is no longer valid, without a retry, on a 400', async () => {
    stubApi({ 'POST /api/wa-signup': () => apiError(400, 'validation_failed') });
    const callback = await startConnecting('en');
    post('https://web.facebook.com', 'FINISH');
    act(() => callback({ authResponse: { code: 'meta-code' } }));

    expect(await screen.findByText(/This connection link is not valid/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers a retry that opens the sign-up again when Meta refuses', async () => {
    stubApi({ 'POST /api/wa-signup': () => apiError(502, 'service_unavailable') });
    const callback = await startConnecting('en');
    act(() => callback({ authResponse: { code: 'meta-code' } }));
    post('https://www.facebook.com', 'FINISH');

    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(
      screen.getByText('Meta did not confirm the connection. Please try again in a few minutes.'),
    ).toBeVisible();
    retry.click();
    await waitFor(() => expect(login).toHaveBeenCalledTimes(2));
  });

  it('stops waiting when a code comes without the FINISH ids', async () => {
    const api = stubApi({});
    const callback = await startConnecting('en');
    vi.useFakeTimers();
    try {
      act(() => callback({ authResponse: { code: 'meta-code' } }));
      act(() => vi.advanceTimersByTime(FINISH_WAIT_MS - 1));
      expect(screen.getByRole('status')).toHaveTextContent('Waiting for the process');
      act(() => vi.advanceTimersByTime(1));
    } finally {
      vi.useRealTimers();
    }
    expect(screen.getByText(/ended without a phone number/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
    post('https://www.facebook.com', 'FINISH');
    expect(api.calls).toEqual([]);
  });

  it('tells that the window closed when FB.login ends without a code', async () => {
    const api = stubApi({});
    const callback = await startConnecting();
    act(() => callback({ authResponse: null }));

    expect(
      await screen.findByText('החלון נסגר לפני שהתהליך הסתיים. אפשר להתחיל שוב.'),
    ).toBeVisible();
    post('https://www.facebook.com', 'FINISH');
    expect(api.calls).toEqual([]);
  });
});
