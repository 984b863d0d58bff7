import { devMessagesSchema } from '@marpe/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { createHttpSmsProvider } from '../src/modules/messaging/http-sms-provider.js';
import { outbox } from '../src/platform/db/schema.js';
import { engines, testConfig, testDataKey, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback } from './loopback.js';

const NOW = Date.parse('2027-01-10T10:00:00Z');
const TOKEN = 'gw-token-7f3a';

/** A loopback SMS gateway that records each request and answers the statuses it is given. */
async function startFakeGateway() {
  const statuses: number[] = [];
  let hang = false;
  const gateway = await startLoopback(() => {
    if (hang) return null;
    const status = statuses.shift() ?? 200;
    return { status, body: status < 300 ? { id: 'msg-1' } : { error: 'unavailable' } };
  });
  return {
    ...gateway,
    statuses,
    setHang(value: boolean) {
      hang = value;
    },
    reset() {
      gateway.reset();
      statuses.length = 0;
      hang = false;
    },
  };
}

type FakeGateway = Awaited<ReturnType<typeof startFakeGateway>>;

let gateway: FakeGateway;
beforeAll(async () => {
  gateway = await startFakeGateway();
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(() => {
  gateway.reset();
});

const productionSms = () => ({
  DEMO: 'false',
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: `${gateway.origin}/v1/messages?account=marpe`,
  SMS_HTTP_TOKEN: TOKEN,
  SMS_SENDER: 'Marpe',
});

describe('HTTP SMS provider', () => {
  it('throws on a gateway that does not answer in time, naming no recipient or text', async () => {
    gateway.setHang(true);
    const provider = createHttpSmsProvider({
      url: `${gateway.origin}/sms`,
      token: TOKEN,
      sender: 'Marpe',
      timeoutMs: 100,
    });
    const sent = provider.send({ to: '0521234567', body: 'code 111222' });
    await expect(sent).rejects.toThrow('SMS gateway unreachable: no answer in time');
  });

  it('throws when the gateway cannot be reached', async () => {
    const closed = await startFakeGateway();
    await closed.close();
    const provider = createHttpSmsProvider({ url: closed.origin, token: TOKEN, sender: 'Marpe' });
    await expect(provider.send({ to: '0521234567', body: 'x' })).rejects.toThrow(
      'SMS gateway unreachable: ECONNREFUSED',
    );
  });

  it('refuses a recipient not stored as 05XXXXXXXX', async () => {
    const provider = createHttpSmsProvider({ url: gateway.origin, token: TOKEN, sender: 'Marpe' });
    await expect(provider.send({ to: '+972521234567', body: 'x' })).rejects.toThrow(
      'not a national Israeli mobile number',
    );
    expect(gateway.requests).toEqual([]);
  });
});

describe.each(engines)('messaging (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;

  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
  });

  const build = (env: Record<string, string> = {}) =>
    buildApp({
      config: testConfig(env),
      database: database.current.handle,
      dataKey: testDataKey,
      webDistDir: null,
      clock: () => now,
      // Tests run the outbox themselves (runOutbox) unless they kick it.
      outboxPollIntervalMs: 3600_000,
    });

  const outboxRows = () => database.current.handle.db.select().from(outbox).orderBy(outbox.id);
  const onlyRow = async () => {
    const [row, ...others] = await outboxRows();
    if (!row || others.length > 0) throw new Error('expected one outbox row');
    return row;
  };

  describe('with the HTTP provider (production)', () => {
    let app: App;
    beforeAll(async () => {
      app = await build(productionSms());
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    it('sends the exact request the gateway expects', async () => {
      await app.messaging.queueSms(database.current.handle.db, {
        to: '0501234567',
        body: 'קוד האימות שלך: 123456',
      });
      expect(await app.messaging.runOutbox()).toBe(1);

      expect(gateway.requests).toHaveLength(1);
      const [request] = gateway.requests;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/v1/messages?account=marpe');
      expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request?.body ?? '')).toEqual({
        from: 'Marpe',
        to: '+972501234567',
        text: 'קוד האימות שלך: 123456',
      });
      expect(await outboxRows()).toMatchObject([{ topic: 'sms', status: 'sent', payload: null }]);
    });

    it('delays a message through a gateway outage and delivers it exactly once', async () => {
      gateway.statuses.push(503, 503, 200);
      await database.current.handle.db.transaction(async (tx) => {
        await app.messaging.queueSms(tx, { to: '0541112233', body: 'code 654321' });
      });

      expect(await app.messaging.runOutbox()).toBe(1);
      let row = await onlyRow();
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: 'Error: SMS gateway answered 503',
      });
      expect(await app.messaging.runOutbox()).toBe(0);

      now = row.nextAttemptAt.getTime();
      expect(await app.messaging.runOutbox()).toBe(1);
      row = await onlyRow();
      expect(row).toMatchObject({ status: 'pending', attempts: 2 });

      now = row.nextAttemptAt.getTime();
      expect(await app.messaging.runOutbox()).toBe(1);
      expect(await outboxRows()).toMatchObject([{ status: 'sent', attempts: 3, payload: null }]);

      now += 24 * 3600_000;
      expect(await app.messaging.runOutbox()).toBe(0);
      expect(gateway.requests).toHaveLength(3);
      const bodies = gateway.requests.map((r) => JSON.parse(r.body) as unknown);
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(bodies[0]).toEqual({ from: 'Marpe', to: '+972541112233', text: 'code 654321' });
    });

    it('does not send a message whose transaction rolled back', async () => {
      await expect(
        database.current.handle.db.transaction(async (tx) => {
          await app.messaging.queueSms(tx, { to: '0501234567', body: 'code 000111' });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await app.messaging.runOutbox()).toBe(0);
      expect(gateway.requests).toEqual([]);
    });

    it('sends at once when kicked after the commit, without waiting for a poll', async () => {
      await app.messaging.queueSms(database.current.handle.db, {
        to: '0501234567',
        body: 'hello',
      });
      app.messaging.kick();
      await vi.waitFor(() => expect(gateway.requests).toHaveLength(1));
      await vi.waitFor(async () => expect(await outboxRows()).toMatchObject([{ status: 'sent' }]));
    });

    it('refuses a recipient that is not stored as 05XXXXXXXX', async () => {
      await expect(
        app.messaging.queueSms(database.current.handle.db, { to: '050-123-4567', body: 'x' }),
      ).rejects.toThrow('05XXXXXXXX');
      expect(await outboxRows()).toEqual([]);
    });

    it('has no /api/dev/messages outside demo mode', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/dev/messages' });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('in demo mode (log provider)', () => {
    let app: App;
    const printed: string[] = [];
    beforeAll(async () => {
      app = await build();
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });
    beforeEach(() => {
      printed.length = 0;
      vi.spyOn(console, 'log').mockImplementation((text: unknown) => {
        printed.push(String(text));
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('serves what was "sent", newest first, and prints each message', async () => {
      const empty = await app.inject({ method: 'GET', url: '/api/dev/messages' });
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual([]);

      const db = database.current.handle.db;
      await app.messaging.queueSms(db, { to: '0501234567', body: 'Your code: 111111' });
      expect(await app.messaging.runOutbox()).toBe(1);
      now += 60_000;
      await app.messaging.queueSms(db, { to: '0527654321', body: 'Your code: 222222' });
      expect(await app.messaging.runOutbox()).toBe(1);

      const response = await app.inject({ method: 'GET', url: '/api/dev/messages' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const messages = devMessagesSchema.parse(response.json());
      expect(messages.slice(0, 2)).toEqual([
        {
          to: '0527654321',
          body: 'Your code: 222222',
          channel: 'sms',
          created_at: new Date(NOW + 60_000).toISOString(),
        },
        {
          to: '0501234567',
          body: 'Your code: 111111',
          channel: 'sms',
          created_at: new Date(NOW).toISOString(),
        },
      ]);
      expect(printed).toHaveLength(2);
      expect(printed[1]).toContain('0527654321');
      expect(printed[1]).toContain('Your code: 222222');
      expect(await outboxRows()).toMatchObject([
        { status: 'sent', payload: null },
        { status: 'sent', payload: null },
      ]);
    });

    it('answers /api/dev/* only to this machine: a loopback Host and no proxy header', async () => {
      const get = (headers: Record<string, string>) =>
        app.inject({ method: 'GET', url: '/api/dev/messages', headers });
      for (const host of [
        'localhost:3000',
        '127.0.0.1',
        '127.0.0.2:8080',
        '[::1]:3000',
        'a.localhost',
      ]) {
        expect((await get({ host })).statusCode, host).toBe(200);
      }
      // A reverse proxy on the same host connects from loopback: its headers give it away.
      for (const headers of [
        { host: 'marpe.example.com' },
        { host: '10.0.0.5:3000' },
        { host: 'localhost.example.com' },
        { host: 'localhost:3000', 'x-forwarded-for': '203.0.113.9' },
        { host: 'localhost:3000', 'x-forwarded-host': 'marpe.example.com' },
        { host: 'localhost:3000', 'x-forwarded-proto': 'https' },
        { host: '127.0.0.1:3000', forwarded: 'for=203.0.113.9;host=marpe.example.com' },
      ] as Record<string, string>[]) {
        const response = await get(headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(404);
        expect(response.json()).toMatchObject({ code: 'not_found' });
      }
      const xsrf = await xsrfPair(app);
      const links = await app.inject({
        method: 'POST',
        url: '/api/dev/demo-links',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, host: 'localhost:3000', 'x-forwarded-for': '203.0.113.9' },
      });
      expect(links.statusCode).toBe(404);
    });

    it('does not record an expired message', async () => {
      const before = (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json<
        unknown[]
      >().length;
      await app.messaging.queueSms(database.current.handle.db, {
        to: '0501234567',
        body: 'late',
        expiresAt: new Date(now - 1),
      });
      expect(await app.messaging.runOutbox()).toBe(1);
      const after = (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json<
        unknown[]
      >();
      expect(after).toHaveLength(before);
      expect(printed).toEqual([]);
      expect(await outboxRows()).toMatchObject([{ status: 'expired', payload: null }]);
    });
  });
});
