// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  CreatedPaymentRequest,
  PaymentRequest,
  PaymentTransaction,
  WebhookEndpointWithSecret,
  WebhookEvent,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import {
  auditLog,
  clinics,
  paymentRequests,
  paymentTransactions,
} from '../src/platform/db/schema.js';
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

const DAY = 86_400_000;
/** Wednesday 2027-03-24, 10:00 in Israel (UTC+2). */
const START = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const TERMINAL = 'clinicterm';

/** What the provider posts for a good single payment of ₪1,250.50 (plus card data). */
const approved = (index: string): Record<string, string> => ({
  Response: '000',
  index,
  ConfirmationCode: '0123456',
  sum: '1250.50',
  currency: '1',
  cred_type: '1',
  supplier: TERMINAL,
  ccno: '4321',
  expmonth: '12',
  expyear: '30',
  mycvv: '123',
  myid: '039845128',
  TranzilaTK: 'a1b2c3d4e5f6g7h8',
  cardnum: '4580123412341234',
});

/** ₪1,250.50 in 3 payments: 416.84 then 2 × 416.83 (docs/product/payments.md#instalments). */
const inThree = (index: string) => ({
  ...approved(index),
  cred_type: '8',
  npay: '2',
  fpay: '416.84',
  spay: '416.83',
});

describe.each(engines)('integration API: payment requests (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  /** The clinic's webhook receiver: records every request and answers 204. */
  let receiver: Loopback;
  let a: { id: number; key: string; keyId: number };
  let b: { id: number; key: string; keyId: number };
  /** The card provider's API (its headers are checked in payments.test.ts): these charges. */
  let provider: Loopback;
  const charges = new Map<string, number>();
  /** The provider charged `index` in `payments` payments of ₪1,250.50. */
  const charge = (index: string, payments = 1) => charges.set(index, payments);
  /** The reference of the frame each charge was made in: the link that first reported it. */
  const frameRefs = new Map<string, string>();

  beforeAll(async () => {
    now = START;
    receiver = await startLoopback(() => ({ status: 204 }));
    provider = await startLoopback((request) => {
      const body = JSON.parse(request.body) as Record<string, string>;
      if (request.path === '/v1/handshake/create') {
        return { status: 200, body: { thtk: `thtk_${body.terminal_name}` } };
      }
      const payments = charges.get(body.transaction_index ?? '');
      return {
        status: 200,
        body: {
          transactions:
            payments === undefined
              ? []
              : [
                  {
                    index: body.transaction_index,
                    terminal_name: body.terminal_name,
                    processor_response_code: '000',
                    amount: 1250.5,
                    currency_code: 1,
                    number_of_payments: payments,
                    marpe_ref: frameRefs.get(body.transaction_index ?? ''),
                  },
                ],
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
    await receiver.close();
    await provider.close();
  });

  async function insertClinic(name: string, cardTerminal: string | null) {
    const [row] = await db
      .insert(clinics)
      .values({
        ...clinicRow(name),
        cardTerminal,
      })
      .returning({ id: clinics.id });
    if (!row) throw new Error('fixture: clinic');
    const created = await app.apiKeys.create(row.id, 'pms', 'test');
    return { id: row.id, key: created.key, keyId: created.id };
  }

  beforeEach(async () => {
    await database.current.reset();
    receiver.reset();
    now = START;
    a = await insertClinic('מרפאת השן הלבנה', TERMINAL);
    b = await insertClinic('מרפאה אחרת', 'otherterm');
    charges.clear();
    frameRefs.clear();
    for (const clinic of [a, b]) {
      await app.payments.setProviderCredentials(db, clinic.id, {
        appKey: `app-${clinic.id}`,
        secret: 'provider-secret',
      });
    }
  });

  /** Runs the queued verifications and deliveries, as the workers would. */
  const settle = async () => {
    await app.outbox.runOnce();
    await app.outbox.runOnce();
  };

  const messages = useSentMessages(() => app);

  const call = (key: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });

  const issuePaths = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
    expect(body.code).toBe('validation_failed');
    return body.details.issues.map((issue) => issue.path);
  };

  /** ₪1,250.50 in up to 3 payments for דנה לוי, unless told otherwise. */
  const createRequest = async (payload: object = {}, key = a.key) => {
    const response = await call(key, 'POST', '/payment-requests', {
      amount: 1250.5,
      max_payments: 3,
      patient_id_number: '039845128',
      patient_name_remarks: 'דנה לוי',
      patient_email: 'dana@example.com',
      ...payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedPaymentRequest>();
  };

  const tokenOf = (url: string) => url.slice(`${ORIGIN}/p/`.length);
  const getPaymentRequest = (url: string) =>
    app.inject({
      method: 'POST',
      url: '/api/get-payment-request',
      payload: { token: tokenOf(url) },
      ...xsrf,
    });

  /**
   * The provider's callback (form-encoded, no cookie, no XSRF header) for a charge made in this
   * link's frame: with the link's `marpe_ref`, which the provider keeps with the charge.
   */
  const notify = async (url: string, fields: Record<string, string>) => {
    const [row] = await db
      .select({ chargeRef: paymentRequests.chargeRef })
      .from(paymentRequests)
      .where(eq(paymentRequests.tokenHash, sha256Hex(tokenOf(url))));
    const reference = fields.marpe_ref ?? row?.chargeRef ?? '';
    const sent = { marpe_ref: reference, ...fields };
    if (fields.index !== undefined && !frameRefs.has(fields.index)) {
      frameRefs.set(fields.index, reference);
    }
    return app.inject({
      method: 'POST',
      url: `/api/notify-payment/${tokenOf(url)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(sent).toString(),
    });
  };

  /** The clinic's audit entries about payment requests, oldest first. */
  const auditActions = async () =>
    (await db.select().from(auditLog).where(eq(auditLog.clinicId, a.id)).orderBy(auditLog.id))
      .filter((row) => row.action.startsWith('payment_'))
      .map((row) => `${row.action} ${row.targetId} ${row.actor}`);

  /** Subscribes the receiver to the payment events; returns the signing secret. */
  async function subscribe(): Promise<string> {
    const response = await call(a.key, 'POST', '/webhooks', {
      url: receiver.url('/marpe'),
      events: ['payment.succeeded', 'payment.failed'],
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WebhookEndpointWithSecret>().secret ?? '';
  }

  /** Delivers what is queued; the events the receiver got, each checked against its signature. */
  async function deliveredEvents(secret: string): Promise<WebhookEvent[]> {
    await settle();
    return receiver.requests.map(({ headers, body }) => {
      const signature = createHmac('sha256', secret)
        .update(`${String(headers['marpe-timestamp'])}.${body}`)
        .digest('hex');
      expect(headers['marpe-signature']).toBe(
        `t=${String(headers['marpe-timestamp'])},v1=${signature}`,
      );
      return JSON.parse(body) as WebhookEvent;
    });
  }

  it('answers 401 without a live key', async () => {
    const routes: [Parameters<typeof call>[1], string][] = [
      ['GET', '/payment-requests'],
      ['POST', '/payment-requests'],
      ['GET', '/payment-requests/1'],
      ['POST', '/payment-requests/1/cancel'],
      ['GET', '/payment-requests/1/transactions'],
    ];
    for (const [method, url] of routes) {
      expect((await call(null, method, url)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call('mrp_not-a-key', method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('documents its routes in the OpenAPI, with the body’s fields', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json<{
      paths: Record<string, Record<string, { tags?: string[]; requestBody?: unknown }>>;
    }>();
    const paths = Object.keys(spec.paths).filter((path) => path.includes('/payment-requests'));
    expect(paths.sort()).toEqual([
      '/api/integration/payment-requests',
      '/api/integration/payment-requests/{id}',
      '/api/integration/payment-requests/{id}/cancel',
      '/api/integration/payment-requests/{id}/transactions',
    ]);
    const create = spec.paths['/api/integration/payment-requests']?.post;
    expect(create?.tags).toEqual(['integration']);
    expect(JSON.stringify(create?.requestBody)).toContain('send_to_phone');
  });

  it('makes a link the payment page serves, on the clinic’s terminal, audited', async () => {
    const created = await createRequest({
      description: 'טיפול שורש',
      purpose: 'טיפול שורש – שן 36',
      expires_in_days: 7,
    });
    expect(created).toEqual({
      id: created.id,
      url: expect.stringMatching(/^https:\/\/marpe\.example\/p\/[\w-]{43}$/),
      status: 'pending',
      stage: 'pending',
      card_last4: null,
      approval_number: null,
      amount: 1250.5,
      max_payments: 3,
      terminal: TERMINAL,
      patient_id_number: '039845128',
      patient_name_remarks: 'דנה לוי',
      patient_email: 'dana@example.com',
      description: 'טיפול שורש',
      purpose: 'טיפול שורש – שן 36',
      created_at: new Date(START).toISOString(),
      expires_at: new Date(START + 7 * DAY).toISOString(),
      paid_at: null,
    });

    const page = await getPaymentRequest(created.url);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      data: {
        amount: 1250.5,
        terminal: TERMINAL,
        patientId: '039845128',
        patientNameRemarks: 'דנה לוי',
        patientEmail: 'dana@example.com',
        clinicLogo: '',
        numPayments: 3,
        status: 'pending',
        thtk: `thtk_${TERMINAL}`,
        chargeRef: expect.stringMatching(/^[\w-]{16}$/),
        clinicName: expect.any(String),
        clinicId: expect.any(Number),
        clinicPhone: expect.any(String),
        clinicTimeZone: expect.any(String),
        // What the payment is for, in the patient's words; the clinic's description stays private.
        purpose: 'טיפול שורש – שן 36',
        cardProvider: 'sandbox',
        receipt: null,
      },
    });

    const one = await call(a.key, 'GET', `/payment-requests/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    const { url, ...request } = created;
    expect(one.json()).toEqual(request);
    expect(one.body).not.toContain(tokenOf(url));

    // A terminal named in the request wins; the defaults are 1 payment and 30 days.
    const other = await createRequest({
      amount: 80,
      max_payments: undefined,
      terminal: 'second_term',
    });
    expect(other).toMatchObject({
      amount: 80,
      max_payments: 1,
      terminal: 'second_term',
      expires_at: new Date(START + 30 * DAY).toISOString(),
    });
    const [row] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, other.id));
    expect(row).toMatchObject({ amountAgorot: 8000, terminal: 'second_term' });

    expect(await auditActions()).toEqual([
      `payment_request.create ${created.id} api_key:${a.keyId}`,
      `payment_request.create ${other.id} api_key:${a.keyId}`,
    ]);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'payment_request.create'),
          eq(auditLog.targetId, String(created.id)),
        ),
      );
    expect(entry?.details).toEqual({
      amount: 1250.5,
      max_payments: 3,
      terminal: TERMINAL,
      expires_at: created.expires_at,
      sent_to_phone: false,
    });
    expect(await messages()).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, storing nothing', async () => {
    const cases: [object, string][] = [
      [{ amount: 12.345 }, 'amount'],
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 1_000_000.01 }, 'amount'],
      [{ amount: '12' }, 'amount'],
      [{ amount: undefined }, 'amount'],
      [{ max_payments: 37 }, 'max_payments'],
      [{ max_payments: 0 }, 'max_payments'],
      [{ max_payments: 1.5 }, 'max_payments'],
      // Each payment is at least 1 agora.
      [{ amount: 0.05, max_payments: 6 }, 'max_payments'],
      [{ terminal: 'no spaces' }, 'terminal'],
      [{ patient_id_number: '0398 451 28' }, 'patient_id_number'],
      [{ patient_name_remarks: 'x'.repeat(201) }, 'patient_name_remarks'],
      [{ patient_email: 'dana@' }, 'patient_email'],
      [{ description: 'a\u0000b' }, 'description'],
      [{ purpose: 'x'.repeat(201) }, 'purpose'],
      [{ purpose: 'a\u0000b' }, 'purpose'],
      [{ purpose: 36 }, 'purpose'],
      [{ expires_in_days: 0 }, 'expires_in_days'],
      [{ expires_in_days: 366 }, 'expires_in_days'],
      [{ send_to_phone: '03-5551234' }, 'send_to_phone'],
      [{ send_to_phone: '050-123' }, 'send_to_phone'],
    ];
    for (const [change, path] of cases) {
      const response = await call(a.key, 'POST', '/payment-requests', {
        amount: 1250.5,
        ...change,
      });
      const paths = issuePaths(response);
      expect(paths, JSON.stringify(change)).toEqual([path]);
      expect(response.json<{ message: string }>().message).toBe(`Invalid request: ${path}`);
    }
    // The body is strict: a field the API does not have is refused, by name.
    const misspelt = await call(a.key, 'POST', '/payment-requests', {
      amount: 1250.5,
      amount_agorot: 125050,
    });
    expect(issuePaths(misspelt)).toEqual(['body']);
    expect(misspelt.body).toContain('amount_agorot');

    // A clinic without a terminal must name one.
    const bare = await insertClinic('מרפאה בלי מסוף', null);
    const noTerminal = await call(bare.key, 'POST', '/payment-requests', { amount: 100 });
    expect(issuePaths(noTerminal)).toEqual(['terminal']);
    expect(
      (await call(bare.key, 'POST', '/payment-requests', { amount: 100, terminal: 'own' }))
        .statusCode,
    ).toBe(201);

    expect(await db.select().from(paymentRequests)).toHaveLength(1);
    expect(await auditActions()).toEqual([]);
    expect(await messages()).toEqual([]);
  });

  it('sends the link by SMS when asked, once, with the clinic’s name and the sum', async () => {
    const sent = await createRequest({ send_to_phone: '+972 52-123-4567', expires_in_days: 3 });
    const outbox = await messages();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      to: '0521234567',
      body: `מרפאת השן הלבנה: בקשת תשלום על סך ₪1,250.50. לתשלום בקישור הבא\n${sent.url}`,
    });
    const whole = await createRequest({ amount: 300, send_to_phone: '050-7654321' });
    expect((await messages())[0]?.body).toBe(
      `מרפאת השן הלבנה: בקשת תשלום על סך ₪300. לתשלום בקישור הבא\n${whole.url}`,
    );

    const details = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'payment_request.create'), eq(auditLog.targetId, String(sent.id))),
      );
    expect(details[0]?.details).toMatchObject({ sent_to_phone: true });
    expect(JSON.stringify(details)).not.toContain('4567');
  });

  it('caps the links it sends to one number: 429 with retry_after, nothing made, audited', async () => {
    for (let i = 0; i < 3; i++) await createRequest({ send_to_phone: '050-7000001' });
    const before = await db.select().from(paymentRequests);
    const refused = await call(a.key, 'POST', '/payment-requests', {
      amount: 77,
      send_to_phone: '0507000001',
    });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'too_many_requests',
      details: { cap: 'per_recipient_per_hour', retry_after: 3600 },
    });
    expect(refused.headers['retry-after']).toBe('3600');
    expect(await db.select().from(paymentRequests)).toHaveLength(before.length);
    expect(await messages()).toHaveLength(3);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'message.refused'));
    expect(entry?.details).toMatchObject({ kind: 'payment_link', cap: 'per_recipient_per_hour' });
  });

  it('lists requests by status, newest first, in pages', async () => {
    const made: CreatedPaymentRequest[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createRequest({ expires_in_days: i + 1 }));
      now += 1000;
    }
    const [first, second, third, fourth, fifth] = made;
    if (!first || !second || !third || !fourth || !fifth) throw new Error('unreachable');
    charge('1');
    expect((await notify(third.url, approved('1'))).statusCode).toBe(200);
    await settle();
    expect((await call(a.key, 'POST', `/payment-requests/${second.id}/cancel`)).statusCode).toBe(
      200,
    );
    now = START + DAY + 500; // the first link (1 day) has expired

    const ids = async (query: string) => {
      const response = await call(a.key, 'GET', `/payment-requests${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PaymentRequest[]>().map((r) => r.id);
    };
    expect(await ids('')).toEqual(made.map((r) => r.id).reverse());
    expect(await ids('?limit=2')).toEqual([fifth.id, fourth.id]);
    expect(await ids(`?limit=2&before=${fourth.id}`)).toEqual([third.id, second.id]);
    expect(await ids('?status=pending')).toEqual([fifth.id, fourth.id]);
    expect(await ids('?status=expired')).toEqual([first.id]);
    expect(await ids('?status=paid')).toEqual([third.id]);
    expect(await ids('?status=cancelled')).toEqual([second.id]);
    expect(issuePaths(await call(a.key, 'GET', '/payment-requests?status=done'))).toEqual([
      'status',
    ]);
    expect(issuePaths(await call(a.key, 'GET', '/payment-requests?limit=201'))).toEqual(['limit']);

    const paid = await call(a.key, 'GET', `/payment-requests/${third.id}`);
    expect(paid.json<PaymentRequest>()).toMatchObject({
      status: 'paid',
      paid_at: new Date(START + 5000).toISOString(),
    });
    const expired = await call(a.key, 'GET', `/payment-requests/${first.id}`);
    expect(expired.json<PaymentRequest>().status).toBe('expired');
  });

  it('cancels a pending or expired link: it answers 404 and callbacks never pay it', async () => {
    const link = await createRequest();
    const cancelled = await call(a.key, 'POST', `/payment-requests/${link.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<PaymentRequest>()).toMatchObject({ id: link.id, status: 'cancelled' });
    expect((await getPaymentRequest(link.url)).statusCode).toBe(404);

    // A charge reported on it is refused and changes nothing.
    expect((await notify(link.url, approved('1'))).statusCode).toBe(404);
    expect((await call(a.key, 'GET', `/payment-requests/${link.id}/transactions`)).json()).toEqual(
      [],
    );
    const again = await call(a.key, 'POST', `/payment-requests/${link.id}/cancel`);
    expect(again.statusCode).toBe(200);
    expect(again.json<PaymentRequest>().status).toBe('cancelled');

    const old = await createRequest({ expires_in_days: 1 });
    now += 2 * DAY;
    expect(
      (await call(a.key, 'GET', `/payment-requests/${old.id}`)).json<PaymentRequest>().status,
    ).toBe('expired');
    expect(
      (await call(a.key, 'POST', `/payment-requests/${old.id}/cancel`)).json<PaymentRequest>()
        .status,
    ).toBe('cancelled');

    const paid = await createRequest();
    charge('2');
    expect((await notify(paid.url, approved('2'))).statusCode).toBe(200);
    await settle();
    const refused = await call(a.key, 'POST', `/payment-requests/${paid.id}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('conflict');
    expect(
      (await getPaymentRequest(paid.url)).json<{ data: { status: string } }>().data.status,
    ).toBe('paid');

    // Once each, the repeat and the refusal unrecorded.
    expect((await auditActions()).filter((e) => e.startsWith('payment_request.cancel'))).toEqual([
      `payment_request.cancel ${link.id} api_key:${a.keyId}`,
      `payment_request.cancel ${old.id} api_key:${a.keyId}`,
    ]);
  });

  it('lists the callbacks with their descriptions and the card’s last 4 digits only', async () => {
    const link = await createRequest();
    const none = await call(a.key, 'GET', `/payment-requests/${link.id}/transactions`);
    expect(none.json()).toEqual([]);

    expect((await notify(link.url, { ...approved('11'), Response: '006' })).statusCode).toBe(200);
    now += 60_000;
    expect((await notify(link.url, inThree('12'))).statusCode).toBe(200);
    expect((await notify(link.url, inThree('12'))).statusCode).toBe(200);

    const response = await call(a.key, 'GET', `/payment-requests/${link.id}/transactions`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = response.json<PaymentTransaction[]>();
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        transaction_index: '11',
        response_code: '006',
        response_description: 'מספר CVV שגוי',
        accepted: true,
        rejection_reason: null,
        verification: null,
        confirmation_code: '0123456',
        amount: 1250.5,
        payments: 1,
        card_last4: '4321',
        received_at: new Date(START).toISOString(),
      },
      {
        id: expect.any(Number),
        transaction_index: '12',
        response_code: '000',
        response_description: 'עסקה אושרה',
        accepted: true,
        rejection_reason: null,
        // Not asked yet: the verification is queued.
        verification: null,
        confirmation_code: '0123456',
        amount: 1250.5,
        payments: 3,
        card_last4: '4321',
        received_at: new Date(START + 60_000).toISOString(),
      },
    ]);
    for (const secret of ['4580123412341234', '039845128', 'a1b2c3d4e5f6g7h8', 'expmonth']) {
      expect(response.body).not.toContain(secret);
    }

    // A callback that does not match the request says why.
    const other = await createRequest();
    await notify(other.url, { ...approved('13'), supplier: 'elsewhere', sum: '1.00' });
    const [rejected] = (
      await call(a.key, 'GET', `/payment-requests/${other.id}/transactions`)
    ).json<PaymentTransaction[]>();
    expect(rejected).toMatchObject({
      accepted: false,
      rejection_reason: 'terminal_mismatch,sum_mismatch',
      amount: 1,
    });
  });

  it('reports a payment once, however often the provider repeats it, and each failure', async () => {
    const secret = await subscribe();
    const link = await createRequest();

    // A refused card first: payment.failed, once however often it is repeated.
    for (let i = 0; i < 3; i++) {
      expect((await notify(link.url, { ...approved('21'), Response: '033' })).statusCode).toBe(200);
    }
    // Then the approval, repeated ten times at once and once more later.
    charge('22', 3);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => notify(link.url, inThree('22'))),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await notify(link.url, inThree('22'))).statusCode).toBe(200);
    await settle();
    // Once paid, later callbacks are recorded but not reported.
    expect((await notify(link.url, { ...approved('23'), Response: '004' })).statusCode).toBe(200);

    const events = await deliveredEvents(secret);
    expect(events.map((e) => [e.type, e.clinic_id])).toEqual([
      ['payment.failed', a.id],
      ['payment.succeeded', a.id],
    ]);
    expect(events.map((e) => e.data)).toEqual([
      {
        request_id: link.id,
        amount: 1250.5,
        status: 'pending',
        response_code: '033',
        payments: 1,
        transaction_index: '21',
        verified: false,
      },
      {
        request_id: link.id,
        amount: 1250.5,
        status: 'paid',
        response_code: '000',
        payments: 3,
        transaction_index: '22',
        // Confirmed with the provider's API, not taken from the callback.
        verified: true,
      },
    ]);
    expect(receiver.requests.map((r) => r.headers['marpe-event-type'])).toEqual([
      'payment.failed',
      'payment.succeeded',
    ]);
    expect(
      await db.select().from(paymentTransactions).where(eq(paymentTransactions.requestId, link.id)),
    ).toHaveLength(3);
    // Replays after the delivery bring nothing new either.
    await notify(link.url, inThree('22'));
    expect(await deliveredEvents(secret)).toHaveLength(2);
  });

  it('reports a charge it did not accept as payment.failed with its code', async () => {
    const secret = await subscribe();
    const tampered = await createRequest();
    await notify(tampered.url, { ...approved('31'), sum: '1.00' });
    const cancelled = await createRequest();
    await call(a.key, 'POST', `/payment-requests/${cancelled.id}/cancel`);
    expect((await notify(cancelled.url, approved('32'))).statusCode).toBe(404);
    // Another clinic's callbacks go to its own endpoints only.
    const theirs = await createRequest({ terminal: 'otherterm' }, b.key);
    charge('33');
    await notify(theirs.url, { ...approved('33'), supplier: 'otherterm' });

    const events = await deliveredEvents(secret);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'payment.failed',
        {
          request_id: tampered.id,
          amount: 1250.5,
          status: 'pending',
          response_code: '000',
          payments: 1,
          transaction_index: '31',
          verified: false,
        },
      ],
    ]);
    expect(
      (await call(b.key, 'GET', `/payment-requests/${theirs.id}`)).json<PaymentRequest>().status,
    ).toBe('paid');
  });

  it('sets the provider credentials through the API: the secret stored sealed, never shown', async () => {
    await app.payments.setProviderCredentials(db, a.id, null);
    const put = (body: object) =>
      app.inject({
        method: 'PUT',
        url: '/api/integration/payment-provider',
        payload: body,
        headers: { authorization: `Bearer ${a.key}` },
      });
    expect((await call(a.key, 'GET', '/payment-provider')).json()).toEqual({
      configured: false,
      app_key: null,
    });
    expect(issuePaths(await put({ app_key: 'k' }))).toEqual(['secret']);
    expect(issuePaths(await put({ app_key: '', secret: 'long-enough' }))).toEqual(['app_key']);
    const set = await put({ app_key: 'clinic-app', secret: 'the-provider-secret' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ configured: true, app_key: 'clinic-app' });
    const shown = await call(a.key, 'GET', '/payment-provider');
    expect(shown.json()).toEqual({ configured: true, app_key: 'clinic-app' });
    expect(shown.body + set.body).not.toContain('the-provider-secret');
    const [row] = await db.select().from(clinics).where(eq(clinics.id, a.id));
    expect(row?.tranzilaSecret).toMatch(/^v2\./);
    expect(JSON.stringify(row)).not.toContain('the-provider-secret');
    // Another clinic's key sees its own settings only.
    expect((await call(b.key, 'GET', '/payment-provider')).json()).toMatchObject({
      app_key: `app-${b.id}`,
    });
    const removed = await app.inject({
      method: 'DELETE',
      url: '/api/integration/payment-provider',
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(removed.json()).toEqual({ configured: false, app_key: null });
    expect((await auditActions()).filter((e) => e.startsWith('payment_provider'))).toEqual([
      `payment_provider.set ${a.id} api_key:${a.keyId}`,
      `payment_provider.remove ${a.id} api_key:${a.keyId}`,
    ]);
  });

  it('reports a second confirmed charge as a duplicate, and an unconfirmable one as unverified, the link still payable', async () => {
    const response = await call(a.key, 'POST', '/webhooks', {
      url: receiver.url('/marpe'),
      events: ['payment.succeeded', 'payment.duplicate', 'payment.unverified'],
    });
    const secret = response.json<WebhookEndpointWithSecret>().secret ?? '';
    const link = await createRequest();
    charge('41');
    charge('42');
    await notify(link.url, approved('41'));
    await settle();
    // Two tabs: a second approved charge on the paid request.
    await notify(link.url, approved('42'));
    await settle();
    // A clinic without credentials (a demo; elsewhere no link is made without them): reported as
    // unverified, and the patient can still pay.
    await app.payments.setProviderCredentials(db, a.id, null);
    const unverified = await createRequest();
    await notify(unverified.url, approved('43'));
    await settle();
    const events = await deliveredEvents(secret);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['payment.succeeded', expect.objectContaining({ request_id: link.id, verified: true })],
      [
        'payment.duplicate',
        expect.objectContaining({ request_id: link.id, transaction_index: '42', verified: true }),
      ],
      [
        'payment.unverified',
        expect.objectContaining({
          request_id: unverified.id,
          status: 'pending',
          verified: false,
        }),
      ],
    ]);
    expect(
      (await call(a.key, 'GET', `/payment-requests/${unverified.id}`)).json<PaymentRequest>()
        .status,
    ).toBe('pending');
    const [recorded] = (
      await call(a.key, 'GET', `/payment-requests/${unverified.id}/transactions`)
    ).json<PaymentTransaction[]>();
    expect(recorded).toMatchObject({
      accepted: true,
      response_code: '000',
      verification: 'unverifiable',
    });
  });

  it('reports a charge without the request’s reference as unverified, never as paid', async () => {
    const response = await call(a.key, 'POST', '/webhooks', {
      url: receiver.url('/marpe'),
      events: ['payment.succeeded', 'payment.failed', 'payment.unverified'],
    });
    const secret = response.json<WebhookEndpointWithSecret>().secret ?? '';
    // The frame was opened stripped of marpe_ref: its callback carries none.
    const stripped = await createRequest();
    charge('51');
    const unreferenced = await app.inject({
      method: 'POST',
      url: `/api/notify-payment/${tokenOf(stripped.url)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(approved('51')).toString(),
    });
    expect(unreferenced.statusCode).toBe(200);
    // The callback carries the reference, but the provider kept none with the charge.
    const unkept = await createRequest();
    charge('52');
    frameRefs.set('52', '');
    await notify(unkept.url, approved('52'));
    const events = await deliveredEvents(secret);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'payment.unverified',
        expect.objectContaining({
          request_id: stripped.id,
          status: 'pending',
          transaction_index: '51',
          verified: false,
        }),
      ],
      [
        'payment.unverified',
        expect.objectContaining({
          request_id: unkept.id,
          status: 'pending',
          transaction_index: '52',
          verified: false,
        }),
      ],
    ]);
    for (const [request, accepted] of [
      [stripped, false],
      [unkept, true],
    ] as const) {
      expect(
        (await call(a.key, 'GET', `/payment-requests/${request.id}`)).json<PaymentRequest>().status,
      ).toBe('pending');
      const [recorded] = (
        await call(a.key, 'GET', `/payment-requests/${request.id}/transactions`)
      ).json<PaymentTransaction[]>();
      expect(recorded).toMatchObject({
        accepted,
        response_code: '000',
        verification: 'unverifiable',
        rejection_reason: 'reference_missing',
      });
    }
  });

  it('never lets a key reach another clinic’s payment requests', async () => {
    const link = await createRequest();
    await notify(link.url, approved('41'));
    const pending = await createRequest();

    const tries: [Parameters<typeof call>[1], string][] = [
      ['GET', `/payment-requests/${link.id}`],
      ['GET', `/payment-requests/${link.id}/transactions`],
      ['POST', `/payment-requests/${link.id}/cancel`],
      ['POST', `/payment-requests/${pending.id}/cancel`],
      ['GET', '/payment-requests/2147483648'],
      ['GET', '/payment-requests/2147483648/transactions'],
      ['POST', '/payment-requests/2147483648/cancel'],
    ];
    for (const [method, url] of tries) {
      const response = await call(b.key, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(b.key, 'GET', '/payment-requests')).json()).toEqual([]);
    expect(
      (await call(a.key, 'GET', `/payment-requests/${pending.id}`)).json<PaymentRequest>().status,
    ).toBe('pending');
    expect((await getPaymentRequest(pending.url)).statusCode).toBe(200);
  });
});
