// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { devMessagesSchema, whatsappStatusSchema } from '@marpe/shared';
import type { App } from '../src/app.js';
import { saveConnection, whatsappTokenKey } from '../src/modules/messaging/whatsapp-connections.js';
import { decryptText, sealedAt, sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  auditLog,
  caregivers,
  clinics,
  connectionTokens,
  outbox,
  whatsappConnections,
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
import { bearer, insertLoggedInPatients } from './sessions.js';

const NOW = Date.parse('2027-03-24T10:00:00Z');
const HOUR = 3_600_000;
const ORIGIN = 'https://marpe.example';
const APP_ID = '1122334455';
const APP_SECRET = 'meta-app-secret-7f';
const CONFIG_ID = '99887766';
const BUSINESS_TOKEN = 'EAAG-business-token-31b';
const signupIds = { wabaId: '102290129340398', phoneId: '106540352242922', businessId: '5550001' };

/**
 * A loopback Graph API (and SMS gateway at /sms): records every request and answers the code
 * exchange and message sends with what the test queued, 200 by default.
 */
async function startFakeGraph() {
  const answers: LoopbackAnswer[] = [];
  const graph = await startLoopback(
    (request) =>
      answers.shift() ?? {
        status: 200,
        body: request.path.endsWith('/oauth/access_token')
          ? { access_token: BUSINESS_TOKEN, token_type: 'bearer' }
          : { messages: [{ id: 'wamid.1' }] },
      },
  );
  return {
    ...graph,
    answers,
    reset() {
      graph.reset();
      answers.length = 0;
    },
  };
}

let graph: Awaited<ReturnType<typeof startFakeGraph>>;
beforeAll(async () => {
  graph = await startFakeGraph();
});
afterAll(async () => {
  await graph.close();
});

/** Messages really leave (SMS gateway and Graph API both on the fake); a Meta app is set. */
const productionEnv = () => ({
  DEMO: 'false',
  PUBLIC_ORIGIN: ORIGIN,
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: `${graph.origin}/sms`,
  SMS_HTTP_TOKEN: 'sms-token',
  SMS_SENDER: 'Marpe',
  GRAPH_API_BASE_URL: graph.origin,
  META_APP_ID: APP_ID,
  META_APP_SECRET: APP_SECRET,
  META_CONFIG_ID: CONFIG_ID,
});

async function insertClinics(db: Database): Promise<[number, number]> {
  const rows = await db
    .insert(clinics)
    .values([clinicRow('מרפאת השן'), clinicRow('מרפאה אחרת')])
    .returning({ id: clinics.id });
  const [main, other] = rows.map((r) => r.id);
  if (main === undefined || other === undefined) throw new Error('fixture: clinics');
  return [main, other];
}

describe.each(engines)('WhatsApp (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let app: App;
  let db: Database;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeEach(async () => {
    now = NOW;
    graph.reset();
    await database.current.reset();
    db = database.current.handle.db;
    [clinicId, otherClinicId] = await insertClinics(db);
    app = await buildTestApp(database.current.handle, {
      config: testConfig(productionEnv()),
      clock: () => now,
    });
    await app.ready();
    key = (await app.apiKeys.create(clinicId, 'practice software', 'cli')).key;
    otherKey = (await app.apiKeys.create(otherClinicId, 'other software', 'cli')).key;
    xsrf = await xsrfPair(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const integration = (method: 'GET' | 'POST' | 'DELETE', url: string, apiKey = key) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${apiKey}` } });

  async function connectLink(apiKey = key): Promise<string> {
    const response = await integration('POST', '/api/integration/whatsapp/connect', apiKey);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ client_id: string }>().client_id;
  }

  const signup = (clientId: string, overrides: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/wa-signup',
      cookies: xsrf.cookies,
      headers: xsrf.headers,
      payload: { code: 'meta-code-1', ...signupIds, clientId, ...overrides },
    });

  const status = async (apiKey = key) => {
    const response = await integration('GET', '/api/integration/whatsapp', apiKey);
    expect(response.statusCode, response.body).toBe(200);
    return whatsappStatusSchema.parse(response.json());
  };

  const expectBadClientId = (response: Awaited<ReturnType<typeof signup>>) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    expect(body.details.issues.map((issue) => issue.path)).toEqual(['clientId']);
  };

  describe('starting a connection', () => {
    it('answers a link to the page, good for 24 hours, storing only its hash', async () => {
      const response = await integration('POST', '/api/integration/whatsapp/connect');
      expect(response.statusCode, response.body).toBe(200);
      const link = response.json<{ client_id: string; url: string; expires_at: string }>();
      expect(link.client_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(link).toEqual({
        client_id: link.client_id,
        url: `${ORIGIN}/whatsapp-signup/${link.client_id}`,
        expires_at: new Date(NOW + 24 * HOUR).toISOString(),
      });
      const rows = await db.select().from(connectionTokens);
      expect(rows).toEqual([
        expect.objectContaining({
          clinicId,
          purpose: 'whatsapp',
          tokenHash: sha256Hex(link.client_id),
          usedAt: null,
        }),
      ]);
      const entries = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'whatsapp.connect_start'));
      expect(entries).toEqual([
        expect.objectContaining({ clinicId, actor: expect.stringMatching(/^api_key:\d+$/) }),
      ]);
    });

    it('needs an API key', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/integration/whatsapp/connect',
      });
      expect(response.statusCode).toBe(401);
    });

    it('answers 503 when the server has no Meta app', async () => {
      const env: Record<string, string> = { ...productionEnv() };
      delete env.META_APP_ID;
      delete env.META_APP_SECRET;
      delete env.META_CONFIG_ID;
      const bare = await buildTestApp(database.current.handle, { config: testConfig(env) });
      try {
        const response = await bare.inject({
          method: 'POST',
          url: '/api/integration/whatsapp/connect',
          headers: { authorization: `Bearer ${key}` },
        });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ code: 'service_unavailable' });
      } finally {
        await bare.close();
      }
    });
  });

  describe('POST /api/wa-signup', () => {
    it("exchanges the code at the Graph API and connects the link's clinic, token encrypted", async () => {
      const clientId = await connectLink();
      now += HOUR;
      const response = await signup(clientId);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });

      expect(graph.requests).toHaveLength(1);
      expect(graph.requests[0]).toMatchObject({
        method: 'GET',
        path: '/v23.0/oauth/access_token',
        query: { client_id: APP_ID, client_secret: APP_SECRET, code: 'meta-code-1' },
        body: '',
      });

      expect(await status()).toEqual({
        connected: true,
        waba_id: signupIds.wabaId,
        phone_number_id: signupIds.phoneId,
        business_id: signupIds.businessId,
        connected_at: new Date(NOW + HOUR).toISOString(),
        messaging_channel: 'whatsapp',
      });
      const [row] = await db.select().from(whatsappConnections);
      expect(row?.clinicId).toBe(clinicId);
      expect(row?.accessToken).not.toContain(BUSINESS_TOKEN);
      expect(
        decryptText(
          whatsappTokenKey(testDataKey),
          row?.accessToken ?? '',
          sealedAt('whatsapp_connections', 'access_token', clinicId),
        ),
      ).toBe(BUSINESS_TOKEN);
      const [tokenRow] = await db.select().from(connectionTokens);
      expect(tokenRow?.usedAt).toEqual(new Date(NOW + HOUR));
      const entries = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'whatsapp.connect'));
      expect(entries).toEqual([
        expect.objectContaining({
          clinicId,
          actor: 'whatsapp_signup',
          details: {
            waba_id: signupIds.wabaId,
            phone_number_id: signupIds.phoneId,
            business_id: signupIds.businessId,
          },
        }),
      ]);
      expect(JSON.stringify(entries)).not.toContain(BUSINESS_TOKEN);
    });

    it('refuses a link used once already, without calling Meta', async () => {
      const clientId = await connectLink();
      expect((await signup(clientId)).statusCode).toBe(200);
      graph.reset();
      expectBadClientId(await signup(clientId, { code: 'meta-code-2' }));
      expect(graph.requests).toEqual([]);
    });

    it('refuses a link from 24 hours ago, and takes one a moment younger', async () => {
      const expiring = await connectLink();
      now += 1;
      const younger = await connectLink();
      now = NOW + 24 * HOUR;
      expectBadClientId(await signup(expiring));
      expect(graph.requests).toEqual([]);
      expect((await signup(younger)).statusCode).toBe(200);
    });

    it('refuses an unknown link, and a connection token of another purpose', async () => {
      expectBadClientId(await signup('A'.repeat(43)));
      const shaam = await app.inject({
        method: 'POST',
        url: '/api/integration/shaam/connect',
        headers: { authorization: `Bearer ${key}` },
        payload: { client_id: 'c', client_secret: 's', return_url: 'https://pms.example/' },
      });
      expectBadClientId(await signup(shaam.json<{ state: string }>().state));
      expect(await db.select().from(whatsappConnections)).toEqual([]);
    });

    it('answers 502 when Meta refuses the code, stores nothing and keeps the link usable', async () => {
      const clientId = await connectLink();
      graph.answers.push({
        status: 400,
        body: { error: { message: 'Invalid verification code format.', code: 100 } },
      });
      const refused = await signup(clientId);
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ code: 'service_unavailable' });
      expect(refused.json<{ message: string }>().message).toContain(
        'Graph API answered 400 (Graph error 100)',
      );
      expect(await db.select().from(whatsappConnections)).toEqual([]);
      expect((await status()).connected).toBe(false);

      graph.answers.push({ status: 200, body: { token_type: 'bearer' } });
      expect((await signup(clientId)).statusCode).toBe(502);
      expect(await db.select().from(whatsappConnections)).toEqual([]);

      expect((await signup(clientId)).statusCode).toBe(200);
      expect((await status()).connected).toBe(true);
    });

    it('names the bad field, and refuses a call without the XSRF header', async () => {
      const clientId = await connectLink();
      const bad = await signup(clientId, { wabaId: 'waba-1' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain('wabaId');
      const noXsrf = await app.inject({
        method: 'POST',
        url: '/api/wa-signup',
        payload: { code: 'x', ...signupIds, clientId },
      });
      expect(noXsrf.statusCode).toBe(403);
      expect(graph.requests).toEqual([]);
    });

    it('limits each address to 20 calls a minute', async () => {
      const responses = [];
      for (let i = 0; i < 21; i++) responses.push(await signup('B'.repeat(43)));
      expect(responses.slice(0, 20).every((r) => r.statusCode === 400)).toBe(true);
      expect(responses[20]?.statusCode).toBe(429);
    });
  });

  describe('clinic isolation and disconnecting', () => {
    it("shows and disconnects only the key's own clinic", async () => {
      expect((await signup(await connectLink())).statusCode).toBe(200);
      expect(await status(otherKey)).toEqual({
        connected: false,
        waba_id: null,
        phone_number_id: null,
        business_id: null,
        connected_at: null,
        messaging_channel: 'sms',
      });
      expect((await integration('DELETE', '/api/integration/whatsapp', otherKey)).statusCode).toBe(
        404,
      );
      expect((await status()).connected).toBe(true);

      const deleted = await integration('DELETE', '/api/integration/whatsapp');
      expect(deleted.statusCode).toBe(204);
      expect(await status()).toMatchObject({ connected: false, messaging_channel: 'sms' });
      const [clinic] = await db.select().from(clinics).where(eq(clinics.id, clinicId));
      expect(clinic?.messagingChannel).toBe('sms');
      const [entry] = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'whatsapp.disconnect'));
      expect(entry).toMatchObject({ clinicId, actor: expect.stringMatching(/^api_key:/) });
    });

    it("connects the link's clinic, whatever key made another link", async () => {
      const otherLink = await connectLink(otherKey);
      expect((await signup(otherLink)).statusCode).toBe(200);
      expect((await status(otherKey)).connected).toBe(true);
      expect((await status()).connected).toBe(false);
    });
  });

  describe('sending', () => {
    const smsRequests = () => graph.requests.filter((r) => r.path === '/sms');
    const graphSends = () => graph.requests.filter((r) => r.path.endsWith('/messages'));

    async function connectClinic() {
      expect((await signup(await connectLink())).statusCode).toBe(200);
      graph.reset();
    }

    async function queue(forClinic: number, body = 'הטופס שלך: https://marpe.example/q/abc') {
      await db.transaction((tx) =>
        app.messaging.queueMessage(tx, { clinicId: forClinic, to: '0521234567', body }),
      );
      await app.messaging.runOutbox();
    }

    it('sends by WhatsApp for a connected clinic that chose it: the exact Graph request', async () => {
      await connectClinic();
      await queue(clinicId);
      expect(graph.requests).toHaveLength(1);
      const [request] = graph.requests;
      expect(request).toMatchObject({
        method: 'POST',
        path: `/v23.0/${signupIds.phoneId}/messages`,
        query: {},
      });
      expect(request?.headers.authorization).toBe(`Bearer ${BUSINESS_TOKEN}`);
      expect(request?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request?.body ?? '')).toEqual({
        messaging_product: 'whatsapp',
        to: '+972521234567',
        type: 'text',
        text: { body: 'הטופס שלך: https://marpe.example/q/abc' },
      });
      const [row] = await db.select().from(outbox);
      expect(row).toMatchObject({ topic: 'whatsapp', status: 'sent' });
    });

    it('sends by SMS for a clinic not connected, or one that chose SMS', async () => {
      await connectClinic();
      await queue(otherClinicId);
      await db.update(clinics).set({ messagingChannel: 'sms' }).where(eq(clinics.id, clinicId));
      await queue(clinicId);
      expect(graphSends()).toEqual([]);
      expect(smsRequests()).toHaveLength(2);
    });

    it('falls back to SMS when the clinic disconnected after the message was queued', async () => {
      await connectClinic();
      await db.transaction((tx) =>
        app.messaging.queueMessage(tx, { clinicId, to: '0521234567', body: 'פרטי התור' }),
      );
      expect((await integration('DELETE', '/api/integration/whatsapp')).statusCode).toBe(204);
      await app.messaging.runOutbox();
      expect(graphSends()).toEqual([]);
      expect(smsRequests()).toHaveLength(1);
    });

    it('retries when the Graph API refuses, naming no recipient or text', async () => {
      await connectClinic();
      graph.answers.push({ status: 500, body: { error: { code: 131000, message: 'x' } } });
      await queue(clinicId, 'סוד');
      const [row] = await db.select().from(outbox);
      expect(row).toMatchObject({ topic: 'whatsapp', status: 'pending', attempts: 1 });
      expect(row?.lastError).toContain('WhatsApp Cloud API answered 500 (Graph error 131000)');
      expect(row?.lastError).not.toContain('0521234567');
      expect(row?.lastError).not.toContain('סוד');
    });

    it('sends the appointment details by WhatsApp for a connected clinic', async () => {
      await connectClinic();
      const [type] = await db
        .insert(appointmentTypes)
        .values({ clinicId, name: 'בדיקה תקופתית', durationMinutes: 30 })
        .returning({ id: appointmentTypes.id });
      const [caregiver] = await db
        .insert(caregivers)
        .values({ clinicId, name: 'ד"ר דנה', licenseNumber: '1-1' })
        .returning({ id: caregivers.id });
      const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
      if (!type || !caregiver || !patient) throw new Error('fixture');
      await db.insert(appointments).values({
        clinicId,
        caregiverId: caregiver.id,
        patientId: patient.id,
        appointmentTypeId: type.id,
        startAt: new Date('2027-03-25T07:00:00Z'),
        endAt: new Date('2027-03-25T07:30:00Z'),
        localDate: '2027-03-25',
      });
      const response = await app.inject({
        method: 'POST',
        url: '/api/appointment/send-sms',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId,
          caregiverId: caregiver.id,
          appointmentTypeId: type.id,
          startDate: '2027-03-25T09:00:00+02:00',
          endDate: '2027-03-25T09:30:00+02:00',
        },
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      await app.messaging.runOutbox();
      expect(smsRequests()).toEqual([]);
      expect(graphSends()).toHaveLength(1);
      const sent = JSON.parse(graphSends()[0]?.body ?? '') as {
        to: string;
        text: { body: string };
      };
      expect(sent.to).toBe(`+972${patient.phone.slice(1)}`);
      expect(sent.text.body).toContain('25/03/2027');
    });
  });
});

describe('WhatsApp in demo mode', () => {
  const database = useTestDatabase('pglite');
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('records the message for GET /api/dev/messages instead of sending it', async () => {
    const db = database.current.handle.db;
    const [clinicId] = await insertClinics(db);
    await saveConnection(db, whatsappTokenKey(testDataKey), clinicId, {
      wabaId: '1',
      phoneNumberId: '2',
      businessId: '3',
      accessToken: 'demo-token',
      connectedAt: new Date(NOW),
    });
    await db.update(clinics).set({ messagingChannel: 'whatsapp' }).where(eq(clinics.id, clinicId));
    await db.transaction((tx) =>
      app.messaging.queueMessage(tx, { clinicId, to: '0527654321', body: 'קישור לתשלום' }),
    );
    await app.messaging.runOutbox();
    const messages = devMessagesSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json(),
    );
    expect(messages).toEqual([
      expect.objectContaining({ to: '0527654321', body: 'קישור לתשלום', channel: 'whatsapp' }),
    ]);
  });
});

describe('the connection page', () => {
  const database = useTestDatabase('pglite');
  let distDir: string;
  let app: App;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'marpe-web-'));
    await writeFile(
      path.join(distDir, 'index.html'),
      '<!doctype html><html><head><!--marpe:head--></head><body><div id="root"></div></body></html>',
    );
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        META_APP_ID: APP_ID,
        META_APP_SECRET: APP_SECRET,
        META_CONFIG_ID: CONFIG_ID,
        META_SDK_URL: 'http://127.0.0.1:9/fake-sdk.js',
      }),
      webDistDir: distDir,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const directives = (header: unknown) =>
    new Map(
      String(header)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources]),
    );
  const page = (url: string) =>
    app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  it.each(['/whatsapp-signup', '/whatsapp-signup/', '/whatsapp-signup/abc_DEF-123'])(
    'serves %s with the SDK and Meta frames allowed, and popups kept in touch',
    async (url) => {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.body).toContain(`<meta name="marpe-meta-app-id" content="${APP_ID}">`);
      expect(response.body).toContain(`<meta name="marpe-meta-config-id" content="${CONFIG_ID}">`);
      expect(response.body).toContain(
        '<meta name="marpe-meta-sdk-url" content="http://127.0.0.1:9/fake-sdk.js">',
      );
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'", 'http://127.0.0.1:9']);
      expect(csp.get('frame-src')).toEqual(
        expect.arrayContaining(["'self'", 'https://www.facebook.com', 'https://web.facebook.com']),
      );
      expect(csp.get('connect-src')).toContain('https://graph.facebook.com');
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    },
  );

  it("keeps other pages' policy: scripts from this site only", async () => {
    for (const url of ['/', '/privacy', '/shaam-auth?code=a&state=b', '/whatsapp-signups']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(String(response.headers['content-security-policy'])).not.toContain('facebook');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });
});
