// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedPaymentRequest, PaymentRequest } from '@marpe/shared';
import type { App } from '../src/app.js';
import { sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog, clinics, paymentRequests } from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  useSentMessages,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { insertStaffSession } from './sessions.js';

const DAY = 86_400_000;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const START = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const TERMINAL = 'deskterm';
const DANA = '039845128';
const RON = '123456782';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Desk = { cookies: Record<string, string>; accountId: number };

/** What the provider posts for an approved single payment of ₪250 (plus card data we drop). */
const approved = (index: string): Record<string, string> => ({
  Response: '000',
  index,
  ConfirmationCode: '0654321',
  sum: '250.00',
  currency: '1',
  cred_type: '1',
  supplier: TERMINAL,
  ccno: '4321',
  expmonth: '12',
  expyear: '30',
  mycvv: '123',
  cardnum: '4580123412344321',
});

const declined = (index: string): Record<string, string> => {
  const fields: Record<string, string> = { ...approved(index), Response: '006', ccno: '9999' };
  delete fields.ConfirmationCode;
  return fields;
};

describe.each(engines)('the desk’s payment requests: the clinic API it calls (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  /** The card provider's API: it confirms the indexes in `charges`, and knows no other. */
  let provider: Loopback;
  const charges = new Set<string>();
  /** The reference of the frame each charge was made in: the link that first reported it. */
  const frameRefs = new Map<string, string>();
  let clinicId: number;
  let otherClinicId: number;
  let owner: Desk;
  let frontDesk: Desk;
  let otherFrontDesk: Desk;

  beforeAll(async () => {
    now = START;
    provider = await startLoopback((request) => {
      const body = JSON.parse(request.body) as Record<string, string>;
      if (request.path === '/v1/handshake/create') {
        return { status: 200, body: { thtk: `thtk_${body.terminal_name}` } };
      }
      const index = body.transaction_index ?? '';
      return {
        status: 200,
        body: {
          transactions: charges.has(index)
            ? [
                {
                  index,
                  terminal_name: body.terminal_name,
                  processor_response_code: '000',
                  amount: 250,
                  currency_code: 1,
                  number_of_payments: 1,
                  marpe_ref: frameRefs.get(index),
                },
              ]
            : [],
        },
      };
    });
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN, TRANZILA_API_BASE_URL: provider.origin }),
      clock: () => now,
      outboxPollIntervalMs: 3_600_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
    await provider.close();
  });

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    charges.clear();
    frameRefs.clear();
    const [main, other] = await db
      .insert(clinics)
      .values([
        { ...clinicRow('מרפאת התשלומים'), cardTerminal: TERMINAL },
        { ...clinicRow('מרפאה אחרת'), cardTerminal: 'otherterm' },
      ])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    for (const id of [clinicId, otherClinicId]) {
      await app.payments.setProviderCredentials(db, id, {
        appKey: `app-${id}`,
        secret: 'provider-secret',
      });
    }
    owner = await insertStaffSession(db, { clinicId, role: 'owner', now });
    frontDesk = await insertStaffSession(db, { clinicId, role: 'front_desk', now });
    otherFrontDesk = await insertStaffSession(db, {
      clinicId: otherClinicId,
      role: 'front_desk',
      now,
    });
  });

  const messages = useSentMessages(() => app);

  /** A call as the desk's browser makes it: the session cookie, the XSRF pair, same origin. */
  const call = (desk: Desk, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      // On an https origin the session cookie is `__Host-` prefixed.
      cookies: { ...xsrf.cookies, '__Host-marpe_desk': desk.cookies.marpe_desk ?? '' },
      headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
    });

  /** ₪250 for דנה לוי, as the desk's dialog sends it, unless told otherwise. */
  async function request(payload: object = {}, desk = frontDesk): Promise<CreatedPaymentRequest> {
    const response = await call(desk, 'POST', '/payment-requests', {
      amount: 250,
      patient_id_number: DANA,
      patient_name_remarks: 'דנה לוי',
      purpose: 'ניקוי אבנית',
      max_payments: 1,
      expires_in_days: 7,
      ...payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedPaymentRequest>();
  }

  const list = async (query = '', desk = frontDesk) => {
    const response = await call(desk, 'GET', `/payment-requests${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PaymentRequest[]>();
  };
  const ids = async (query = '', desk = frontDesk) => (await list(query, desk)).map((r) => r.id);
  const one = async (id: number, desk = frontDesk) => {
    const response = await call(desk, 'GET', `/payment-requests/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PaymentRequest>();
  };

  /**
   * The provider's callback on a link (form-encoded, no cookie) for a charge made in its frame:
   * with the link's `marpe_ref`, which the provider keeps with the charge.
   */
  const notify = async (url: string, fields: Record<string, string>) => {
    const token = url.slice(`${ORIGIN}/p/`.length);
    const [row] = await db
      .select({ chargeRef: paymentRequests.chargeRef })
      .from(paymentRequests)
      .where(eq(paymentRequests.tokenHash, sha256Hex(token)));
    const reference = fields.marpe_ref ?? row?.chargeRef ?? '';
    const sent = { marpe_ref: reference, ...fields };
    if (fields.index !== undefined && !frameRefs.has(fields.index)) {
      frameRefs.set(fields.index, reference);
    }
    const response = await app.inject({
      method: 'POST',
      url: `/api/notify-payment/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(sent).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  /** Runs the queued verifications with the provider, as the outbox worker would. */
  const settle = async () => {
    await app.outbox.runOnce();
    await app.outbox.runOnce();
  };

  it('lets the front desk make a link and send it to the patient’s phone, audited', async () => {
    const sent = await request({ send_to_phone: '052-1234567' });
    expect(sent).toMatchObject({
      status: 'pending',
      stage: 'pending',
      card_last4: null,
      approval_number: null,
      amount: 250,
      patient_id_number: DANA,
      patient_name_remarks: 'דנה לוי',
      purpose: 'ניקוי אבנית',
      max_payments: 1,
      expires_at: new Date(START + 7 * DAY).toISOString(),
      url: expect.stringMatching(/^https:\/\/marpe\.example\/p\/[\w-]{43}$/),
    });
    const outbox = await messages();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      to: '0521234567',
      body: `מרפאת התשלומים: בקשת תשלום על סך ₪250. לתשלום בקישור הבא\n${sent.url}`,
    });
    // Copying the link instead: nothing is sent.
    const copied = await request();
    expect(await messages()).toHaveLength(1);

    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, 'payment_request.create')))
      .orderBy(auditLog.id);
    expect(entries.map((e) => [e.targetId, e.actor, e.details?.sent_to_phone])).toEqual([
      [String(sent.id), `staff:${frontDesk.accountId}`, true],
      [String(copied.id), `staff:${frontDesk.accountId}`, false],
    ]);
    // The link is in the create's answer only.
    expect(JSON.stringify(await list())).not.toContain(sent.url);
  });

  it('counts the links it sends in the clinic’s message caps', async () => {
    for (let i = 0; i < 3; i++) await request({ send_to_phone: '0507000001' });
    const refused = await call(frontDesk, 'POST', '/payment-requests', {
      amount: 10,
      send_to_phone: '0507000001',
    });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'too_many_requests' });
    expect(await list()).toHaveLength(3);
  });

  it('refuses a bad phone or sum by the field’s name', async () => {
    for (const [change, path] of [
      [{ send_to_phone: '03-5551234' }, 'send_to_phone'],
      [{ amount: 10.001 }, 'amount'],
      [{ max_payments: 37 }, 'max_payments'],
      [{ expires_in_days: 0 }, 'expires_in_days'],
    ] as const) {
      const response = await call(frontDesk, 'POST', '/payment-requests', {
        amount: 250,
        ...change,
      });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ details: { issues: { path: string }[] } }>();
      expect(body.details.issues.map((i) => i.path)).toEqual([path]);
    }
  });

  it('tells failed, verifying and paid apart, with the paying card’s last 4 digits and approval', async () => {
    const link = await request();
    expect(await one(link.id)).toMatchObject({ stage: 'pending', card_last4: null });

    // A declined card: the request is still payable, but its latest attempt failed.
    await notify(link.url, declined('100'));
    expect(await one(link.id)).toMatchObject({
      status: 'pending',
      stage: 'failed',
      card_last4: null,
      approval_number: null,
    });

    // An approved charge the provider has not confirmed yet.
    charges.add('101');
    await notify(link.url, approved('101'));
    expect(await one(link.id)).toMatchObject({
      status: 'verifying',
      stage: 'verifying',
      card_last4: '4321',
      approval_number: '0654321',
    });

    await settle();
    const paid = await one(link.id);
    expect(paid).toMatchObject({
      status: 'paid',
      stage: 'paid',
      card_last4: '4321',
      approval_number: '0654321',
      paid_at: new Date(START).toISOString(),
    });
    // The list shows the same as the request alone.
    expect((await list()).find((r) => r.id === link.id)).toEqual(paid);

    // An approved callback the provider refuses (no such charge): failed again, payable.
    const refused = await request();
    await notify(refused.url, approved('200'));
    expect((await one(refused.id)).stage).toBe('verifying');
    await settle();
    expect(await one(refused.id)).toMatchObject({
      status: 'pending',
      stage: 'failed',
      card_last4: null,
    });
    // A new attempt after a failure: the latest one counts.
    charges.add('201');
    await notify(refused.url, approved('201'));
    expect((await one(refused.id)).stage).toBe('verifying');

    // A paid request cannot be cancelled: 409, and it stays paid.
    const cancel = await call(frontDesk, 'POST', `/payment-requests/${link.id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json()).toMatchObject({ code: 'conflict' });
    expect((await one(link.id)).stage).toBe('paid');
  });

  it('filters by stage and status, newest first, in pages', async () => {
    const pending = await request();
    now += 1000;
    const failed = await request();
    now += 1000;
    const paid = await request();
    now += 1000;
    const cancelled = await request();
    now += 1000;
    const expiring = await request({ expires_in_days: 1 });
    await notify(failed.url, declined('1'));
    charges.add('2');
    await notify(paid.url, approved('2'));
    await settle();
    expect(
      (await call(frontDesk, 'POST', `/payment-requests/${cancelled.id}/cancel`)).json(),
    ).toMatchObject({ status: 'cancelled', stage: 'cancelled' });
    now = START + DAY + 5000;
    // A day later: a new working day's session.
    frontDesk = await insertStaffSession(db, { clinicId, role: 'front_desk', now });

    const stages = Object.fromEntries((await list()).map((r) => [r.id, r.stage]));
    expect(stages).toEqual({
      [pending.id]: 'pending',
      [failed.id]: 'failed',
      [paid.id]: 'paid',
      [cancelled.id]: 'cancelled',
      [expiring.id]: 'expired',
    });
    expect(await ids('?stage=pending')).toEqual([pending.id]);
    expect(await ids('?stage=failed')).toEqual([failed.id]);
    expect(await ids('?stage=paid')).toEqual([paid.id]);
    expect(await ids('?stage=cancelled')).toEqual([cancelled.id]);
    expect(await ids('?stage=expired')).toEqual([expiring.id]);
    // `status` still reads the stored status: a failed request is pending.
    expect(await ids('?status=pending')).toEqual([failed.id, pending.id]);
    expect(await ids('?limit=2')).toEqual([expiring.id, cancelled.id]);
    expect(await ids(`?limit=2&before=${cancelled.id}`)).toEqual([paid.id, failed.id]);
    const bad = await call(frontDesk, 'GET', '/payment-requests?stage=done');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: { issues: [{ path: 'stage' }] } });
  });

  it('lists one patient’s requests', async () => {
    const danas = [await request(), await request({ amount: 80 })];
    const rons = await request({ patient_id_number: RON, patient_name_remarks: 'רון כהן' });
    expect(await ids(`?patient_id_number=${DANA}`)).toEqual(danas.map((r) => r.id).reverse());
    expect(await ids(`?patient_id_number=${RON}`)).toEqual([rons.id]);
    expect(await ids(`?patient_id_number=${RON}&limit=1&before=${rons.id}`)).toEqual([]);
    expect(await ids('?patient_id_number=000000018')).toEqual([]);
    expect(
      (await call(frontDesk, 'GET', `/payment-requests?patient_id_number=${'1'.repeat(21)}`))
        .statusCode,
    ).toBe(400);
  });

  it('lets the front desk cancel a pending request, audited', async () => {
    const link = await request();
    const cancelled = await call(frontDesk, 'POST', `/payment-requests/${link.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', stage: 'cancelled' });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, 'payment_request.cancel')));
    expect(entry).toMatchObject({
      targetId: String(link.id),
      actor: `staff:${frontDesk.accountId}`,
    });
  });

  it('leaves the card provider’s credentials to the owners', async () => {
    expect((await call(frontDesk, 'GET', '/payment-provider')).statusCode).toBe(403);
    expect((await call(owner, 'GET', '/payment-provider')).statusCode).toBe(200);
    // Payment requests are the front desk's daily work.
    expect((await call(frontDesk, 'GET', '/payment-requests')).statusCode).toBe(200);
  });

  it('never shows one clinic’s payment requests to another', async () => {
    const link = await request({ send_to_phone: '0521234567' });
    charges.add('9');
    await notify(link.url, approved('9'));
    const theirs = await request({}, otherFrontDesk);

    expect(await ids('', otherFrontDesk)).toEqual([theirs.id]);
    expect(await ids(`?patient_id_number=${DANA}`, otherFrontDesk)).toEqual([theirs.id]);
    expect(await ids('?stage=verifying', otherFrontDesk)).toEqual([]);
    expect(await ids('', frontDesk)).toEqual([link.id]);
    for (const [method, url] of [
      ['GET', `/payment-requests/${link.id}`],
      ['GET', `/payment-requests/${link.id}/transactions`],
      ['POST', `/payment-requests/${link.id}/cancel`],
    ] as const) {
      const response = await call(otherFrontDesk, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body).not.toContain(DANA);
    }
    expect((await one(link.id)).stage).toBe('verifying');
  });
});
