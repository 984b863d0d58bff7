// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { outbox as outboxTable } from '../src/platform/db/schema.js';
import {
  createOutbox,
  OUTBOX_GIVE_UP_MS,
  OUTBOX_BACKOFF,
  type OutboxOptions,
} from '../src/platform/outbox/outbox.js';
import type { OutboxHandler } from '../src/platform/outbox/outbox-contract.js';
import { engines, useTestDatabase } from './helper.js';
import { sealingKey } from '../src/platform/crypto.js';

const NOW = Date.parse('2027-01-10T10:00:00Z');
const SECRET_CODE = '482913';

interface LogLine {
  level: string;
  fields: unknown;
  message: unknown;
}

function fakeLogger(): { log: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: unknown, message?: unknown): void => {
      lines.push({ level, fields, message });
    };
  const log = {
    level: 'trace',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

describe.each(engines)('outbox (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const key = sealingKey(randomBytes(32), 'outbox');
  let now = NOW;

  const makeOutbox = (
    handlers: Record<string, OutboxHandler>,
    extra: Partial<OutboxOptions> = {},
  ) => {
    const { log, lines } = fakeLogger();
    const outbox = createOutbox({
      db: database.current.handle.db,
      key,
      clock: () => now,
      log,
      handlers,
      ...extra,
    });
    return { outbox, lines };
  };

  const rows = () => database.current.handle.db.select().from(outboxTable).orderBy(outboxTable.id);
  const onlyRow = async () => {
    const all = await rows();
    expect(all).toHaveLength(1);
    const [row] = all;
    if (!row) throw new Error('no outbox row');
    return row;
  };

  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
  });

  it('sends nothing when the enqueuing transaction rolls back', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ sms: handler });
    await expect(
      database.current.handle.db.transaction(async (tx) => {
        await outbox.enqueue(tx, { topic: 'sms', payload: { code: SECRET_CODE } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    expect(await outbox.runOnce()).toBe(0);
    expect(handler).not.toHaveBeenCalled();
    expect(await rows()).toEqual([]);
  });

  it('stores the payload encrypted, hands it over once, then erases it', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ sms: handler });
    const payload = { to: '0501234567', body: `Your code is ${SECRET_CODE}` };
    await database.current.handle.db.transaction(async (tx) => {
      await outbox.enqueue(tx, { topic: 'sms', payload });
    });

    const pending = await onlyRow();
    expect(pending).toMatchObject({
      topic: 'sms',
      status: 'pending',
      attempts: 0,
      createdAt: new Date(NOW),
      nextAttemptAt: new Date(NOW),
      processedAt: null,
    });
    expect(pending.payload).not.toContain(SECRET_CODE);
    expect(pending.payload).not.toContain('0501234567');

    now += 5;
    expect(await outbox.runOnce()).toBe(1);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith(payload, expect.objectContaining({ isLast: false }));
    expect(await onlyRow()).toMatchObject({
      status: 'sent',
      payload: null,
      attempts: 1,
      lockedUntil: null,
      processedAt: new Date(NOW + 5),
    });

    now += 3600_000;
    expect(await outbox.runOnce()).toBe(0);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('retries a failing handler later and later, and delivers once when it recovers', async () => {
    let failures = 3;
    const delivered: unknown[] = [];
    const handler = vi.fn<OutboxHandler>(async (payload) => {
      if (failures > 0) {
        failures -= 1;
        // A careless error text quoting the payload is not stored as is.
        throw new Error(`gateway down while sending ${SECRET_CODE}`);
      }
      delivered.push(payload);
    });
    // The backoff's draw pinned halfway: half of 1 s, 2 s, 4 s (platform/backoff.ts).
    const { outbox, lines } = makeOutbox({ sms: handler }, { random: () => 0.5 });
    await outbox.enqueue(database.current.handle.db, {
      topic: 'sms',
      payload: { code: SECRET_CODE },
    });

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await outbox.runOnce()).toBe(1);
      const row = await onlyRow();
      expect(row).toMatchObject({ status: 'pending', attempts: attempt, lockedUntil: null });
      expect(row.lastError).toBe('Error: gateway down while sending [redacted]');
      expect(row.payload).not.toBeNull();
      const delay = row.nextAttemptAt.getTime() - now;
      delays.push(delay);
      // Not due before its time.
      now += delay - 1;
      expect(await outbox.runOnce()).toBe(0);
      now += 1;
    }
    expect(delays).toEqual([500, 1000, 2000]);

    expect(await outbox.runOnce()).toBe(1);
    expect(delivered).toEqual([{ code: SECRET_CODE }]);
    expect(await onlyRow()).toMatchObject({ status: 'sent', payload: null, attempts: 4 });

    now += OUTBOX_GIVE_UP_MS;
    expect(await outbox.runOnce()).toBe(0);
    expect(handler).toHaveBeenCalledTimes(4);
    expect(JSON.stringify(lines)).not.toContain(SECRET_CODE);
  });

  it('does not send what expired, whether before the first try or between tries', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {
      throw new Error('gateway down');
    });
    const { outbox } = makeOutbox({ sms: handler });
    const db = database.current.handle.db;
    await outbox.enqueue(db, { topic: 'sms', payload: { n: 1 }, expiresAt: new Date(NOW) });
    await outbox.enqueue(db, { topic: 'sms', payload: { n: 2 }, expiresAt: new Date(NOW + 5000) });

    expect(await outbox.runOnce()).toBe(2);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith({ n: 2 }, expect.objectContaining({ isLast: false }));
    const [first, second] = await rows();
    expect(first).toMatchObject({ status: 'expired', payload: null, processedAt: new Date(NOW) });
    expect(second).toMatchObject({ status: 'pending', attempts: 1 });

    now += 5000;
    expect(await outbox.runOnce()).toBe(1);
    expect(handler).toHaveBeenCalledTimes(1);
    expect((await rows())[1]).toMatchObject({ status: 'expired', payload: null });
  });

  it('gives up 48 hours after the row was written, logging only its id and topic', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {
      throw new Error('gateway down');
    });
    const { outbox, lines } = makeOutbox({ sms: handler });
    await outbox.enqueue(database.current.handle.db, {
      topic: 'sms',
      payload: { code: SECRET_CODE },
    });

    expect(await outbox.runOnce()).toBe(1);
    now = NOW + OUTBOX_GIVE_UP_MS - 1;
    expect(await outbox.runOnce()).toBe(1);
    expect(await onlyRow()).toMatchObject({ status: 'pending', attempts: 2 });

    // The first failure from 48 hours on is the last.
    now = NOW + OUTBOX_GIVE_UP_MS + OUTBOX_BACKOFF.maxMs;
    expect(await outbox.runOnce()).toBe(1);
    const row = await onlyRow();
    expect(row).toMatchObject({
      status: 'failed',
      payload: null,
      attempts: 3,
      lastError: 'Error: gateway down',
      processedAt: new Date(now),
    });
    expect(lines.filter((l) => l.level === 'error')).toEqual([
      { level: 'error', fields: { outboxId: row.id, topic: 'sms' }, message: expect.any(String) },
    ]);

    now += OUTBOX_GIVE_UP_MS;
    expect(await outbox.runOnce()).toBe(0);
    expect(handler).toHaveBeenCalledTimes(3);
    // The handler knew which try was the last (webhook deliveries record it as failed).
    expect(handler.mock.calls.map(([, attempt]) => attempt.isLast)).toEqual([false, false, true]);
  });

  it('keeps a row of an unknown topic pending, for an instance that knows it', async () => {
    const { outbox: old } = makeOutbox({});
    await old.enqueue(database.current.handle.db, { topic: 'whatsapp', payload: { n: 1 } });
    expect(await old.runOnce()).toBe(1);
    const row = await onlyRow();
    expect(row).toMatchObject({
      status: 'pending',
      lastError: 'No handler for topic whatsapp',
      lockedUntil: null,
    });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(now);
    expect(row.payload).not.toBeNull();

    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox: upgraded } = makeOutbox({ whatsapp: handler });
    now = row.nextAttemptAt.getTime();
    expect(await upgraded.runOnce()).toBe(1);
    expect(handler).toHaveBeenCalledWith({ n: 1 }, expect.objectContaining({ isLast: false }));
    expect(await onlyRow()).toMatchObject({ status: 'sent', payload: null });
  });

  it('works each lane on its own: a hanging lane does not hold another', async () => {
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hooks = vi.fn<OutboxHandler>(() => hanging);
    const codes = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ hook: hooks, sms: codes }, { concurrency: { webhooks: 3 } });
    const db = database.current.handle.db;
    for (let n = 0; n < 5; n++) {
      await outbox.enqueue(db, { topic: 'hook', payload: { n }, lane: 'webhooks' });
    }
    const webhookRun = outbox.runOnce('webhooks');
    await vi.waitFor(() => expect(hooks).toHaveBeenCalledTimes(3), { timeout: 10_000 });

    await outbox.enqueue(db, { topic: 'sms', payload: { n: 9 }, lane: 'codes' });
    expect(await outbox.runOnce('codes')).toBe(1);
    expect(codes).toHaveBeenCalledWith({ n: 9 }, expect.anything());
    // Nothing of the webhook lane's was taken by that run, and it keeps to its concurrency.
    expect(hooks).toHaveBeenCalledTimes(3);

    release();
    expect(await webhookRun).toBe(5);
    expect((await rows()).map((r) => [r.lane, r.status])).toEqual([
      ...Array(5).fill(['webhooks', 'sent']),
      ['codes', 'sent'],
    ]);
  });

  it('puts a deferred row back untried until its time', async () => {
    let deferOnce = true;
    const handler = vi.fn<OutboxHandler>(async (_payload, attempt) => {
      if (deferOnce) attempt.defer(now + 30_000);
      deferOnce = false;
    });
    const { outbox } = makeOutbox({ sms: handler });
    await outbox.enqueue(database.current.handle.db, { topic: 'sms', payload: { n: 1 } });
    expect(await outbox.runOnce()).toBe(1);
    expect(await onlyRow()).toMatchObject({
      status: 'pending',
      attempts: 0,
      lastError: null,
      lockedUntil: null,
      nextAttemptAt: new Date(NOW + 30_000),
    });
    expect(await outbox.runOnce()).toBe(0);
    now = NOW + 30_000;
    expect(await outbox.runOnce()).toBe(1);
    expect(await onlyRow()).toMatchObject({ status: 'sent', attempts: 1 });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('leaves a row enqueued with notBefore untouched until that time', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ sms: handler });
    await outbox.enqueue(database.current.handle.db, {
      topic: 'sms',
      payload: { n: 1 },
      notBefore: new Date(NOW + 30 * 60_000),
    });
    expect(await onlyRow()).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(NOW + 30 * 60_000),
    });
    now = NOW + 30 * 60_000 - 1;
    expect(await outbox.runOnce()).toBe(0);
    expect(handler).not.toHaveBeenCalled();
    now = NOW + 30 * 60_000;
    expect(await outbox.runOnce()).toBe(1);
    expect(await onlyRow()).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('leaves a row claimed by another worker alone until its lease runs out', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ sms: handler }, { leaseMs: 60_000 });
    const db = database.current.handle.db;
    await outbox.enqueue(db, { topic: 'sms', payload: { n: 1 } });
    // As a worker that claimed the row and then died would leave it.
    await db.update(outboxTable).set({ lockedUntil: new Date(NOW + 60_000), attempts: 1 });

    expect(await outbox.runOnce()).toBe(0);
    now += 60_000;
    expect(await outbox.runOnce()).toBe(1);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(await onlyRow()).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('never hands a row to two concurrent runs', async () => {
    const seen: number[] = [];
    const handler: OutboxHandler = async (payload) => {
      seen.push((payload as { n: number }).n);
      await new Promise((resolve) => setTimeout(resolve, 1));
    };
    // Two outboxes as two instances would have (on PostgreSQL, each run uses pool connections).
    const { outbox: a } = makeOutbox({ sms: handler }, { concurrency: { default: 4 } });
    const { outbox: b } = makeOutbox({ sms: handler }, { concurrency: { default: 4 } });
    const db = database.current.handle.db;
    const count = 30;
    await db.transaction(async (tx) => {
      for (let n = 0; n < count; n++) await a.enqueue(tx, { topic: 'sms', payload: { n } });
    });

    const handled = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    expect(handled.reduce((sum, h) => sum + h, 0)).toBe(count);
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
    const all = await rows();
    expect(all.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('runs at a kick once started, runs again for a kick during a run, and stops cleanly', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: number[] = [];
    const handler: OutboxHandler = async (payload) => {
      const { n } = payload as { n: number };
      seen.push(n);
      if (n === 1) await blocked;
    };
    const { outbox } = makeOutbox({ sms: handler }, { pollIntervalMs: 3600_000 });
    const db = database.current.handle.db;

    await outbox.enqueue(db, { topic: 'sms', payload: { n: 1 } });
    outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([]);

    outbox.start();
    await vi.waitFor(() => expect(seen).toEqual([1]));
    await outbox.enqueue(db, { topic: 'sms', payload: { n: 2 } });
    outbox.kick();
    release();
    await vi.waitFor(() => expect(seen).toEqual([1, 2]));

    await outbox.enqueue(db, { topic: 'sms', payload: { n: 3 } });
    await outbox.stop();
    outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([1, 2]);
    const statuses = (await rows()).map((r) => r.status);
    expect(statuses).toEqual(['sent', 'sent', 'pending']);
  });

  it('finishes what a kick started before runOnce resolves', async () => {
    const seen: number[] = [];
    const handler: OutboxHandler = async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push((payload as { n: number }).n);
    };
    const { outbox } = makeOutbox({ sms: handler }, { pollIntervalMs: 3600_000 });
    outbox.start();
    try {
      await outbox.runOnce();
      await outbox.enqueue(database.current.handle.db, { topic: 'sms', payload: { n: 1 } });
      outbox.kick();
      // The kick's run took the row; this one waits for it rather than finding the row claimed.
      expect(await outbox.runOnce()).toBe(0);
      expect(seen).toEqual([1]);
    } finally {
      await outbox.stop();
    }
  });

  it('polls on its own', async () => {
    const handler = vi.fn<OutboxHandler>(async () => {});
    const { outbox } = makeOutbox({ sms: handler }, { pollIntervalMs: 20 });
    outbox.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await outbox.enqueue(database.current.handle.db, { topic: 'sms', payload: { n: 1 } });
      await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(1));
    } finally {
      await outbox.stop();
    }
    const row = await onlyRow();
    expect(row.status).toBe('sent');
    expect(
      await database.current.handle.db
        .select({ id: outboxTable.id })
        .from(outboxTable)
        .where(eq(outboxTable.status, 'pending')),
    ).toEqual([]);
  });
});
