import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import {
  authChallenges,
  messageDeliveries,
  outbox,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/platform/db/schema.js';
import { createRetention } from '../src/platform/retention.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase } from './helper.js';

const DAY = 86_400_000;
const NOW = Date.parse('2027-03-24T10:00:00Z');
const ago = (days: number) => new Date(NOW - days * DAY);

describe.each(engines)('retention (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let clinicId: number;

  beforeAll(async () => {
    // The defaults: 30 days, 90 for given-up rows.
    app = await buildTestApp(database.current.handle, { config: testConfig(), clock: () => NOW });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await database.current.reset();
    [clinicId] = await insertClinics(db, ['מרפאת השמירה']);
  });

  /** An outbox row `days` old, in the given state. */
  const outboxRow = (status: 'pending' | 'sent' | 'expired' | 'failed', days: number) => ({
    topic: `${status}-${days}`,
    status,
    payload: status === 'pending' ? 'sealed' : null,
    nextAttemptAt: ago(days),
    createdAt: ago(days),
    processedAt: status === 'pending' ? null : ago(days),
  });

  it('prunes rows past the retention, keeps recent, pending and given-up ones longer', async () => {
    await db
      .insert(outbox)
      .values([
        outboxRow('sent', 31),
        outboxRow('expired', 45),
        outboxRow('sent', 29),
        outboxRow('pending', 200),
        outboxRow('failed', 60),
        outboxRow('failed', 91),
      ]);
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({ clinicId, url: 'https://hooks.example.com/', secret: 'sealed' })
      .returning({ id: webhookEndpoints.id });
    const delivery = (status: 'pending' | 'delivered' | 'failed', days: number) => ({
      endpointId: endpoint?.id ?? 0,
      clinicId,
      eventId: `evt_${status}_${days}`,
      eventType: 'appointment.booked' as const,
      status,
      createdAt: ago(days),
    });
    await db
      .insert(webhookDeliveries)
      .values([
        delivery('delivered', 31),
        delivery('delivered', 2),
        delivery('pending', 40),
        delivery('failed', 60),
        delivery('failed', 100),
      ]);
    const challenge = (days: number) => ({
      tokenHash: `hash-${days}`,
      clinicId,
      purpose: 'login' as const,
      idNumber: '000000018',
      phone: '0501234567',
      codeHash: 'code',
      clientAddress: '127.0.0.1',
      createdAt: ago(days),
      expiresAt: new Date(ago(days).getTime() + 600_000),
    });
    await db.insert(authChallenges).values([challenge(40), challenge(0)]);
    const sms = (id: string, days: number, fallback: string | null) => ({
      provider: 'twilio' as const,
      providerMessageId: id,
      clinicId,
      kind: 'reminder',
      state: 'sent' as const,
      fallback,
      createdAt: ago(days),
      updatedAt: ago(days),
    });
    await db
      .insert(messageDeliveries)
      .values([sms('SM31', 31, null), sms('SM3', 3, 'sealed'), sms('SM1', 1, 'sealed')]);

    expect(await app.retention.runOnce()).toEqual({
      outbox: 3,
      webhook_deliveries: 2,
      auth_challenges: 1,
      connection_tokens: 0,
      message_deliveries: 1,
      'webhook_endpoints.previous_secret': 0,
      'message_deliveries.fallback': 1,
    });
    // A fallback waits 48 hours for the SMS's receipt, then its text goes; the state stays.
    expect(
      await db
        .select({ id: messageDeliveries.providerMessageId, fallback: messageDeliveries.fallback })
        .from(messageDeliveries)
        .orderBy(messageDeliveries.id),
    ).toEqual([
      { id: 'SM3', fallback: null },
      { id: 'SM1', fallback: 'sealed' },
    ]);
    const left = await db.select({ topic: outbox.topic }).from(outbox).orderBy(outbox.id);
    expect(left.map((row) => row.topic)).toEqual(['sent-29', 'pending-200', 'failed-60']);
    const deliveries = await db
      .select({ eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .orderBy(webhookDeliveries.id);
    expect(deliveries.map((row) => row.eventId)).toEqual([
      'evt_delivered_2',
      'evt_pending_40',
      'evt_failed_60',
    ]);
    expect(await db.select({ tokenHash: authChallenges.tokenHash }).from(authChallenges)).toEqual([
      { tokenHash: 'hash-0' },
    ]);
    // Nothing more to do the second time.
    expect(Object.values((await app.retention.runOnce()) ?? {})).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('deletes in batches until nothing old is left, with the configured retention', async () => {
    await db.insert(outbox).values(Array.from({ length: 7 }, () => outboxRow('sent', 8)));
    await db.insert(outbox).values(outboxRow('sent', 6));
    const retention = createRetention({
      db,
      clock: () => NOW,
      log: app.log,
      days: 7,
      deadDays: 7,
      batch: 3,
    });
    expect(await retention.runOnce()).toMatchObject({ outbox: 7 });
    expect(await db.execute(sql`SELECT count(*)::int AS n FROM outbox`)).toMatchObject({
      rows: [{ n: 1 }],
    });
  });

  it.runIf(engine === 'postgres')('leaves the job to the process already doing it', async () => {
    await db.insert(outbox).values(outboxRow('sent', 31));
    // Another instance, mid-batch: it holds the job's lock in its transaction.
    const current = await db.execute(sql`SELECT current_database() AS name`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/${(current as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(7170923282)');
      expect(await app.retention.runOnce()).toBeNull();
      await other.query('COMMIT');
      expect(await app.retention.runOnce()).toMatchObject({ outbox: 1 });
    } finally {
      await other.end();
    }
  });
});
