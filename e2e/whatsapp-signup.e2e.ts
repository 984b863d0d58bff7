import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeCases, expectNoAxeViolations, newPage, useBrowser } from './support/browser';
import { seedClinicWithKey, startFakeServer } from './support/connections';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const APP_ID = '1234567890';
const CONFIG_ID = '987654321';
const APP_SECRET = 'e2e-meta-secret';
const REAL = { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '77' };
const FOREIGN = { phone_number_id: '666', waba_id: '666', business_id: '666' };

const finishMessage = (data: object) =>
  JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data });

/**
 * Meta's SDK as the page sees it: FB.init records its options; FB.login records its options and
 * has Meta's www.facebook.com post the real FINISH. Right after it, two pages Meta does not own
 * post a FINISH with other ids (this page itself, and a frame of staticxx.facebook.com, which the
 * page's CSP lets in as Meta's SDK uses it). Only then does the callback get the code: a page
 * that took a foreign FINISH would send its ids.
 */
const fakeSdk = `
function addFrame(src) {
  var frame = document.createElement('iframe');
  frame.src = src;
  frame.title = 'Meta';
  frame.hidden = true;
  document.body.appendChild(frame);
}
window.FB = {
  init: function (options) { window.fbInitOptions = options; },
  login: function (callback, options) {
    window.fbLoginOptions = options;
    var foreign = 0;
    window.addEventListener('message', function onMessage(event) {
      if (event.origin === 'https://www.facebook.com') {
        window.postMessage(${JSON.stringify(finishMessage(FOREIGN))}, '*');
        addFrame('https://staticxx.facebook.com/fake-finish');
        return;
      }
      foreign += 1;
      if (foreign < 2) return;
      window.removeEventListener('message', onMessage);
      callback({ authResponse: { code: 'fake-code' }, status: 'connected' });
    });
    addFrame('https://www.facebook.com/fake-finish');
  },
};`;

/** What a frame of `origin` posts to the page: the foreign ids, or Meta's real ones. */
const framePage = (ids: object) =>
  `<!doctype html><script>parent.postMessage(${JSON.stringify(finishMessage(ids))}, '*');</script>`;

async function routeMetaFrames(context: BrowserContext): Promise<void> {
  await context.route('https://staticxx.facebook.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: framePage(FOREIGN) }),
  );
  await context.route('https://www.facebook.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: framePage(REAL) }),
  );
}

const browser = useBrowser();
let server: RunningServer;
let sdk: Awaited<ReturnType<typeof startFakeServer>>;
let graph: Awaited<ReturnType<typeof startFakeServer>>;
let dataDir: string;
let apiKey: string;

beforeAll(async () => {
  sdk = await startFakeServer(() => ({
    status: 200,
    // The page loads it with crossorigin="anonymous", as Meta's snippet does.
    headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' },
    body: fakeSdk,
  }));
  graph = await startFakeServer(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: 'business-token-e2e', token_type: 'bearer' }),
  }));
  dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  server = await startServer({
    DATA_DIR: dataDir,
    META_APP_ID: APP_ID,
    META_APP_SECRET: APP_SECRET,
    META_CONFIG_ID: CONFIG_ID,
    META_SDK_URL: `${sdk.origin}/sdk.js`,
    GRAPH_API_BASE_URL: graph.origin,
  });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([sdk?.close(), graph?.close()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const integration = (method: string, path: string) =>
  fetch(`${server.url}/api/integration${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}` },
  });

/** A fresh single-use link, as the clinic's software gets it. */
async function connectionPath(): Promise<string> {
  const response = await integration('POST', '/whatsapp/connect');
  expect(response.status).toBe(200);
  const { client_id: clientId, url } = (await response.json()) as {
    client_id: string;
    url: string;
  };
  expect(new URL(url).pathname).toBe(`/whatsapp-signup/${clientId}`);
  return `/whatsapp-signup/${clientId}`;
}

async function openConnectionPage(lang: 'he' | 'en' = 'he') {
  const opened = await newPage(browser(), { viewport: 'desktop', lang });
  await routeMetaFrames(opened.context);
  const path = await connectionPath();
  const response = await opened.page.goto(`${server.url}${path}`);
  return { ...opened, response };
}

const startButton = (page: Page, lang: 'he' | 'en' = 'he') =>
  page.getByRole('button', { name: lang === 'he' ? 'התחלת חיבור' : 'Start connecting' });

describe('WhatsApp connection page', () => {
  it("connects with Meta's code and FINISH ids, ignoring a FINISH from other origins", async () => {
    graph.requests.length = 0;
    const { context, page, response } = await openConnectionPage();
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response?.headers()['content-security-policy']).toContain(
      `script-src 'self' ${sdk.origin}`,
    );

    await page.getByRole('heading', { level: 1, name: 'חיבור WhatsApp למרפאה' }).waitFor();
    const start = startButton(page);
    await expect.poll(() => start.isEnabled()).toBe(true);
    expect(
      await page.evaluate(() => (window as { fbInitOptions?: unknown }).fbInitOptions),
    ).toEqual({ appId: APP_ID, autoLogAppEvents: true, xfbml: true, version: 'v23.0' });
    await start.click();
    await page.getByRole('heading', { level: 1, name: 'WhatsApp חובר בהצלחה' }).waitFor();

    const loginOptions = await page.evaluate(
      () => (window as { fbLoginOptions?: unknown }).fbLoginOptions,
    );
    expect(loginOptions).toMatchObject({
      config_id: CONFIG_ID,
      response_type: 'code',
      override_default_response_type: true,
      extras: {
        setup: {
          business: { phone: { code: 972 }, timezone: 'Asia/Jerusalem', currency: 'ILS' },
          phone: { category: 'HEALTH' },
        },
        sessionInfoVersion: '3',
      },
    });
    expect(graph.requests).toHaveLength(1);
    expect(graph.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v23.0/oauth/access_token',
      query: { client_id: APP_ID, client_secret: APP_SECRET, code: 'fake-code' },
    });
    const status = (await (await integration('GET', '/whatsapp')).json()) as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({
      connected: true,
      phone_number_id: REAL.phone_number_id,
      waba_id: REAL.waba_id,
      business_id: REAL.business_id,
      messaging_channel: 'whatsapp',
    });
    await expectNoAxeViolations(page);
    await context.close();
  });

  it("says the link is needed without one, and does not load Meta's SDK", async () => {
    const { context, page } = await newPage(browser());
    sdk.requests.length = 0;
    await page.goto(`${server.url}/whatsapp-signup`);
    await page.getByText('כדי לחבר את WhatsApp יש לפתוח את הקישור האישי').waitFor();
    expect(await startButton(page).isDisabled()).toBe(true);
    // Nothing to connect: Meta's SDK is not even loaded.
    await page.waitForLoadState('networkidle');
    expect(sdk.requests).toEqual([]);
    expect(await page.evaluate(() => 'FB' in window)).toBe(false);
    await expectNoAxeViolations(page);
    await context.close();
  });

  it('tells that the link was used already, and offers no retry', async () => {
    const { context, page } = await openConnectionPage('en');
    const path = new URL(page.url()).pathname;
    // Spend this page's link in another tab first.
    const other = await context.newPage();
    await other.goto(`${server.url}${path}`);
    const otherStart = startButton(other, 'en');
    await expect.poll(() => otherStart.isEnabled()).toBe(true);
    await otherStart.click();
    await other.getByRole('heading', { level: 1, name: 'WhatsApp connected' }).waitFor();

    const start = startButton(page, 'en');
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    await page.getByText('This connection link is not valid').waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await context.close();
  });

  describe.each(axeCases(['/whatsapp-signup']))(
    'has no axe violations: $lang, $viewport',
    ({ lang, viewport }) => {
      it('before connecting', async () => {
        const { context, page } = await newPage(browser(), { lang, viewport });
        await routeMetaFrames(context);
        await page.goto(`${server.url}${await connectionPath()}`);
        const start = startButton(page, lang);
        await expect.poll(() => start.isEnabled()).toBe(true);
        await expectNoAxeViolations(page);
        await context.close();
      });
    },
  );
});
