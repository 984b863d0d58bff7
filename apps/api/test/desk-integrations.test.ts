import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ApiKey,
  AuditLogEntry,
  CalendarFeedCreated,
  CalendarFeedState,
  CreatedApiKey,
  IntegrationCaregiver,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { clinics, webhookDeliveries } from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Caller = { key: string } | { desk: { cookies: Record<string, string>; accountId: number } };
type Issues = { code: string; details?: { issues?: { path: string }[] } };

describe.each(engines)("the desk's integrations page: the clinic API it calls (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let owner: Caller & { desk: { accountId: number } };
  let frontDesk: Caller;
  let otherOwner: Caller;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  /** A call to `/api/integration…` by a key or by a desk session (as the desk's browser sends it). */
  const call = (caller: Caller, method: Method, url: string, payload?: object) =>
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

  beforeEach(async () => {
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת החיבורים'), clinicRow('מרפאה אחרת')])
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

  async function createEndpoint(caller: Caller, url = 'http://127.0.0.1:9/hook') {
    const response = await call(caller, 'POST', '/webhooks', { url, events: [] });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WebhookEndpointWithSecret>();
  }

  async function createCaregiver(caller: Caller, name: string) {
    const type = await call(caller, 'POST', '/appointment-types', {
      name: 'בדיקה',
      duration_minutes: 30,
    });
    expect(type.statusCode, type.body).toBe(201);
    const response = await call(caller, 'POST', '/caregivers', {
      name,
      license_number: '12345',
      appointment_type_ids: [type.json<{ id: number }>().id],
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationCaregiver>();
  }

  /** Payment events to the clinic's endpoints, one transaction each (one delivery per endpoint). */
  async function emit(count: number, clinic = clinicId) {
    for (let i = 0; i < count; i++) {
      await db.transaction((tx) =>
        app.webhooks.emit(tx, { clinicId: clinic, type: 'payment.succeeded', data: PAYMENT }),
      );
    }
  }

  const auditActions = async (caller: Caller, action: string) =>
    (await call(caller, 'GET', `/audit-log?action=${action}`)).json<AuditLogEntry[]>();

  describe('API keys', () => {
    it('an owner creates a key in the desk: shown once, it works as a bearer key, audited', async () => {
      const response = await call(owner, 'POST', '/api-keys', { name: '  תוכנת המרפאה  ' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const created = response.json<CreatedApiKey>();
      expect(created).toMatchObject({
        name: 'תוכנת המרפאה',
        last_used_at: null,
        revoked_at: null,
      });
      expect(created.key).toMatch(/^mrp_[\w-]{43}$/);
      expect(created.key.startsWith(created.prefix)).toBe(true);

      // The new key is a key of this clinic.
      const listed = await call({ key: created.key }, 'GET', '/api-keys');
      expect(listed.statusCode).toBe(200);
      const keys = listed.json<ApiKey[]>();
      expect(keys.map((k) => k.name)).toEqual(['pms', 'תוכנת המרפאה']);
      // Never the key itself again.
      expect(listed.body).not.toContain(created.key);

      const [entry] = await auditActions(owner, 'api_key.create');
      expect(entry).toMatchObject({
        actor: `staff:${owner.desk.accountId}`,
        target_id: String(created.id),
      });

      // Revoked from the desk: refused at once.
      const revoked = await call(owner, 'DELETE', `/api-keys/${created.id}`);
      expect(revoked.statusCode).toBe(204);
      expect((await call({ key: created.key }, 'GET', '/api-keys')).statusCode).toBe(401);
    });

    it('names are checked, and a key cannot create keys', async () => {
      for (const name of ['', '   ', 'x'.repeat(101)]) {
        const response = await call(owner, 'POST', '/api-keys', { name });
        expect(response.statusCode, name).toBe(400);
        const body = response.json<Issues>();
        expect(body.details?.issues?.map((i) => i.path)).toEqual(['name']);
      }
      expect((await call(owner, 'POST', '/api-keys', { name: 'a\u0000b' })).statusCode).toBe(400);
      expect((await call(owner, 'POST', '/api-keys', {})).statusCode).toBe(400);
      const byKey = await call({ key }, 'POST', '/api-keys', { name: 'successor' });
      expect(byKey.statusCode).toBe(403);
      expect(byKey.json<Issues>().code).toBe('forbidden');
      const names = (await call(owner, 'GET', '/api-keys')).json<ApiKey[]>().map((k) => k.name);
      expect(names).toEqual(['pms']);
    });
  });

  it('front desk is refused every route of the page', async () => {
    const endpoint = await createEndpoint({ key });
    const caregiver = await createCaregiver({ key }, 'ד"ר דנה');
    const refused: [Method, string, object?][] = [
      ['GET', '/api-keys'],
      ['POST', '/api-keys', { name: 'mine' }],
      ['DELETE', '/api-keys/1'],
      ['GET', '/webhooks'],
      ['POST', '/webhooks', { url: 'http://127.0.0.1:9/x' }],
      ['PATCH', `/webhooks/${endpoint.id}`, { rotate_secret: true }],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['GET', '/webhook-deliveries'],
      ['GET', `/caregivers/${caregiver.id}/calendar-feed`],
      ['POST', `/caregivers/${caregiver.id}/calendar-feed`],
      ['DELETE', `/caregivers/${caregiver.id}/calendar-feed`],
    ];
    for (const [method, url, body] of refused) {
      const response = await call(frontDesk, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    // Nothing changed.
    expect((await call(owner, 'GET', '/api-keys')).json<ApiKey[]>()).toHaveLength(1);
    expect((await call(owner, 'GET', '/webhooks')).json<WebhookEndpoint[]>()).toHaveLength(1);
  });

  describe('webhooks', () => {
    it('an owner adds an endpoint and rotates its secret, each shown once and audited', async () => {
      const endpoint = await createEndpoint(owner);
      expect(endpoint.secret).toMatch(/^whsec_/);
      const listed = await call(owner, 'GET', '/webhooks');
      expect(listed.body).not.toContain(endpoint.secret);

      const rotated = await call(owner, 'PATCH', `/webhooks/${endpoint.id}`, {
        rotate_secret: true,
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const secret = rotated.json<WebhookEndpointWithSecret>().secret;
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(endpoint.secret);
      const [entry] = await auditActions(owner, 'webhook_endpoint.update');
      expect(entry).toMatchObject({
        actor: `staff:${owner.desk.accountId}`,
        details: { secret_rotated: true },
      });
      expect(JSON.stringify(entry)).not.toContain(secret);
    });

    it('the delivery log pages on with `before`, filtered by endpoint and state', async () => {
      const first = await createEndpoint(owner, 'http://127.0.0.1:9/a');
      await emit(3);
      const second = await createEndpoint(owner, 'http://127.0.0.1:9/b');
      await emit(2);
      // 3 to the first; then 2 to each.
      const all = (await call(owner, 'GET', '/webhook-deliveries')).json<WebhookDelivery[]>();
      expect(all).toHaveLength(7);
      const ids = all.map((d) => d.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      const pages: number[][] = [];
      let before: number | undefined;
      for (;;) {
        const query = `limit=3${before === undefined ? '' : `&before=${before}`}`;
        const response = await call(owner, 'GET', `/webhook-deliveries?${query}`);
        expect(response.statusCode, response.body).toBe(200);
        const page = response.json<WebhookDelivery[]>().map((d) => d.id);
        if (page.length === 0) break;
        pages.push(page);
        before = page.at(-1);
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(ids);

      const toFirst = await call(owner, 'GET', `/webhook-deliveries?endpoint_id=${first.id}`);
      expect(toFirst.json<WebhookDelivery[]>().map((d) => d.endpoint_id)).toEqual(
        Array(5).fill(first.id),
      );
      const failedId = all.find((d) => d.endpoint_id === second.id)?.id ?? 0;
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'The endpoint answered 500' })
        .where(eq(webhookDeliveries.id, failedId));
      const failed = await call(owner, 'GET', '/webhook-deliveries?status=failed');
      expect(failed.json<WebhookDelivery[]>().map((d) => d.id)).toEqual([failedId]);
      // A cursor past every id lists from the newest.
      const far = await call(owner, 'GET', '/webhook-deliveries?before=99999999999&limit=1');
      expect(far.statusCode).toBe(200);
      expect(far.json<WebhookDelivery[]>().map((d) => d.id)).toEqual([ids[0]]);
      const bad = await call(owner, 'GET', '/webhook-deliveries?before=0');
      expect(bad.statusCode).toBe(400);
    });
  });

  it('calendar feeds: made, rotated and revoked by an owner; the URL shown once', async () => {
    const caregiver = await createCaregiver(owner, 'ד"ר דנה');
    const none = await call(owner, 'GET', `/caregivers/${caregiver.id}/calendar-feed`);
    expect(none.json<CalendarFeedState>()).toMatchObject({ active: false, created_at: null });
    const made = await call(owner, 'POST', `/caregivers/${caregiver.id}/calendar-feed`);
    expect(made.statusCode).toBe(201);
    const url = made.json<CalendarFeedCreated>().url;
    const path = new URL(url).pathname;
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const state = await call(owner, 'GET', `/caregivers/${caregiver.id}/calendar-feed`);
    expect(state.json<CalendarFeedState>()).toMatchObject({ active: true });
    expect(state.body).not.toContain(path.split('/').at(-1));

    const rotated = await call(owner, 'POST', `/caregivers/${caregiver.id}/calendar-feed`);
    const newPath = new URL(rotated.json<CalendarFeedCreated>().url).pathname;
    expect(newPath).not.toBe(path);
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: newPath })).statusCode).toBe(200);

    expect(
      (await call(owner, 'DELETE', `/caregivers/${caregiver.id}/calendar-feed`)).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'GET', url: newPath })).statusCode).toBe(404);
    const actions = (await call(owner, 'GET', '/audit-log?action=calendar_feed.')).json<
      AuditLogEntry[]
    >();
    expect(actions.map((a) => [a.action, a.actor])).toEqual([
      ['calendar_feed.revoke', `staff:${owner.desk.accountId}`],
      ['calendar_feed.create', `staff:${owner.desk.accountId}`],
      ['calendar_feed.create', `staff:${owner.desk.accountId}`],
    ]);
  });

  it("two clinics: neither sees nor touches the other's keys, webhooks, deliveries or feeds", async () => {
    const created = (
      await call(owner, 'POST', '/api-keys', { name: 'שלנו' })
    ).json<CreatedApiKey>();
    const endpoint = await createEndpoint(owner);
    await emit(2);
    const caregiver = await createCaregiver(owner, 'ד"ר דנה');
    await call(owner, 'POST', `/caregivers/${caregiver.id}/calendar-feed`);

    for (const other of [otherOwner, { key: otherKey }]) {
      const keys = (await call(other, 'GET', '/api-keys')).json<ApiKey[]>();
      expect(keys.map((k) => k.id)).not.toContain(created.id);
      expect((await call(other, 'GET', '/webhooks')).json<WebhookEndpoint[]>()).toEqual([]);
      expect((await call(other, 'GET', '/webhook-deliveries')).json<WebhookDelivery[]>()).toEqual(
        [],
      );
      expect(
        (await call(other, 'GET', `/webhook-deliveries?endpoint_id=${endpoint.id}`)).statusCode,
      ).toBe(404);
      expect((await call(other, 'DELETE', `/api-keys/${created.id}`)).statusCode).toBe(404);
      expect(
        (await call(other, 'PATCH', `/webhooks/${endpoint.id}`, { rotate_secret: true }))
          .statusCode,
      ).toBe(404);
      expect((await call(other, 'DELETE', `/webhooks/${endpoint.id}`)).statusCode).toBe(404);
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await call(other, method, `/caregivers/${caregiver.id}/calendar-feed`);
        expect(response.statusCode, method).toBe(404);
      }
    }
    // Still there for their own clinic.
    expect(
      (await call({ key: created.key }, 'GET', '/webhooks')).json<WebhookEndpoint[]>(),
    ).toHaveLength(1);
    expect(
      (
        await call(owner, 'GET', `/caregivers/${caregiver.id}/calendar-feed`)
      ).json<CalendarFeedState>().active,
    ).toBe(true);
    // A key made by the other clinic's owner is theirs alone.
    const theirs = (
      await call(otherOwner, 'POST', '/api-keys', { name: 'שלהם' })
    ).json<CreatedApiKey>();
    expect((await call({ key: theirs.key }, 'GET', '/webhooks')).json<WebhookEndpoint[]>()).toEqual(
      [],
    );
  });
});
