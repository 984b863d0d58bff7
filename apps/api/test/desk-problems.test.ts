import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageFailure } from '@marpe/shared';
import type { App } from '../src/app.js';
import { decryptText, sealingKey } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import { clinics, outbox } from '../src/platform/db/schema.js';
import { outboxPayloadAt } from '../src/platform/outbox/outbox.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  testDataKey,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer, insertStaffSession } from './sessions.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2027-03-24T10:00:00+02:00');

type Caller = { key: string } | { desk: { cookies: Record<string, string> } };

describe.each(engines)("the desk's problems: failed messages (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  /** An SMS gateway that is down: every message fails. */
  let gateway: Loopback;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let now = START;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let owner: Caller;
  let frontDesk: Caller;
  let otherOwner: Caller;

  beforeAll(async () => {
    gateway = await startLoopback(() => ({ status: 503, body: { error: 'unavailable' } }));
    app = await buildTestApp(database.current.handle, {
      config: testConfig({
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: `${gateway.origin}/v1/messages`,
        SMS_HTTP_TOKEN: 'gw-token',
        SMS_SENDER: 'Marpe',
      }),
      clock: () => now,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });

  beforeEach(async () => {
    now = START;
    gateway.reset();
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת הבעיות'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    // Sessions that live through the 48 hours a message is tried for (the test's clock jumps).
    const at = START + 49 * HOUR;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now: at }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now: at }) };
    otherOwner = {
      desk: await insertStaffSession(db, { clinicId: otherClinicId, role: 'owner', now: at }),
    };
  });

  const call = (caller: Caller, method: 'GET' | 'POST', url: string, payload?: object) =>
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

  const failures = async (caller: Caller, query = '') => {
    const response = await call(caller, 'GET', `/message-failures${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MessageFailure[]>();
  };

  /** Reminders whose gateway tries run out: tried now, then given up 48 h on. */
  async function failedReminders(...messages: [forClinic: number, to: string][]) {
    for (const [forClinic, to] of messages) {
      await app.messaging.queueMessage(db, {
        clinicId: forClinic,
        to,
        body: 'תזכורת: תור מחר ב-09:00',
        kind: 'reminder',
      });
    }
    await app.messaging.runOutbox();
    now += 49 * HOUR;
    await app.messaging.runOutbox();
  }

  it('lists a failed SMS for its clinic, masked, without its text', async () => {
    await failedReminders([clinicId, '0521234567']);
    const [row] = await db.select().from(outbox);
    expect(row).toMatchObject({ status: 'failed', clinicId, attempts: 2 });
    // The row keeps whom and what it was for, sealed; the text (it may be a code) is erased.
    const kept = JSON.parse(
      decryptText(
        sealingKey(testDataKey, 'outbox'),
        row?.payload ?? '',
        outboxPayloadAt(row?.id ?? 0),
      ),
    );
    expect(kept).toEqual({ to: '0521234567', kind: 'reminder' });

    const response = await call(owner, 'GET', '/message-failures');
    expect(response.body).not.toContain('0521234567');
    expect(response.body).not.toContain('תזכורת');
    expect(response.json()).toEqual([
      {
        id: row?.id,
        kind: 'reminder',
        channel: 'sms',
        recipient: '052-***-4567',
        status: 'failed',
        attempts: 2,
        last_error: expect.stringContaining('503'),
        created_at: new Date(START).toISOString(),
        ended_at: new Date(START + 49 * HOUR).toISOString(),
      },
    ]);
    // The clinic's API key reads it too.
    expect(await failures({ key })).toHaveLength(1);
  });

  it('lists an expired login code too, and nothing sent or still being tried', async () => {
    await app.messaging.queueCode(db, {
      clinicId,
      to: '0547654321',
      body: 'קוד האימות שלך: 123456',
      expiresAt: new Date(now + 5 * MINUTE),
    });
    // Still being tried: not a failure yet.
    await app.messaging.queueMessage(db, {
      clinicId,
      to: '0501111111',
      body: 'קישור לטופס',
      kind: 'form_link',
    });
    await app.messaging.runOutbox();
    expect(await failures(owner)).toEqual([]);

    now += 10 * MINUTE;
    await app.messaging.runOutbox();
    const [expired] = await failures(owner);
    expect(expired).toMatchObject({
      kind: 'login_code',
      channel: 'sms',
      recipient: '054-***-4321',
      status: 'expired',
      attempts: 1,
    });
    expect(JSON.stringify(expired)).not.toContain('123456');
    expect(await failures(owner)).toHaveLength(1);
  });

  it("records the clinic and kind of a real flow's message (a staff invitation)", async () => {
    const invited = await call(owner, 'POST', '/staff/invitations', {
      name: 'נועה',
      phone: '052-7000009',
      role: 'front_desk',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    await app.messaging.runOutbox();
    now += 49 * HOUR;
    await app.messaging.runOutbox();
    expect(await failures(owner)).toMatchObject([
      { kind: 'staff_invitation', recipient: '052-***-0009', status: 'failed' },
    ]);
  });

  it("a message for no clinic (a staff sign-in code) is no clinic's failure", async () => {
    await app.messaging.queueCode(db, {
      to: '0529999999',
      body: 'קוד',
      expiresAt: new Date(now - 1),
    });
    await app.messaging.runOutbox();
    const [row] = await db.select().from(outbox);
    expect(row).toMatchObject({ status: 'expired', clinicId: null, payload: null });
    expect(await failures(owner)).toEqual([]);
  });

  it('pages newest first with before and limit', async () => {
    for (const to of ['0520000001', '0520000002', '0520000003']) {
      await app.messaging.queueMessage(db, { clinicId, to, body: 'x', kind: 'waitlist_offer' });
    }
    await app.messaging.runOutbox();
    now += 49 * HOUR;
    await app.messaging.runOutbox();
    const first = await failures(owner, '?limit=2');
    expect(first.map((f) => f.recipient)).toEqual(['052-***-0003', '052-***-0002']);
    const rest = await failures(owner, `?limit=2&before=${first[1]?.id}`);
    expect(rest.map((f) => f.recipient)).toEqual(['052-***-0001']);
    const invalid = await call(owner, 'GET', '/message-failures?limit=0');
    expect(invalid.statusCode).toBe(400);
  });

  it("is the owners': front desk gets 403", async () => {
    await failedReminders([clinicId, '0521234567']);
    const response = await call(frontDesk, 'GET', '/message-failures');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.body).not.toContain('052');
  });

  it("never shows one clinic's failures to another", async () => {
    await failedReminders([clinicId, '0521234567'], [otherClinicId, '0537654321']);
    expect((await failures(otherOwner)).map((f) => f.recipient)).toEqual(['053-***-4321']);
    expect((await failures(owner)).map((f) => f.recipient)).toEqual(['052-***-4567']);
  });
});
