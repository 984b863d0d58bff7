// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createServer, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { withIdCheckDigit, type WebhookDelivery } from '@marpe/shared';
import type { App } from '../src/app.js';
import {
  guardedLookup,
  NotPublicAddressError,
  type ResolveHost,
} from '../src/modules/webhooks/webhook-request.js';
import { isPublicAddress } from '../src/modules/webhooks/webhook-url.js';
import {
  WEBHOOK_BREAKER_COOLDOWN_MS,
  WEBHOOK_BREAKER_THRESHOLD,
  WEBHOOK_BUSY_RETRY_MS,
  WEBHOOK_ENDPOINT_CONCURRENCY,
} from '../src/modules/webhooks/deliver-webhook.js';
import type { Database } from '../src/platform/db/client.js';
import {
  clinics,
  outbox,
  patients,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/platform/db/schema.js';
import { OUTBOX_LANE_CONCURRENCY } from '../src/platform/outbox/outbox.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback } from './loopback.js';
import { bearer } from './sessions.js';

const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const HOUR = 3_600_000;
const DANA = { idNumber: withIdCheckDigit('03984512'), phone: '0501234567' };
const PAYMENT = {
  request_id: 7,
  amount: 100,
  status: 'paid' as const,
  response_code: '000',
  payments: 1,
  transaction_index: '41',
  verified: true,
};

describe('public address classifier', () => {
  it.each([
    // IPv4
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.215.14', true],
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.0.0.1', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['100.127.255.255', false],
    ['100.128.0.1', true],
    ['198.18.0.1', false],
    ['198.19.255.255', false],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['198.51.100.1', false],
    ['203.0.113.1', false],
    ['192.88.99.1', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // IPv6
    ['2606:4700:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['ff05::1:3', false],
    ['2001:db8::1', false],
    ['2001:2::1', false],
    ['2001::1', false],
    ['100::1', false],
    ['fec0::1', false],
    // Outside 2000::/3, nothing is allocated for global unicast.
    ['4000::1', false],
    // IPv4-compatible (deprecated ::/96) and IPv4-translated forms.
    ['::7f00:1', false],
    ['::ffff:0:7f00:1', false],
    // IPv4-mapped IPv6: judged as the IPv4 address.
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    // 6to4 2002::/16 embeds an IPv4 address in bits 16-47.
    ['2002:7f00:1::1', false],
    ['2002:c0a8:101::1', false],
    ['2002:808:808::1', true],
    // NAT64: the well-known prefix embeds the IPv4 address; the local-use prefix is not public.
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::8.8.8.8', false],
    // Not addresses at all.
    ['localhost', false],
    ['localhost.', false],
    ['', false],
    ['999.1.1.1', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('guarded lookup', () => {
  const resolveTo =
    (...addresses: LookupAddress[]): ResolveHost =>
    async () =>
      addresses;
  const lookup = (resolve: ResolveHost, publicOnly: boolean, options: object) =>
    new Promise<{ error: Error | null; result: unknown }>((done) => {
      guardedLookup(resolve, publicOnly)('hooks.test', options, (error, ...result) =>
        done({ error, result }),
      );
    });

  it('refuses a name when any of its addresses is not public', async () => {
    const mixed = resolveTo({ address: '8.8.8.8', family: 4 }, { address: '127.0.0.1', family: 4 });
    const refused = await lookup(mixed, true, { all: true });
    expect(refused.error).toBeInstanceOf(NotPublicAddressError);
    expect(refused.error?.message).toBe('refused: not a public address');
    const v6 = resolveTo({ address: '::ffff:169.254.169.254', family: 6 });
    expect((await lookup(v6, true, {})).error).toBeInstanceOf(NotPublicAddressError);
  });

  it('answers as the socket asked: all addresses, or the first of the family', async () => {
    const both = resolveTo(
      { address: '2001:4860:4860::8888', family: 6 },
      { address: '8.8.8.8', family: 4 },
    );
    expect(await lookup(both, true, { all: true })).toEqual({
      error: null,
      result: [
        [
          { address: '2001:4860:4860::8888', family: 6 },
          { address: '8.8.8.8', family: 4 },
        ],
      ],
    });
    expect(await lookup(both, true, { family: 4 })).toEqual({
      error: null,
      result: ['8.8.8.8', 4],
    });
  });

  it('lets loopback through when not public-only (demo mode)', async () => {
    const loopback = resolveTo({ address: '127.0.0.1', family: 4 });
    expect(await lookup(loopback, false, {})).toEqual({ error: null, result: ['127.0.0.1', 4] });
  });
});

/**
 * A clinic's receiver that can hang: counts the requests open at once per path (a request is
 * open from its arrival until it is answered or its connection closes).
 */
async function startCountingReceiver() {
  const open = new Map<string, Set<ServerResponse>>();
  const maxOpen = new Map<string, number>();
  const received: string[] = [];
  /** Paths answered with this status; others hang until `release()`. */
  const statusFor = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push(path);
      const status = statusFor.get(path);
      if (status !== undefined) {
        res.writeHead(status).end();
        return;
      }
      const set = open.get(path) ?? new Set();
      open.set(path, set);
      set.add(res);
      maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, set.size));
      res.on('close', () => set.delete(res));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    received,
    statusFor,
    openCount: () => [...open.values()].reduce((sum, set) => sum + set.size, 0),
    maxOpen: (path: string) => maxOpen.get(path) ?? 0,
    /** Answers every hanging request with 200. */
    release() {
      for (const set of open.values()) for (const res of set) res.writeHead(200).end();
    },
    reset() {
      this.release();
      received.length = 0;
      statusFor.clear();
      maxOpen.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `hooks.test` resolves to the receiver's loopback address, as a rebinding name would. */
const resolveHooksTest: ResolveHost = async (hostname) => {
  if (hostname === 'hooks.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe.each(engines)('webhook delivery lanes (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let app: App;
  let db: Database;
  let clinicId: number;
  let key: string;
  let receiver: Awaited<ReturnType<typeof startCountingReceiver>>;
  let gateway: Awaited<ReturnType<typeof startLoopback>>;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    receiver = await startCountingReceiver();
    gateway = await startLoopback(() => ({ status: 200, body: { ok: true } }));
    app = await buildTestApp(database.current.handle, {
      // Demo mode (loopback receivers allowed), with the HTTP SMS provider to see codes leave.
      config: testConfig({
        PUBLIC_ORIGIN: 'https://marpe.example',
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: gateway.url('/sms'),
        SMS_HTTP_TOKEN: 'gateway-token',
        SMS_SENDER: 'Marpe',
      }),
      clock: () => now,
      outboxPollIntervalMs: HOUR,
      // Hanging receivers hang until the test answers them.
      webhookTimeoutMs: HOUR,
      webhookResolveHost: resolveHooksTest,
      patientAuthAttemptsPerMinute: 10_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    await gateway.close();
  });
  beforeEach(async () => {
    now = NOW;
    receiver.reset();
    gateway.reset();
    await database.current.reset();
    const [clinic] = await db
      .insert(clinics)
      .values({ ...clinicRow('מרפאת הבדיקות'), isAcceptNewPatients: true })
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
    await db.insert(patients).values({
      clinicId,
      idNumber: DANA.idNumber,
      firstName: 'דנה',
      lastName: 'לוי',
      phone: DANA.phone,
    });
    key = (await app.apiKeys.create(clinicId, 'pms', 'cli')).key;
  });

  async function addEndpoint(path: string): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/integration/webhooks',
      headers: bearer(key),
      payload: { url: `http://hooks.test:${receiver.port}${path}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  }

  async function emitPayments(count: number) {
    await db.transaction(async (tx) => {
      for (let n = 0; n < count; n++) {
        await app.webhooks.emit(tx, { clinicId, type: 'payment.succeeded', data: PAYMENT });
      }
    });
  }

  const deliveries = (endpointId: number) =>
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.id);
  const statuses = async (endpointId: number) =>
    (await deliveries(endpointId)).map((d) => d.status);

  it('sends a login code in the next run of its lane while 100 webhook deliveries hang', async () => {
    const endpoints: number[] = [];
    for (let n = 0; n < 10; n++) endpoints.push(await addEndpoint(`/slow-${n}`));
    await emitPayments(10);
    expect(await db.$count(outbox, eq(outbox.lane, 'webhooks'))).toBe(100);

    // The webhook lane takes as many as it works at once, and every one of them hangs.
    const webhookRun = app.outbox.runOnce('webhooks');
    await vi.waitFor(() => expect(receiver.openCount()).toBe(OUTBOX_LANE_CONCURRENCY.webhooks), {
      timeout: 20_000,
    });

    const response = await app.inject({
      method: 'POST',
      url: '/api/patient-auth/login',
      payload: { clinicId, ...DANA },
      ...xsrf,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await db.$count(outbox, eq(outbox.lane, 'codes'))).toBe(1);
    await app.messaging.runOutbox('codes');

    expect(gateway.requests).toHaveLength(1);
    const sms = JSON.parse(gateway.requests[0]?.body ?? '{}') as { to: string; text: string };
    expect(sms.to).toBe('+972501234567');
    expect(sms.text).toMatch(/\d{6}/);
    // The webhooks are still hanging: none was delivered.
    expect(receiver.openCount()).toBe(OUTBOX_LANE_CONCURRENCY.webhooks);
    expect(await db.$count(webhookDeliveries, eq(webhookDeliveries.status, 'delivered'))).toBe(0);

    // Let the receivers answer, and the webhook lane (and the run the login's kick queued) finish.
    for (let n = 0; n < 10; n++) receiver.statusFor.set(`/slow-${n}`, 200);
    receiver.release();
    await webhookRun;
    await app.outbox.runOnce('webhooks');
    expect(
      await db.$count(webhookDeliveries, eq(webhookDeliveries.status, 'delivered')),
    ).toBeGreaterThanOrEqual(OUTBOX_LANE_CONCURRENCY.webhooks);
  });

  it('keeps to the per-endpoint limit, and delivers the deferred ones later', async () => {
    const endpoint = await addEndpoint('/hook');
    await emitPayments(10);

    const run = app.outbox.runOnce('webhooks');
    // The deliveries beyond the limit go back untried, to come again shortly.
    await vi.waitFor(
      async () => {
        const waiting = await db.$count(
          outbox,
          and(
            eq(outbox.attempts, 0),
            eq(outbox.nextAttemptAt, new Date(NOW + WEBHOOK_BUSY_RETRY_MS)),
          ),
        );
        expect(waiting).toBe(10 - WEBHOOK_ENDPOINT_CONCURRENCY);
        expect(receiver.openCount()).toBe(WEBHOOK_ENDPOINT_CONCURRENCY);
      },
      { timeout: 20_000 },
    );
    receiver.release();
    await run;
    expect((await statuses(endpoint)).filter((s) => s === 'delivered')).toHaveLength(
      WEBHOOK_ENDPOINT_CONCURRENCY,
    );
    expect((await deliveries(endpoint)).every((d) => d.attempts <= 1)).toBe(true);

    // Answered at once from now on; still never more than the limit at a time.
    receiver.statusFor.set('/hook', 200);
    for (let round = 0; round < 3; round++) {
      now += WEBHOOK_BUSY_RETRY_MS;
      await app.outbox.runOnce('webhooks');
    }
    expect(await statuses(endpoint)).toEqual(Array(10).fill('delivered'));
    expect(receiver.received).toHaveLength(10);
    expect(receiver.maxOpen('/hook')).toBe(WEBHOOK_ENDPOINT_CONCURRENCY);
  });

  it('opens the circuit after repeated failures, holds deliveries, and resumes after the cool-down', async () => {
    const endpoint = await addEndpoint('/down');
    receiver.statusFor.set('/down', 500);
    // One event at a time, the clock still: earlier failures are not due again yet.
    for (let n = 0; n < WEBHOOK_BREAKER_THRESHOLD; n++) {
      await emitPayments(1);
      await app.outbox.runOnce('webhooks');
    }
    expect(receiver.received).toHaveLength(WEBHOOK_BREAKER_THRESHOLD);
    const [state] = await db
      .select({
        failures: webhookEndpoints.consecutiveFailures,
        openUntil: webhookEndpoints.circuitOpenUntil,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint));
    expect(state).toEqual({
      failures: WEBHOOK_BREAKER_THRESHOLD,
      openUntil: new Date(NOW + WEBHOOK_BREAKER_COOLDOWN_MS),
    });

    // Open: a new event and the retries wait, untried, neither failed nor lost.
    receiver.statusFor.set('/down', 200);
    await emitPayments(1);
    await app.outbox.runOnce('webhooks');
    now += WEBHOOK_BREAKER_COOLDOWN_MS / 2;
    await app.outbox.runOnce('webhooks');
    expect(receiver.received).toHaveLength(WEBHOOK_BREAKER_THRESHOLD);
    expect(await statuses(endpoint)).toEqual(Array(6).fill('pending'));
    const [newest] = await db
      .select()
      .from(outbox)
      .orderBy(outbox.id)
      .limit(1)
      .offset(WEBHOOK_BREAKER_THRESHOLD);
    expect(newest).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(NOW + WEBHOOK_BREAKER_COOLDOWN_MS),
    });
    const failures = await app.inject({
      method: 'GET',
      url: '/api/integration/webhook-deliveries?status=failed',
      headers: bearer(key),
    });
    expect(failures.json()).toEqual([]);

    // Closed again after the cool-down: everything goes, within the per-endpoint limit.
    now = NOW + WEBHOOK_BREAKER_COOLDOWN_MS;
    await app.outbox.runOnce('webhooks');
    now += WEBHOOK_BUSY_RETRY_MS;
    await app.outbox.runOnce('webhooks');
    expect(await statuses(endpoint)).toEqual(Array(6).fill('delivered'));
    const [closed] = await db
      .select({
        failures: webhookEndpoints.consecutiveFailures,
        openUntil: webhookEndpoints.circuitOpenUntil,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint));
    expect(closed).toEqual({ failures: 0, openUntil: null });
  });
});

describe.each(engines)('webhook addresses outside demo mode (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let clinicId: number;
  let key: string;
  let receiver: Awaited<ReturnType<typeof startCountingReceiver>>;
  let resolveHost: ResolveHost = resolveHooksTest;

  beforeAll(async () => {
    receiver = await startCountingReceiver();
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        DEMO: 'false',
        PUBLIC_ORIGIN: 'https://marpe.example',
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: 'https://sms.example/v1',
        SMS_HTTP_TOKEN: 'gateway-token',
        SMS_SENDER: 'Marpe',
      }),
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
      webhookTimeoutMs: 2000,
      webhookResolveHost: (hostname) => resolveHost(hostname),
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });
  beforeEach(async () => {
    receiver.reset();
    resolveHost = resolveHooksTest;
    await database.current.reset();
    const [clinic] = await db
      .insert(clinics)
      .values(clinicRow('מרפאת הבדיקות'))
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
    key = (await app.apiKeys.create(clinicId, 'pms', 'cli')).key;
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url: `/api/integration${url}`, headers: bearer(key), payload });

  it('refuses a literal private address when the endpoint is saved', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost.', '100.64.1.1', '[64:ff9b::a00:1]']) {
      const response = await api('POST', '/webhooks', { url: `https://${host}:8080/hook` });
      expect(response.statusCode, host).toBe(400);
      expect(response.json()).toMatchObject({
        details: {
          issues: [
            { path: 'url', message: 'Must be a public address, not a local or private one' },
          ],
        },
      });
    }
  });

  it('refuses a name that resolves to loopback when connecting, telling the clinic only that', async () => {
    // https, as outside demo mode it must be: the address is refused before any TLS begins.
    const created = await api('POST', '/webhooks', {
      url: `https://hooks.test:${receiver.port}/hook`,
    });
    expect(created.statusCode, created.body).toBe(201);
    await db.transaction((tx) =>
      app.webhooks.emit(tx, { clinicId, type: 'payment.succeeded', data: PAYMENT }),
    );
    await app.outbox.runOnce('webhooks');

    expect(receiver.received).toEqual([]);
    const listed = (await api('GET', '/webhook-deliveries')).json<WebhookDelivery[]>();
    expect(listed).toMatchObject([
      {
        status: 'pending',
        attempts: 1,
        last_status_code: null,
        last_error: 'refused: not a public address',
      },
    ]);

    // Rebinding: the name now answers a public address first and loopback second; still refused.
    resolveHost = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await db.update(outbox).set({ nextAttemptAt: new Date(NOW) });
    await app.outbox.runOnce('webhooks');
    expect(receiver.received).toEqual([]);
    const [delivery] = await db.select().from(webhookDeliveries);
    expect(delivery).toMatchObject({ attempts: 2, lastError: 'refused: not a public address' });
  });
});
