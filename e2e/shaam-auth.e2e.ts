import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeCases, expectNoAxeViolations, newPage, useBrowser } from './support/browser';
import { seedClinicWithKey, startFakeServer, type FakeAnswer } from './support/connections';
import { freePort, freshDataDir, startServer, type RunningServer } from './support/server';

const CLIENT_ID = 'e2e-clinic-client';
const CLIENT_SECRET = 'e2e-clinic-secret';

const browser = useBrowser();
let server: RunningServer;
let ita: Awaited<ReturnType<typeof startFakeServer>>;
let dataDir: string;
let apiKey: string;

beforeAll(async () => {
  // The Tax Authority: its authorize page sends the browser straight back with a code, as after
  // a successful sign-in; its token endpoint answers tokens.
  ita = await startFakeServer((request): FakeAnswer => {
    if (request.path === '/authorize') {
      const back = new URL(request.query.redirect_uri ?? '');
      back.searchParams.set('code', 'ita-code-e2e');
      back.searchParams.set('state', request.query.state ?? '');
      return { status: 302, headers: { location: back.href }, body: '' };
    }
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_token: 'ita-access',
        refresh_token: 'ita-refresh',
        expires_in: 3600,
        token_type: 'Bearer',
      }),
    };
  });
  dataDir = freshDataDir();
  apiKey = (await seedClinicWithKey(dataDir)).key;
  const port = String(await freePort());
  server = await startServer({
    DATA_DIR: dataDir,
    PORT: port,
    // The callback address the Tax Authority returns to must be this server's.
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    SHAAM_AUTHORIZE_URL: `${ita.origin}/authorize`,
    SHAAM_TOKEN_URL: `${ita.origin}/token`,
  });
});
afterAll(async () => {
  await server?.stop();
  await ita?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Records what the page logs as errors. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

describe('Tax Authority callback page', () => {
  it('finishes the connection and replaces the location with the return URL', async () => {
    const response = await fetch(`${server.url}/api/integration/shaam/connect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        return_url: `${server.url}/privacy?connected=1`,
      }),
    });
    expect(response.status).toBe(200);
    const { authorization_url: authorizationUrl } = (await response.json()) as {
      authorization_url: string;
    };

    const { context, page } = await newPage(browser());
    await page.goto(authorizationUrl);
    await page.waitForURL(`${server.url}/privacy?connected=1`);
    await page.getByRole('heading', { level: 1, name: 'מדיניות פרטיות' }).waitFor();

    const token = ita.requests.find((request) => request.path === '/token');
    expect(token).toMatchObject({ method: 'POST' });
    expect(token?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'ita-code-e2e',
      redirect_uri: `${server.url}/shaam-auth`,
    });
    const status = await fetch(`${server.url}/api/integration/shaam`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(await status.json()).toMatchObject({ connected: true, client_id: CLIENT_ID });
    await context.close();
  });

  it('shows the failure texts and logs the error for a state it does not know', async () => {
    const { context, page } = await newPage(browser());
    const errors = consoleErrors(page);
    await page.goto(`${server.url}/shaam-auth?code=abc&state=${'x'.repeat(43)}`);
    await page.getByRole('heading', { level: 1, name: 'לא ניתן להשלים את התהליך' }).waitFor();
    await page.getByText('אנא נסו שוב מאוחר יותר או פנו לתמיכה', { exact: true }).waitFor();
    await expect
      .poll(() => errors.some((text) => text.includes('Unknown, used or expired')))
      .toBe(true);
    expect(page.url()).toContain('/shaam-auth');
    await context.close();
  });

  describe.each(axeCases(['/shaam-auth?code=abc&state=unknown']))(
    'has no axe violations on the failure view: $lang, $viewport',
    ({ path, lang, viewport }) => {
      it('passes', async () => {
        const { context, page } = await newPage(browser(), { lang, viewport });
        await page.goto(`${server.url}${path}`);
        await page
          .getByRole('heading', {
            level: 1,
            name: lang === 'he' ? 'לא ניתן להשלים את התהליך' : 'The process could not be completed',
          })
          .waitFor();
        await expectNoAxeViolations(page);
        await context.close();
      });
    },
  );
});
