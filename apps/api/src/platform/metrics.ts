import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isLoopbackHost } from './config.js';
import { safeEqual } from './crypto.js';
import type { DatabaseHandle } from './db/client.js';
import { outboxLanes } from './db/schema.js';
import type { OutboxOutcome } from './outbox/outbox-contract.js';

// Prometheus metrics (docs/operations.md, "Metrics"; ADR 030). Counters and the latency histogram
// are this process's; the gauges read from the database describe the whole installation, the same
// in every instance (aggregate them with max, not sum).

export interface Metrics {
  readonly registry: Registry;
  /** One answered HTTP request: `route` is the route's pattern, never the path. */
  observeRequest(route: string, method: string, statusCode: number, seconds: number): void;
  /** One outcome of one outbox row's try (the outbox's `observe`). */
  observeOutbox(outcome: OutboxOutcome): void;
  /** One signed delivery receipt of an SMS provider, by the state it reports. */
  observeSmsReceipt(receipt: { provider: string; state: string }): void;
  /** A calendar pass failed for a reason of the server's own (its Google key), not the clinic's. */
  observeCalendarServerFault(): void;
  /** The text exposition format. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsDeps {
  database: Pick<DatabaseHandle, 'db' | 'poolStats'>;
  /** Epoch milliseconds. */
  clock: () => number;
}

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

export function createMetrics(deps: MetricsDeps): Metrics {
  const { database, clock } = deps;
  const { db } = database;
  const registry = new Registry();
  // Event-loop lag (nodejs_eventloop_lag_*), memory, CPU, handles: what the runtime offers.
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: 'marpe_http_request_duration_seconds',
    help: 'HTTP requests answered, by route pattern, method and status class; _count counts them',
    labelNames: ['route', 'method', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const outboxFailures = new Counter({
    name: 'marpe_outbox_attempt_failures_total',
    help: 'Failed tries of outbox rows (SMS, WhatsApp, webhook…) by topic; each is retried',
    labelNames: ['topic'],
    registers: [registry],
  });
  const outboxDead = new Counter({
    name: 'marpe_outbox_dead_total',
    help: 'Outbox rows given up after 48 hours of failures, by topic',
    labelNames: ['topic'],
    registers: [registry],
  });
  const outboxDone = new Counter({
    name: 'marpe_outbox_processed_total',
    help: 'Outbox rows done (sent) or expired unsent, by topic and outcome',
    labelNames: ['topic', 'outcome'],
    registers: [registry],
  });

  const smsReceipts = new Counter({
    name: 'marpe_sms_receipts_total',
    help: "SMS providers' signed delivery receipts, by provider and the state they report (sent, delivered, undelivered, failed)",
    labelNames: ['provider', 'state'],
    registers: [registry],
  });

  const calendarServerFaults = new Counter({
    name: 'marpe_calendar_server_faults_total',
    help: "Calendar sync passes failed for the server's own reason (Google refused or did not answer its token request)",
    registers: [registry],
  });

  const seconds = (at: Date | string | null) =>
    at === null ? 0 : Math.max(0, (clock() - new Date(at).getTime()) / 1000);

  new Gauge({
    name: 'marpe_outbox_pending',
    help: 'Outbox rows waiting, by lane (codes: login codes; default: messages; webhooks)',
    labelNames: ['lane'],
    registers: [registry],
    async collect() {
      const stats = await outboxStats();
      for (const lane of outboxLanes) this.set({ lane }, stats.get(lane)?.pending ?? 0);
    },
  });
  new Gauge({
    name: 'marpe_outbox_oldest_pending_seconds',
    help: 'Age of the oldest outbox row due or already tried and still waiting, by lane',
    labelNames: ['lane'],
    registers: [registry],
    async collect() {
      const stats = await outboxStats();
      for (const lane of outboxLanes) {
        this.set({ lane }, seconds(stats.get(lane)?.oldest ?? null));
      }
    },
  });
  new Gauge({
    name: 'marpe_webhook_endpoints_breaker_open',
    help: 'Webhook endpoints whose circuit breaker is open (deliveries paused)',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ count: number }>(
        await db.execute(
          sql`SELECT count(*)::int AS count FROM webhook_endpoints WHERE circuit_open_until > ${new Date(clock()).toISOString()}::timestamptz`,
        ),
      );
      this.set(row?.count ?? 0);
    },
  });
  const verifying = async () => {
    // Waiting since the provider's last callback for the request (the request may be older).
    const [row] = rowsOf<{ count: number; oldest: string | null }>(
      await db.execute(sql`
        SELECT count(*)::int AS count, min(t.at) AS oldest
        FROM payment_requests r
        LEFT JOIN LATERAL (
          SELECT max(received_at) AS at FROM payment_transactions WHERE request_id = r.id
        ) t ON true
        WHERE r.status = 'verifying'`),
    );
    return row;
  };
  new Gauge({
    name: 'marpe_payments_verifying',
    help: "Payment requests charged and waiting for the provider's confirmation",
    registers: [registry],
    async collect() {
      this.set((await verifying())?.count ?? 0);
    },
  });
  new Gauge({
    name: 'marpe_payments_verifying_oldest_seconds',
    help: "How long the oldest of them has waited since the provider's callback",
    registers: [registry],
    async collect() {
      this.set(seconds((await verifying())?.oldest ?? null));
    },
  });
  new Gauge({
    name: 'marpe_reminders_due',
    help: 'Appointment reminders past their time and not yet sent',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ count: number }>(
        await db.execute(
          sql`SELECT count(*)::int AS count FROM appointment_reminders WHERE status = 'scheduled' AND due_at <= ${new Date(clock()).toISOString()}::timestamptz`,
        ),
      );
      this.set(row?.count ?? 0);
    },
  });
  new Gauge({
    name: 'marpe_reminders_missed_24h',
    help: 'Appointment reminders marked missed (not sent in time) in the last 24 hours',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ count: number }>(
        await db.execute(
          sql`SELECT count(*)::int AS count FROM appointment_reminders WHERE status = 'missed' AND settled_at > ${new Date(clock() - 86_400_000).toISOString()}::timestamptz`,
        ),
      );
      this.set(row?.count ?? 0);
    },
  });
  new Gauge({
    name: 'marpe_calendar_syncs',
    help: "Caregivers' synced Google Calendars by state (pending, syncing, read_only, no_access, not_found, error)",
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const rows = rowsOf<{ state: string; count: number }>(
        await db.execute(
          sql`SELECT state, count(*)::int AS count FROM calendar_syncs GROUP BY state`,
        ),
      );
      for (const state of ['pending', 'syncing', 'read_only', 'no_access', 'not_found', 'error']) {
        this.set({ state }, rows.find((r) => r.state === state)?.count ?? 0);
      }
    },
  });
  new Gauge({
    name: 'marpe_calendar_sync_lag_seconds',
    help: 'How long since the least recently synced calendar was last read in full or in part (its mirror can be this stale)',
    registers: [registry],
    async collect() {
      const [row] = rowsOf<{ oldest: string | null }>(
        await db.execute(sql`SELECT min(last_synced_at) AS oldest FROM calendar_syncs`),
      );
      this.set(seconds(row?.oldest ?? null));
    },
  });
  if (database.poolStats) {
    const poolStats = database.poolStats;
    new Gauge({
      name: 'marpe_db_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and clients waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  // The two outbox gauges share one query per scrape.
  let outboxQuery: Promise<Map<string, { pending: number; oldest: string | null }>> | null = null;
  function outboxStats() {
    outboxQuery ??= (async () => {
      try {
        const rows = rowsOf<{ lane: string; pending: number; oldest: string | null }>(
          await db.execute(sql`
            SELECT lane, count(*)::int AS pending,
              min(created_at) FILTER (WHERE attempts > 0 OR next_attempt_at <= ${new Date(clock()).toISOString()}::timestamptz) AS oldest
            FROM outbox WHERE status = 'pending' GROUP BY lane`),
        );
        return new Map(rows.map((row) => [row.lane, row]));
      } finally {
        // Read again at the next scrape, not within this one.
        setImmediate(() => {
          outboxQuery = null;
        });
      }
    })();
    return outboxQuery;
  }

  return {
    registry,
    observeRequest(route, method, statusCode, duration) {
      const statusClass = `${Math.floor(statusCode / 100)}xx`;
      httpDuration.observe({ route, method, status_class: statusClass }, duration);
    },
    observeOutbox({ topic, outcome }) {
      if (outcome === 'retry') outboxFailures.inc({ topic });
      else if (outcome === 'failed') {
        outboxFailures.inc({ topic });
        outboxDead.inc({ topic });
      } else if (outcome === 'sent' || outcome === 'expired') outboxDone.inc({ topic, outcome });
    },
    observeSmsReceipt({ provider, state }) {
      smsReceipts.inc({ provider, state });
    },
    observeCalendarServerFault() {
      calendarServerFaults.inc();
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  return safeEqual(given, token);
}

/**
 * METRICS_PORT: `/metrics` on a port of its own (kept off the public proxy), with the token too
 * when METRICS_TOKEN is set. Resolves once listening.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { host: string; port: number; token: string | null },
): Promise<Server> {
  // Configuration refuses this already (platform/config.ts); kept here so no caller can open it.
  if (!options.token && !isLoopbackHost(options.host)) {
    throw new Error(
      `/metrics on ${options.host}, not a loopback address, needs METRICS_TOKEN (METRICS_PORT listens on HOST)`,
    );
  }
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (options.token && !hasMetricsToken(request.headers.authorization, options.token)) {
      response
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('Unauthorized\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * Times every answered request by its route's pattern (`/api/appointment/:id`, never the path
 * with its ids or tokens; `none` when no route matched), and with a token serves `GET /metrics`
 * on the app's own port. Before the routes, so that every one is timed.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  options: { token: string | null },
): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.routeOptions.url ?? 'none',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  const { token } = options;
  if (!token) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!hasMetricsToken(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .type('text/plain')
        .send('Unauthorized\n');
    }
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
}
