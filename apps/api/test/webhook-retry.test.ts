import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AuditLogEntry,
  WebhookDelivery,
  WebhookEndpointWithSecret,
  WebhookRetryRefusal,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { decryptText, sealedAt, sealingKey } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import { clinics, outbox, webhookDeliveries } from '../src/platform/db/schema.js';
import { rotateDataKey } from '../src/platform/key-rotation.js';
import { OUTBOX_BACKOFF, OUTBOX_GIVE_UP_MS } from '../src/platform/outbox/outbox.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testDataKey, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback, type LoopbackRequest } from './loopback.js';
import { bearer, insertStaffSession } from './sessions.js';

const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const HOUR = 3_600_000;
const PAYMENT = {
  request_id: 7,
  amount: 100,
  status: 'paid' as const,
  response_code: '000',
  payments: 1,
  transaction_index: '41',
  verified: true,
};

type Caller = { key: string } | { desk: { cookies: Record<string, string>; accountId: number } };
type Refusal = { code: string; details?: { reason?: WebhookRetryRefusal } };

/** A receiver's Standard Webhooks check, the library reading the test's clock. */
function verifies(request: LoopbackRequest, secret: string, nowMs: number): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: nowMs });
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

/**
 * `POST /api/integration/webhook-deliveries/:id/retry`: a failed delivery (its body kept sealed
 * in its row until it is delivered) sent again through the outbox, as the desk's delivery log does.
 */
describe.each(engines)('retrying a failed webhook delivery (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let app: App;
  let db: Database;
  let receiver: Loopback;
  /** What the receiver answers. */
  let status = 500;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let owner: Caller & { desk: { accountId: number } };
  let frontDesk: Caller;
  let otherOwner: Caller;

  beforeAll(async () => {
    receiver = await startLoopback(() => ({ status, body: 'ok' }));
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      // The tests run the outbox themselves.
      outboxPollIntervalMs: HOUR,
      webhookTimeoutMs: 2000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  beforeEach(async () => {
    now = NOW;
    status = 500;
    receiver.reset();
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת הבדיקות'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(otherClinicId, 'pms', 'test')).key;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now: NOW }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now: NOW }) };
    otherOwner = {
      desk: await insertStaffSession(db, { clinicId: otherClinicId, role: 'owner', now: NOW }),
    };
  });

  const call = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...('key' in caller
        ? { headers: bearer(caller.key) }
        : {
            cookies: { ...xsrf.cookies, ...caller.desk.cookies },
            headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
          }),
    });
  const retry = (caller: Caller, id: number) =>
    call(caller, 'POST', `/webhook-deliveries/${id}/retry`);

  async function createEndpoint(path = '/hook') {
    const response = await call(owner, 'POST', '/webhooks', { url: receiver.url(path) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WebhookEndpointWithSecret>();
  }

  /** One payment event; resolves with its delivery's row id (one endpoint). */
  async function emitOne(): Promise<number> {
    await db.transaction((tx) =>
      app.webhooks.emit(tx, { clinicId, type: 'payment.succeeded', data: PAYMENT }),
    );
    const [row] = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .orderBy(webhookDeliveries.id)
      .limit(1)
      .offset((await db.$count(webhookDeliveries)) - 1);
    return row?.id ?? 0;
  }

  async function delivery(id: number) {
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (!row) throw new Error(`no delivery ${id}`);
    return row;
  }

  /** Fails as the service does when the outbox gives up on it. */
  const markFailed = (id: number) =>
    db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: 'The endpoint answered 500' })
      .where(eq(webhookDeliveries.id, id));

  it('sends a delivery that failed for good once more: same body and event id, signed with the current secret; then drops its body', async () => {
    await createEndpoint();
    const id = await emitOne();
    expect((await delivery(id)).body).toMatch(/^v2\./);

    // Tried, refused, then given up by the outbox 48 hours on.
    await app.outbox.runOnce('webhooks');
    now = NOW + OUTBOX_GIVE_UP_MS + OUTBOX_BACKOFF.maxMs;
    await app.outbox.runOnce('webhooks');
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(
      await db.select({ status: outbox.status, payload: outbox.payload }).from(outbox),
    ).toEqual([{ status: 'failed', payload: null }]);
    const [first] = receiver.requests;
    if (!first) throw new Error('not sent');

    // Two days on, the owner signs in again; the receiver is fixed, its secret replaced meanwhile.
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now }) };
    status = 200;
    const endpoint = (await call(owner, 'GET', '/webhooks')).json<{ id: number }[]>()[0];
    const rotated = await call(owner, 'PATCH', `/webhooks/${endpoint?.id}`, {
      rotate_secret: true,
    });
    const secret = rotated.json<WebhookEndpointWithSecret>().secret ?? '';

    const response = await retry(owner, id);
    expect(response.statusCode, response.body).toBe(200);
    const retried = response.json<WebhookDelivery>();
    expect(retried).toMatchObject({
      id,
      status: 'pending',
      attempts: 2,
      event_id: first.headers['webhook-id'],
    });
    const [entry] = (await call(owner, 'GET', '/audit-log?action=webhook_delivery.retry')).json<
      AuditLogEntry[]
    >();
    expect(entry).toMatchObject({
      actor: `staff:${owner.desk.accountId}`,
      target_type: 'webhook_delivery',
      target_id: String(id),
      details: { endpoint_id: endpoint?.id, event_id: retried.event_id },
    });

    await vi.waitFor(async () => {
      await app.outbox.runOnce('webhooks');
      expect((await delivery(id)).status).toBe('delivered');
    });
    expect(receiver.requests).toHaveLength(3);
    const last = receiver.requests[2];
    if (!last) throw new Error('not sent again');
    expect(last.body).toBe(first.body);
    expect(last.headers['webhook-id']).toBe(retried.event_id);
    expect(JSON.parse(last.body)).toMatchObject({ id: retried.event_id, data: PAYMENT });
    expect(verifies(last, secret, now)).toBe(true);
    expect(await delivery(id)).toMatchObject({ status: 'delivered', attempts: 3, body: null });

    // Delivered: nothing to retry.
    const again = await retry(owner, id);
    expect(again.statusCode).toBe(409);
    expect(again.json<Refusal>()).toMatchObject({
      code: 'conflict',
      details: { reason: 'not_failed' },
    });
  });

  it('retries a delivery failed while its endpoint was paused, once it is resumed (its outbox row long gone)', async () => {
    const endpoint = await createEndpoint();
    const id = await emitOne();
    await call(owner, 'PATCH', `/webhooks/${endpoint.id}`, { is_active: false });
    await app.outbox.runOnce('webhooks');
    expect(await delivery(id)).toMatchObject({
      status: 'failed',
      lastError: 'The endpoint was deactivated',
    });
    // The outbox row was done with, its payload erased: only the delivery keeps the body.
    expect(
      await db.select({ status: outbox.status, payload: outbox.payload }).from(outbox),
    ).toEqual([{ status: 'sent', payload: null }]);

    const paused = await retry({ key }, id);
    expect(paused.statusCode).toBe(409);
    expect(paused.json<Refusal>().details?.reason).toBe('endpoint_paused');
    expect((await delivery(id)).status).toBe('failed');

    await call(owner, 'PATCH', `/webhooks/${endpoint.id}`, { is_active: true });
    status = 200;
    // An API key may retry too (the webhooks are an owner's, and the integration's).
    expect((await retry({ key }, id)).statusCode).toBe(200);
    await vi.waitFor(async () => {
      await app.outbox.runOnce('webhooks');
      expect((await delivery(id)).status).toBe('delivered');
    });
    expect(receiver.requests).toHaveLength(1);
    expect(verifies(receiver.requests[0] as LoopbackRequest, endpoint.secret ?? '', now)).toBe(
      true,
    );
  });

  it('refuses what cannot be retried, and changes nothing', async () => {
    await createEndpoint();
    const pending = await emitOne();
    const failed = await emitOne();
    await markFailed(failed);
    const queued = await db.$count(outbox);

    const refusals: [Caller, number, number, string?][] = [
      [owner, pending, 409, 'not_failed'],
      [owner, 99_999, 404],
      // Another clinic's: as if it did not exist.
      [otherOwner, failed, 404],
      [{ key: otherKey }, failed, 404],
      // Front desk: owners only.
      [frontDesk, failed, 403],
    ];
    for (const [caller, id, code, reason] of refusals) {
      const response = await retry(caller, id);
      expect(response.statusCode, `${id} ${response.body}`).toBe(code);
      if (reason) expect(response.json<Refusal>().details?.reason).toBe(reason);
    }
    expect((await retry(owner, 0)).statusCode).toBe(400);

    // One that failed before bodies were kept.
    await db.update(webhookDeliveries).set({ body: null }).where(eq(webhookDeliveries.id, failed));
    const gone = await retry(owner, failed);
    expect(gone.statusCode).toBe(409);
    expect(gone.json<Refusal>().details?.reason).toBe('body_gone');

    expect(await db.$count(outbox)).toBe(queued);
    expect((await delivery(failed)).status).toBe('failed');
    expect((await delivery(pending)).status).toBe('pending');
    expect(
      (await call(owner, 'GET', '/audit-log?action=webhook_delivery.retry')).json<unknown[]>(),
    ).toEqual([]);
  });

  it('seals the kept body to its row, and a DATA_KEY rotation re-encrypts it', async () => {
    await createEndpoint();
    const id = await emitOne();
    await markFailed(id);
    const sealed = (await delivery(id)).body ?? '';
    const at = sealedAt('webhook_deliveries', 'body', id);
    const body = decryptText(sealingKey(testDataKey, 'webhooks'), sealed, at);
    expect(JSON.parse(body)).toMatchObject({ type: 'payment.succeeded', data: PAYMENT });

    const newKey = randomBytes(32);
    const results = await rotateDataKey(db, { current: newKey, previous: [testDataKey] });
    expect(results.find((r) => r.table === 'webhook_deliveries')).toMatchObject({
      column: 'body',
      rotated: 1,
    });
    const rotated = (await delivery(id)).body ?? '';
    expect(rotated).not.toBe(sealed);
    expect(decryptText(sealingKey(newKey, 'webhooks'), rotated, at)).toBe(body);
  });
});
