import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { seedDemoCalendars } from '../src/demo/demo-calendar.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { ConfigError } from '../src/platform/config.js';
import { caregivers, webhookEndpoints } from '../src/platform/db/schema.js';
import { createMetrics, startMetricsServer } from '../src/platform/metrics.js';
import { startTracing, type Tracing } from '../src/platform/telemetry.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer } from './sessions.js';

/** Tuesday 2027-03-23, 09:00 in Israel. */
const NOW = Date.parse('2027-03-23T09:00:00+02:00');
const HOUR = 3_600_000;

/** One tracer provider per process (it is global): both engines' suites share the exporter. */
const spans = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(spans)] });
});
afterAll(async () => {
  await tracing.shutdown();
});

/** What a reverse proxy or CDN in front of the server adds, one at a time. */
const PROXY_HEADERS: Record<string, string>[] = [
  { 'x-forwarded-for': '203.0.113.9' },
  { 'x-forwarded-host': 'marpe.example.com' },
  { 'x-forwarded-proto': 'https' },
  { forwarded: 'for=203.0.113.9;host=marpe.example.com' },
  { 'x-real-ip': '203.0.113.9' },
  { via: '1.1 nginx' },
  { 'cf-connecting-ip': '203.0.113.9' },
  { 'true-client-ip': '203.0.113.9' },
];

describe.each(engines)('trust, third pass (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let now = NOW;
  const lines: string[] = [];

  beforeAll(async () => {
    await seedDemoClinic(database.current.handle.db, { now: NOW });
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ LOG_LEVEL: 'info' }),
      clock: () => now,
      logStream: { write: (line) => void lines.push(line) },
      outboxPollIntervalMs: HOUR,
      tracing,
    });
    await app.ready();
    // As main.ts does at start: the stand-in keeps nothing between runs.
    if (app.googleStandIn) {
      await seedDemoCalendars(app.googleStandIn, database.current.handle.db, NOW);
    }
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    now = NOW;
  });

  describe('demo routes', () => {
    /** Every /api/dev/* route and method the app serves, as its OpenAPI document lists them. */
    async function devRoutes(): Promise<{ method: string; path: string }[]> {
      const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      return Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/api/dev/'))
        .flatMap(([path, methods]) =>
          Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
        );
    }

    async function caregiverWithCalendar(): Promise<number> {
      const [row] = await database.current.handle.db
        .select({ id: caregivers.id })
        .from(caregivers)
        .where(isNotNull(caregivers.googleCalendarSyncCalendarId));
      if (!row) throw new Error('the demo clinic has no synced calendar');
      return row.id;
    }

    it('are all behind the guard, the dev calendar routes included', async () => {
      const routes = await devRoutes();
      expect(routes).toEqual(
        expect.arrayContaining([
          { method: 'GET', path: '/api/dev/messages' },
          { method: 'POST', path: '/api/dev/demo-links' },
          { method: 'GET', path: '/api/dev/calendar-events' },
          { method: 'POST', path: '/api/dev/calendar-events' },
        ]),
      );
      const caregiverId = await caregiverWithCalendar();
      const xsrf = await xsrfPair(app);
      const body = {
        caregiverId,
        start: '2027-03-24 11:00',
        end: '2027-03-24 12:00',
        summary: 'through a proxy',
      };
      for (const { method, path } of routes) {
        const url = method === 'GET' ? `${path}?caregiverId=${caregiverId}` : path;
        const payload = method === 'POST' ? body : undefined;
        const tries: { headers: Record<string, string>; remoteAddress?: string }[] = [
          // What a plain nginx proxy_pass with X-Real-IP sends.
          { headers: { host: '127.0.0.1', 'x-real-ip': '203.0.113.9' } },
          ...PROXY_HEADERS.map((headers) => ({ headers: { host: 'localhost:3000', ...headers } })),
          { headers: { host: 'marpe.example.com' } },
          // A peer elsewhere (a proxy on another machine), whatever Host it names.
          { headers: { host: 'localhost:3000' }, remoteAddress: '10.0.0.7' },
          { headers: { host: 'localhost:3000' }, remoteAddress: '203.0.113.9' },
        ];
        for (const { headers, remoteAddress } of tries) {
          // With and without the anti-forgery pair: a refusal must not say the route is there.
          for (const withXsrf of [true, false]) {
            const response = await app.inject({
              method: method as 'GET' | 'POST',
              url,
              payload,
              cookies: withXsrf ? xsrf.cookies : {},
              headers: { ...(withXsrf ? xsrf.headers : {}), ...headers },
              ...(remoteAddress ? { remoteAddress } : {}),
            });
            const what = `${method} ${path} ${JSON.stringify(headers)} ${remoteAddress ?? ''} ${withXsrf}`;
            expect(response.statusCode, what).toBe(404);
            expect(response.json(), what).toMatchObject({ code: 'not_found' });
          }
        }
      }
      // Nothing was added to the calendar from outside.
      const events = await app.inject({
        method: 'GET',
        url: `/api/dev/calendar-events?caregiverId=${caregiverId}`,
        headers: { host: 'localhost:3000' },
      });
      expect(events.statusCode).toBe(200);
      expect(events.body).not.toContain('through a proxy');
    });

    it('answer a direct loopback connection with a loopback Host', async () => {
      const caregiverId = await caregiverWithCalendar();
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const messages = await app.inject({
          method: 'GET',
          url: '/api/dev/messages',
          headers: { host: 'localhost:3000' },
          remoteAddress,
        });
        expect(messages.statusCode, remoteAddress).toBe(200);
      }
      const added = await app.inject({
        method: 'POST',
        url: '/api/dev/calendar-events',
        headers: { host: '127.0.0.1:3000' },
        payload: { caregiverId, start: '2027-03-24 11:00', end: '2027-03-24 12:00' },
      });
      expect(added.statusCode, added.body).toBe(200);
      const events = await app.inject({
        method: 'GET',
        url: `/api/dev/calendar-events?caregiverId=${caregiverId}`,
        headers: { host: '[::1]:3000' },
      });
      expect(events.statusCode).toBe(200);
      expect(events.json<{ id: string }[]>().map((e) => e.id)).toContain(added.json().id);
    });
  });

  describe('calendar feed tokens in the logs', () => {
    it('are redacted from every /api/calendar-feed/… path, whatever the answer', async () => {
      const tokens = [
        'Cq7mT2vXk9LpR4nB8cYd1Hs6Jf3Gu5Ae0Zo_Ki-WqEr',
        // No digit: the "looks like a token" rule alone would let it through.
        'CqmTvXkLpRnBcYdHsJfGuAeZoKiWqErTyUiOpAsDfGh',
      ];
      lines.length = 0;
      for (const token of tokens) {
        for (const [method, url] of [
          ['POST', `/api/calendar-feed/${token}.ics`],
          ['GET', `/api/calendar-feed/${token}.ics/`],
          ['GET', `/api/calendar-feed/${token}.ICS`],
          ['GET', `/api/calendar-feed/${token}`],
          ['GET', `/api//calendar-feed/${token}.ics`],
          ['DELETE', `/api/calendar-feed/${token}.ics`],
          ['GET', `/api/calendar-feed/x/${token}.ics`],
          ['GET', `/API/calendar-feed/${token}.ics`],
          ['GET', `/api/calendar-feed/${token}.ics`],
        ] as const) {
          const response = await app.inject({ method, url });
          expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
      const text = lines.join('');
      expect(text).toContain('calendar-feed/[token]');
      for (const token of tokens) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(token.slice(0, 16));
      }
    });
  });

  describe('traceparent', () => {
    it('from the public does not continue a trace', async () => {
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      spans.reset();
      const response = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: {
          traceparent: `00-${traceId}-b7ad6b7169203331-01`,
          tracestate: 'vendor=abc',
          baggage: 'user=admin',
        },
      });
      expect(response.statusCode).toBe(200);
      const finished = spans.getFinishedSpans();
      expect(finished.length).toBeGreaterThan(0);
      for (const span of finished) {
        expect(span.spanContext().traceId).not.toBe(traceId);
        expect(span.spanContext().traceState?.get('vendor')).toBeUndefined();
      }
      const root = finished.find((span) => span.name === 'GET /api/health');
      expect(root).toBeDefined();
      expect(root?.parentSpanContext?.spanId).toBeUndefined();
    });
  });

  describe('a replaced webhook secret', () => {
    let receiver: Loopback;
    beforeAll(async () => {
      receiver = await startLoopback(() => ({ status: 204 }));
    });
    afterAll(async () => {
      await receiver.close();
    });

    it('is erased once its 24-hour overlap is over', async () => {
      const { key } = await app.apiKeys.create(1, 'pms', 'cli');
      const created = await app.inject({
        method: 'POST',
        url: '/api/integration/webhooks',
        headers: bearer(key),
        payload: { url: receiver.url('/hook') },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: number }>().id;
      const rotated = await app.inject({
        method: 'PATCH',
        url: `/api/integration/webhooks/${id}`,
        headers: bearer(key),
        payload: { rotate_secret: true },
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const stored = async () =>
        (
          await database.current.handle.db
            .select({
              previousSecret: webhookEndpoints.previousSecret,
              previousSecretUntil: webhookEndpoints.previousSecretUntil,
            })
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.id, id))
        )[0];
      expect((await stored())?.previousSecret).toMatch(/^v2\./);

      // Within the overlap the job keeps it: it still signs.
      now = NOW + 24 * HOUR - 1;
      await app.retention.runOnce();
      expect((await stored())?.previousSecret).toMatch(/^v2\./);

      now = NOW + 24 * HOUR;
      expect(await app.retention.runOnce()).toMatchObject({
        'webhook_endpoints.previous_secret': 1,
      });
      expect(await stored()).toEqual({ previousSecret: null, previousSecretUntil: null });

      // And when the endpoint is sent to after the overlap, before the hourly job runs.
      now = NOW;
      await app.inject({
        method: 'PATCH',
        url: `/api/integration/webhooks/${id}`,
        headers: bearer(key),
        payload: { rotate_secret: true },
      });
      expect((await stored())?.previousSecret).toMatch(/^v2\./);
      now = NOW + 24 * HOUR + 1;
      const data = { caregiver_id: 1, state: 'error' as const, error: 'x', failures: 1 };
      await app.webhooks.emit(database.current.handle.db, {
        clinicId: 1,
        type: 'calendar.sync_failed',
        data,
      });
      await app.outbox.runOnce('webhooks');
      expect(receiver.requests).toHaveLength(1);
      expect(String(receiver.requests[0]?.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(await stored()).toEqual({ previousSecret: null, previousSecretUntil: null });
    });
  });
});

describe('metrics listener', () => {
  it('is refused on a non-loopback HOST without METRICS_TOKEN', () => {
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'marpe.internal']) {
      let error: unknown;
      try {
        testConfig({ HOST, METRICS_PORT: '9464' });
      } catch (caught) {
        error = caught;
      }
      expect(error, HOST).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('METRICS_TOKEN');
      expect(message).toContain('METRICS_PORT');
      expect(message).toContain('HOST');
    }
    // On loopback, or with a token, it starts.
    expect(testConfig({ HOST: '127.0.0.1', METRICS_PORT: '9464' }).metrics.port).toBe(9464);
    expect(testConfig({ METRICS_PORT: '9464' }).metrics.port).toBe(9464);
    expect(
      testConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464', METRICS_TOKEN: 'x'.repeat(16) }).metrics
        .token,
    ).toBe('x'.repeat(16));
  });

  it('does not listen on a non-loopback address without a token', async () => {
    const metrics = createMetrics({
      database: { db: null as never, engine: 'pglite' } as never,
      clock: Date.now,
    });
    const started = startMetricsServer(metrics, { host: '0.0.0.0', port: 0, token: null });
    // Closed if it did listen, so that a failure here leaves no server behind.
    started.then(
      (server) => server.close(),
      () => {},
    );
    await expect(started).rejects.toThrow(/METRICS_TOKEN/);
  });
});
