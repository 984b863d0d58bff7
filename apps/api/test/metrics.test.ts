import { withIdCheckDigit } from '@marpe/shared';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { webhookEndpoints } from '../src/platform/db/schema.js';
import { startMetricsServer } from '../src/platform/metrics.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { insertCaregiver, insertClinics, insertTypes } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer, insertLoggedInPatients } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const TOKEN = 'metrics-token-0123456789';
const NEWCOMER = { idNumber: withIdCheckDigit('12345678'), phone: '0521234567' };

/** The value of one series in the exposition text (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe.each(engines)('metrics (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let gateway: Loopback;
  let now = NOW;

  beforeAll(async () => {
    // An SMS gateway and a webhook receiver that both fail.
    gateway = await startLoopback(() => ({ status: 500, body: 'down' }));
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        METRICS_TOKEN: TOKEN,
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: `${gateway.origin}/sms`,
        SMS_HTTP_TOKEN: 'gateway-token',
        SMS_SENDER: 'Marpe',
      }),
      clock: () => now,
      outboxPollIntervalMs: 3_600_000,
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });

  const scrape = async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('refuses a scrape without the token, or with another', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ]) {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('marpe_');
    }
  });

  it('moves with a booking, a failed webhook and a stuck SMS', async () => {
    const [clinicId] = await insertClinics(db, ['מרפאת המדדים']);
    const [typeId] = await insertTypes(db, [{ clinicId, name: 'בדיקה', durationMinutes: 30 }]);
    const caregiverId = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      typeIds: [typeId],
      hours: [0, 1, 2, 3, 4].map((weekDay) => ({ weekDay, startTime: '08:00', endTime: '16:00' })),
    });
    const { key } = await app.apiKeys.create(clinicId, 'pms', 'cli');
    const endpoint = await app.inject({
      method: 'POST',
      url: '/api/integration/webhooks',
      headers: bearer(key),
      payload: { url: `${gateway.origin}/hook`, events: ['appointment.booked'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);

    const before = await scrape();
    const booked =
      'marpe_http_request_duration_seconds_count{route="/api/appointment",method="POST",status_class="2xx"}';
    expect(value(before, booked)).toBe(0);

    const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    const xsrf = await xsrfPair(app);
    const start = zonedToEpoch('2027-03-28 09:00', TZ);
    const response = await app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient?.token ?? '') },
      payload: {
        clinicId,
        caregiverId,
        appointmentTypeId: typeId,
        startDate: formatZonedIso(start, TZ),
        endDate: formatZonedIso(start + 30 * MINUTE, TZ),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    // A login code, which the gateway refuses: it stays in the codes lane.
    const login = await app.inject({
      method: 'POST',
      url: '/api/patient-auth/sign-up',
      cookies: xsrf.cookies,
      headers: xsrf.headers,
      payload: { clinicId, firstName: 'נועה', lastName: 'כהן', ...NEWCOMER },
    });
    expect(login.statusCode, login.body).toBe(200);
    // The kicks after each tried the webhook and the code; both failed.
    await app.outbox.runOnce();
    now += 5 * MINUTE;

    const after = await scrape();
    expect(value(after, booked)).toBe(1);
    expect(value(after, 'marpe_outbox_attempt_failures_total{topic="sms"}')).toBeGreaterThan(0);
    expect(value(after, 'marpe_outbox_attempt_failures_total{topic="webhook"}')).toBeGreaterThan(0);
    // The code and the webhook are still waiting, five minutes on.
    expect(value(after, 'marpe_outbox_pending{lane="codes"}')).toBe(1);
    expect(value(after, 'marpe_outbox_pending{lane="webhooks"}')).toBe(1);
    expect(value(after, 'marpe_outbox_oldest_pending_seconds{lane="codes"}')).toBe(300);
    expect(value(after, 'marpe_outbox_pending{lane="default"}')).toBe(0);
    expect(value(after, 'marpe_outbox_oldest_pending_seconds{lane="default"}')).toBe(0);
    // Routes by pattern: no patient's id or token in a label. Labels only: a value's digits
    // (a duration of 0.1373438900000001 s) may spell anything.
    const labels = [...after.matchAll(/\{[^}]*\}/g)].map((m) => m[0]).join('\n');
    expect(labels).toContain('route="/api/appointment"');
    expect(labels).not.toContain(String(patient?.idNumber));
    expect(labels).not.toContain(NEWCOMER.idNumber);
    expect(labels).not.toContain(NEWCOMER.phone);
    expect(after).toMatch(/nodejs_eventloop_lag_seconds \d/);
    if (engine === 'postgres') {
      expect(value(after, 'marpe_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    } else {
      expect(after).not.toContain('marpe_db_pool_connections');
    }

    // The receiver keeps failing: its breaker opens.
    expect(value(after, 'marpe_webhook_endpoints_breaker_open')).toBe(0);
    await db
      .update(webhookEndpoints)
      .set({ circuitOpenUntil: new Date(now + MINUTE), consecutiveFailures: 5 });
    expect(value(await scrape(), 'marpe_webhook_endpoints_breaker_open')).toBe(1);
  });

  it('is not on the main port when it has a port of its own', async () => {
    const separate = await buildTestApp(database.current.handle, {
      config: testConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }),
    });
    try {
      const response = await separate.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(separate.metrics).not.toBeNull();
    } finally {
      await separate.close();
    }
  });

  it('serves /metrics on a port of its own, with the token when one is set', async () => {
    if (!app.metrics) throw new Error('metrics are on with METRICS_TOKEN');
    const server = await startMetricsServer(app.metrics, {
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
    });
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      const scraped = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('marpe_outbox_pending{lane="codes"}');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts payments waiting for confirmation and reminders due or missed', async () => {
    const [clinicId] = await insertClinics(db, ['מרפאת התשלומים']);
    const base = await scrape();
    await db.execute(sql`
      INSERT INTO payment_requests (clinic_id, amount_agorot, terminal, token_hash, charge_ref, status, created_at, expires_at)
      VALUES (${clinicId}, 1000, 'demo', 'h1', 'r1', 'verifying', ${new Date(now - 3_600_000).toISOString()}, ${new Date(now + 3_600_000).toISOString()})`);
    const verifying = await scrape();
    expect(value(verifying, 'marpe_payments_verifying')).toBe(
      value(base, 'marpe_payments_verifying') + 1,
    );
    expect(value(verifying, 'marpe_payments_verifying_oldest_seconds')).toBe(0);
    expect(value(verifying, 'marpe_reminders_due')).toBe(0);
    expect(value(verifying, 'marpe_reminders_missed_24h')).toBe(0);
  });
});
