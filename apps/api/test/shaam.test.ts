import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shaamConnectResponseSchema, shaamStatusSchema } from '@marpe/shared';
import type { App } from '../src/app.js';
import { shaamKey } from '../src/modules/shaam/shaam-repository.js';
import { decryptText, sealedAt, sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import {
  auditLog,
  clinics,
  connectionTokens,
  shaamConnections,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  testDataKey,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import { startLoopback, type LoopbackAnswer } from './loopback.js';

const NOW = Date.parse('2027-03-24T10:00:00Z');
const MINUTE = 60_000;
const ORIGIN = 'https://marpe.example';
const CLIENT_ID = 'clinic-client-41';
const CLIENT_SECRET = 'shaam-secret:with-colon';
const RETURN_URL = 'https://pms.example/settings/tax?connected=1';

/** A loopback Tax Authority token endpoint: records requests, answers what the test queued. */
async function startFakeTokenEndpoint() {
  const answers: LoopbackAnswer[] = [];
  const endpoint = await startLoopback(
    () =>
      answers.shift() ?? {
        status: 200,
        body: {
          access_token: 'ita-access-token-1',
          refresh_token: 'ita-refresh-token-1',
          token_type: 'Bearer',
          expires_in: 3600,
        },
      },
  );
  return {
    ...endpoint,
    answers,
    reset() {
      endpoint.reset();
      answers.length = 0;
    },
  };
}

let ita: Awaited<ReturnType<typeof startFakeTokenEndpoint>>;
beforeAll(async () => {
  ita = await startFakeTokenEndpoint();
});
afterAll(async () => {
  await ita.close();
});

describe.each(engines)('Tax Authority connection (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let app: App;
  let db: Database;
  let clinicId: number;
  let key: string;
  let otherKey: string;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  const env = () => ({
    PUBLIC_ORIGIN: ORIGIN,
    SHAAM_AUTHORIZE_URL: 'https://ita.example/shaam/tsandbox/longtimetoken/oauth2/authorize',
    SHAAM_TOKEN_URL: `${ita.origin}/shaam/tsandbox/longtimetoken/oauth2/token`,
  });

  beforeEach(async () => {
    now = NOW;
    ita.reset();
    await database.current.reset();
    db = database.current.handle.db;
    const rows = await db
      .insert(clinics)
      .values([clinicRow('מרפאת השן'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    const [main, other] = rows.map((r) => r.id);
    if (main === undefined || other === undefined) throw new Error('fixture: clinics');
    clinicId = main;
    app = await buildTestApp(database.current.handle, {
      config: testConfig(env()),
      clock: () => now,
    });
    await app.ready();
    key = (await app.apiKeys.create(main, 'practice software', 'cli')).key;
    otherKey = (await app.apiKeys.create(other, 'other software', 'cli')).key;
    xsrf = await xsrfPair(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const connect = (payload: object, apiKey = key, on = app) =>
    on.inject({
      method: 'POST',
      url: '/api/integration/shaam/connect',
      headers: { authorization: `Bearer ${apiKey}` },
      payload,
    });

  async function start(): Promise<string> {
    const response = await connect({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      return_url: RETURN_URL,
    });
    expect(response.statusCode, response.body).toBe(200);
    return shaamConnectResponseSchema.parse(response.json()).state;
  }

  const complete = (body: object) =>
    app.inject({
      method: 'POST',
      url: '/api/shaam-auth',
      cookies: xsrf.cookies,
      headers: xsrf.headers,
      payload: body,
    });

  const status = async (apiKey = key) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/integration/shaam',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return shaamStatusSchema.parse(response.json());
  };

  const expectBadState = (response: Awaited<ReturnType<typeof complete>>) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((issue) => issue.path)).toEqual(['state']);
  };

  describe('starting a connection', () => {
    it('answers the authorization URL with a single-use state, the secret kept encrypted', async () => {
      const response = await connect({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        return_url: RETURN_URL,
      });
      expect(response.statusCode, response.body).toBe(200);
      const started = shaamConnectResponseSchema.parse(response.json());
      expect(started.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(started.expires_at).toBe(new Date(NOW + 30 * MINUTE).toISOString());
      const url = new URL(started.authorization_url);
      expect(`${url.origin}${url.pathname}`).toBe(
        'https://ita.example/shaam/tsandbox/longtimetoken/oauth2/authorize',
      );
      expect(Object.fromEntries(url.searchParams)).toEqual({
        response_type: 'code',
        client_id: CLIENT_ID,
        redirect_uri: `${ORIGIN}/shaam-auth`,
        scope: 'scope',
        state: started.state,
      });

      const [row] = await db.select().from(shaamConnections);
      expect(row).toMatchObject({ clinicId, clientId: CLIENT_ID, accessToken: null });
      expect(row?.clientSecret).not.toContain(CLIENT_SECRET);
      expect(
        decryptText(
          shaamKey(testDataKey),
          row?.clientSecret ?? '',
          sealedAt('shaam_connections', 'client_secret', clinicId),
        ),
      ).toBe(CLIENT_SECRET);
      const [token] = await db.select().from(connectionTokens);
      expect(token).toMatchObject({
        clinicId,
        purpose: 'shaam',
        tokenHash: sha256Hex(started.state),
        returnUrl: RETURN_URL,
      });
      const entries = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'shaam.connect_start'));
      expect(entries).toHaveLength(1);
      expect(entries[0]?.actor).toMatch(/^api_key:\d+$/);
      expect(JSON.stringify(entries)).not.toContain(CLIENT_SECRET);
    });

    it.each([
      [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET }, 'return_url'],
      [{ client_id: '', client_secret: CLIENT_SECRET, return_url: RETURN_URL }, 'client_id'],
      [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, return_url: 'pms/x' }, 'return_url'],
      [
        { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, return_url: 'javascript:alert(1)' },
        'return_url',
      ],
    ])('refuses %j naming %s', async (payload, field) => {
      const response = await connect(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(field);
      expect(await db.select().from(connectionTokens)).toEqual([]);
    });

    it('takes only an https return URL outside demo mode', async () => {
      const production = await buildTestApp(database.current.handle, {
        config: testConfig({
          ...env(),
          DEMO: 'false',
          SMS_PROVIDER: 'http',
          SMS_HTTP_URL: 'https://sms.example/send',
          SMS_HTTP_TOKEN: 't',
          SMS_SENDER: 'Marpe',
        }),
      });
      try {
        const payload = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
        const plain = await connect(
          { ...payload, return_url: 'http://pms.example/' },
          key,
          production,
        );
        expect(plain.statusCode).toBe(400);
        expect(plain.json<{ message: string }>().message).toContain('return_url');
        const secure = await connect({ ...payload, return_url: RETURN_URL }, key, production);
        expect(secure.statusCode).toBe(200);
      } finally {
        await production.close();
      }
    });
  });

  describe('POST /api/shaam-auth', () => {
    it('exchanges the code with Basic auth and a form body, stores the tokens encrypted and answers the return URL', async () => {
      const state = await start();
      now += 5 * MINUTE;
      const response = await complete({ code: 'ita-code-9', state });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ url: RETURN_URL });

      expect(ita.requests).toHaveLength(1);
      const [request] = ita.requests;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/shaam/tsandbox/longtimetoken/oauth2/token');
      expect(request?.headers.authorization).toBe(
        `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      );
      expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
        grant_type: 'authorization_code',
        code: 'ita-code-9',
        redirect_uri: `${ORIGIN}/shaam-auth`,
      });

      const connectedAt = new Date(NOW + 5 * MINUTE);
      expect(await status()).toEqual({
        connected: true,
        client_id: CLIENT_ID,
        connected_at: connectedAt.toISOString(),
        token_expires_at: new Date(connectedAt.getTime() + 3600_000).toISOString(),
      });
      const [row] = await db.select().from(shaamConnections);
      const sealed = `${row?.accessToken} ${row?.refreshToken}`;
      expect(sealed).not.toContain('ita-access-token-1');
      expect(sealed).not.toContain('ita-refresh-token-1');
      const at = (column: string) => sealedAt('shaam_connections', column, clinicId);
      const key = shaamKey(testDataKey);
      expect(decryptText(key, row?.accessToken ?? '', at('access_token'))).toBe(
        'ita-access-token-1',
      );
      expect(decryptText(key, row?.refreshToken ?? '', at('refresh_token'))).toBe(
        'ita-refresh-token-1',
      );
      const entries = await db.select().from(auditLog).where(eq(auditLog.action, 'shaam.connect'));
      expect(entries).toEqual([
        expect.objectContaining({
          clinicId,
          actor: 'shaam_auth',
          details: { client_id: CLIENT_ID },
        }),
      ]);
    });

    it('refuses a state used once already, without calling the Tax Authority', async () => {
      const state = await start();
      expect((await complete({ code: 'c1', state })).statusCode).toBe(200);
      ita.reset();
      expectBadState(await complete({ code: 'c2', state }));
      expect(ita.requests).toEqual([]);
    });

    it('refuses a state 30 minutes old, and takes one a moment younger', async () => {
      const expiring = await start();
      now += 1;
      const younger = await start();
      now = NOW + 30 * MINUTE;
      expectBadState(await complete({ code: 'c1', state: expiring }));
      expect(ita.requests).toEqual([]);
      expect((await complete({ code: 'c2', state: younger })).statusCode).toBe(200);
    });

    it('refuses an unknown state and a WhatsApp connection link', async () => {
      expectBadState(await complete({ code: 'c', state: 'C'.repeat(43) }));
      const whatsappLink = await app.inject({
        method: 'POST',
        url: '/api/integration/whatsapp/connect',
        headers: { authorization: `Bearer ${key}` },
      });
      expectBadState(
        await complete({ code: 'c', state: whatsappLink.json<{ client_id: string }>().client_id }),
      );
      expect(ita.requests).toEqual([]);
    });

    it('answers 502 when the Tax Authority refuses, stores nothing and keeps the state usable', async () => {
      const state = await start();
      ita.answers.push({ status: 401, body: { error: 'invalid_client' } });
      const refused = await complete({ code: 'c1', state });
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ code: 'service_unavailable' });
      expect(refused.json<{ message: string }>().message).toContain('token endpoint answered 401');
      expect((await status()).connected).toBe(false);
      const [row] = await db.select().from(shaamConnections);
      expect(row?.accessToken).toBeNull();

      ita.answers.push({ status: 200, body: { token_type: 'Bearer' } });
      expect((await complete({ code: 'c2', state })).statusCode).toBe(502);
      expect((await status()).connected).toBe(false);

      expect((await complete({ code: 'c3', state })).statusCode).toBe(200);
      expect((await status()).connected).toBe(true);
    });

    it('needs the XSRF header and both fields', async () => {
      const state = await start();
      const noXsrf = await app.inject({
        method: 'POST',
        url: '/api/shaam-auth',
        payload: { code: 'c', state },
      });
      expect(noXsrf.statusCode).toBe(403);
      const noCode = await complete({ state });
      expect(noCode.statusCode).toBe(400);
      expect(noCode.json<{ message: string }>().message).toContain('code');
      expect(ita.requests).toEqual([]);
    });
  });

  it("shows each key only its own clinic's connection", async () => {
    expect((await complete({ code: 'c', state: await start() })).statusCode).toBe(200);
    expect(await status(otherKey)).toEqual({
      connected: false,
      client_id: null,
      connected_at: null,
      token_expires_at: null,
    });
  });
});
