// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCardFrameUrl, parsePaymentResults } from '@marpe/shared';
import type { App } from '../src/app.js';
import { DEMO_CARD_TERMINAL, DEMO_CLINIC_ID, demoClinic } from '../src/demo/demo-clinic.js';
import {
  DEMO_PROVIDER_CREDENTIALS,
  ensureDemoCardTerminal,
  ensureDemoProviderCredentials,
} from '../src/demo/demo-payment.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import type { CreatePaymentLinkInput } from '../src/modules/payments/create-payment-link.js';
import { sha256Hex } from '../src/platform/crypto.js';
import type { Database } from '../src/platform/db/client.js';
import {
  clinics,
  paymentCharges,
  paymentRequests,
  paymentTransactions,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';

const DAY = 86_400_000;
const START = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const TERMINAL = 'clinicterm';

/** What the provider posts for a good single payment of ₪1,250.50 (plus card data). */
const approved = (index = '1001'): Record<string, string> => ({
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
  note: 'card 4580 1234 1234 1234',
  contact: '039845128',
  email: 'dana@example.com',
  remarks: 'דנה לוי',
});

/** ₪1,250.50 in 3 payments: 416.84 then 2 × 416.83 (docs/product/payments.md#instalments). */
const inThree = (index = '2001') => ({
  ...approved(index),
  cred_type: '8',
  npay: '2',
  fpay: '416.84',
  spay: '416.83',
});

const nonDemoEnv = {
  DEMO: 'false',
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: 'http://127.0.0.1:9/sms',
  SMS_HTTP_TOKEN: 'unused',
  SMS_SENDER: 'Marpe',
};

/** The clinic's provider API credentials in these tests (those the demo sandbox accepts too). */
const CREDENTIALS = DEMO_PROVIDER_CREDENTIALS;

/** The provider's record of a charge, as its /v1/transactions lists it. */
const providerCharge = (index: string, overrides: Record<string, unknown> = {}) => ({
  index,
  terminal_name: TERMINAL,
  processor_response_code: '000',
  amount: '1250.50',
  currency_code: '1',
  number_of_payments: 1,
  ...overrides,
});

describe.each(engines)('payment requests (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  /**
   * The card provider's API on loopback: it answers from `charges` and checks that every request
   * carries the app key, the time, a nonce and their HMAC exactly as the provider computes it.
   */
  let provider: Loopback;
  const charges = new Map<string, Record<string, unknown>>();
  /**
   * The reference of the frame each charge was made in (the link whose callback first reported
   * it, see `notify`): the provider keeps it with the charge unless the test set one itself.
   */
  const frameRefs = new Map<string, string>();
  let providerDown = 0;
  const authProblems: string[] = [];
  let db: Database;
  let now: number;
  let clinicId: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let webDistDir: string;

  beforeAll(async () => {
    now = START;
    webDistDir = await mkdtemp(path.join(tmpdir(), 'marpe-payments-'));
    await writeFile(
      path.join(webDistDir, 'index.html'),
      '<!doctype html><html><head><!--marpe:head--><title>t</title></head><body></body></html>',
    );
    provider = await startLoopback((request) => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const time = header('x-tranzila-api-request-time');
      const nonce = header('x-tranzila-api-nonce');
      const token = createHmac('sha256', `${CREDENTIALS.secret}${time}${nonce}`)
        .update(CREDENTIALS.appKey)
        .digest('hex');
      if (
        request.method !== 'POST' ||
        header('content-type') !== 'application/json' ||
        header('x-tranzila-api-app-key') !== CREDENTIALS.appKey ||
        time !== String(Math.floor(now / 1000)) ||
        !/^[0-9a-f]{32}$/.test(nonce) ||
        header('x-tranzila-api-access-token') !== token
      ) {
        authProblems.push(request.path);
        return { status: 401, body: { error_code: 401 } };
      }
      if (providerDown > 0) {
        providerDown -= 1;
        return { status: 503, body: {} };
      }
      const body = JSON.parse(request.body) as Record<string, string>;
      if (request.path === '/v1/handshake/create') {
        return {
          status: 200,
          body: { thtk: `thtk_${body.terminal_name}_${body.sum?.replace('.', '_')}` },
        };
      }
      if (request.path === '/v1/transactions') {
        const index = body.transaction_index ?? '';
        const stored = charges.get(index);
        const reference = frameRefs.get(index);
        const found =
          stored && !('marpe_ref' in stored) && reference !== undefined
            ? { ...stored, marpe_ref: reference }
            : stored;
        return {
          status: 200,
          body: {
            error_code: 0,
            transactions: found && body.terminal_name === TERMINAL ? [found] : [],
          },
        };
      }
      return { status: 404, body: {} };
    });
    app = await buildTestApp(database.current.handle, {
      // Demo mode (the test default): the card sandbox is on; the provider's API is the fake.
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN, TRANZILA_API_BASE_URL: provider.origin }),
      clock: () => now,
      outboxPollIntervalMs: 3_600_000,
      webDistDir,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });

  afterAll(async () => {
    await app.close();
    await provider.close();
    await rm(webDistDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    const [clinic] = await db
      .insert(clinics)
      .values({
        ...clinicRow('מרפאת הבדיקות'),
        logoUrl: 'logos/test.svg',
        cardTerminal: TERMINAL,
      })
      .returning({ id: clinics.id });
    clinicId = clinic?.id ?? 0;
    await app.payments.setProviderCredentials(db, clinicId, CREDENTIALS);
    charges.clear();
    frameRefs.clear();
    provider.reset();
    providerDown = 0;
    authProblems.length = 0;
  });

  /** The provider charged `index` (what its API will answer for it). */
  const charge = (index: string, overrides: Record<string, unknown> = {}) =>
    charges.set(index, providerCharge(index, overrides));

  /** Runs the queued verifications (the outbox), as the worker would. */
  const settle = () => app.outbox.runOnce();

  const newLink = (input: Partial<CreatePaymentLinkInput> = {}) =>
    app.payments.createLink({
      clinicId,
      amountAgorot: 125_050,
      maxPayments: 3,
      patientIdNumber: '039845128',
      patientNameRemarks: 'דנה לוי',
      patientEmail: 'dana@example.com',
      ...input,
    });

  const getRequest = (token: string) =>
    app.inject({ method: 'POST', url: '/api/get-payment-request', payload: { token }, ...xsrf });

  /** The link's own reference (its frame's `marpe_ref`); '' for an unknown token. */
  const refOfToken = async (token: string) => {
    const [row] = await db
      .select({ chargeRef: paymentRequests.chargeRef })
      .from(paymentRequests)
      .where(eq(paymentRequests.tokenHash, sha256Hex(token)));
    return row?.chargeRef ?? '';
  };

  /**
   * The provider's callback (form-encoded, no cookie, no XSRF header) for a charge made in this
   * link's frame: it carries the link's `marpe_ref` unless `fields` names one or
   * `withReference` is false, and the provider keeps that reference with the charge.
   */
  const notify = async (
    token: string,
    fields: Record<string, string>,
    { withReference = true }: { withReference?: boolean } = {},
  ) => {
    const sent = { ...fields };
    if (withReference && !('marpe_ref' in sent)) {
      sent.marpe_ref = await refOfToken(token);
      if (sent.index !== undefined && !frameRefs.has(sent.index)) {
        frameRefs.set(sent.index, sent.marpe_ref);
      }
    }
    return app.inject({
      method: 'POST',
      url: `/api/notify-payment/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(sent).toString(),
    });
  };

  const requestRow = async (id: number) => {
    const [row] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
    return row;
  };
  const transactions = (requestId: number) =>
    db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.requestId, requestId))
      .orderBy(paymentTransactions.id);

  describe('links', () => {
    it('mints a link stored as a token hash, on the clinic’s terminal by default', async () => {
      const link = await newLink();
      expect(link.url).toBe(`${ORIGIN}/p/${link.token}`);
      expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(link.expiresAt.getTime()).toBe(START + 30 * DAY);
      const row = await requestRow(link.requestId);
      expect(row).toMatchObject({
        clinicId,
        amountAgorot: 125_050,
        terminal: TERMINAL,
        maxPayments: 3,
        status: 'pending',
        paidAt: null,
      });
      expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(link.token);

      const other = await newLink({ terminal: 'otherterm', expiresInDays: 2 });
      expect((await requestRow(other.requestId))?.terminal).toBe('otherterm');
      expect(other.expiresAt.getTime()).toBe(START + 2 * DAY);
    });

    it.each([
      ['amountAgorot', { amountAgorot: 0 }],
      ['amountAgorot', { amountAgorot: 12.5 }],
      ['amountAgorot', { amountAgorot: 100_000_001 }],
      ['maxPayments', { maxPayments: 37 }],
      ['maxPayments', { maxPayments: 0 }],
      ['maxPayments', { amountAgorot: 2, maxPayments: 3 }],
      ['terminal', { terminal: 'bad terminal' }],
      ['patientEmail', { patientEmail: 'not-an-email' }],
      ['patientIdNumber', { patientIdNumber: '03984512<' }],
      ['patientNameRemarks', { patientNameRemarks: 'x'.repeat(201) }],
      ['purpose', { purpose: 'x'.repeat(201) }],
      ['purpose', { purpose: 'כתר\u0007' }],
      ['expiresInDays', { expiresInDays: 366 }],
    ] as const)('refuses a bad %s, naming it', async (field, input) => {
      await expect(newLink(input)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(new RegExp(`^${field} `)),
      });
    });

    it('needs a terminal when the clinic has none, and a clinic', async () => {
      await db.update(clinics).set({ cardTerminal: null }).where(eq(clinics.id, clinicId));
      await expect(newLink()).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('terminal is required'),
      });
      await expect(newLink({ clinicId: 999 })).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('POST /api/get-payment-request', () => {
    it('limits each address to 120 calls a minute, others unaffected', async () => {
      const link = await newLink();
      const from = (remoteAddress: string) =>
        app.inject({
          method: 'POST',
          url: '/api/get-payment-request',
          payload: { token: link.token },
          remoteAddress,
          ...xsrf,
        });
      // One after another, as requests arrive: the in-memory store counts a burst within one tick
      // all at once.
      const answers = [];
      for (let i = 0; i < 121; i++) answers.push(await from('10.9.8.7'));
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(1);
      expect((await from('10.9.8.8')).statusCode).toBe(200);
    });

    it('answers the request’s data, privately, with a handshake pinning the frame to its sum', async () => {
      const link = await newLink();
      const response = await getRequest(link.token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.json()).toEqual({
        data: {
          amount: 1250.5,
          terminal: TERMINAL,
          patientId: '039845128',
          patientNameRemarks: 'דנה לוי',
          patientEmail: 'dana@example.com',
          clinicLogo: '/logos/test.svg',
          numPayments: 3,
          status: 'pending',
          thtk: `thtk_${TERMINAL}_1250_50`,
          chargeRef: expect.stringMatching(/^[\w-]{16}$/),
          clinicName: 'מרפאת הבדיקות',
          clinicId,
          clinicPhone: '03-5550000',
          clinicTimeZone: 'Asia/Jerusalem',
          purpose: '',
          cardProvider: 'sandbox',
          receipt: null,
        },
      });
      expect(provider.requests.map((r) => [r.path, JSON.parse(r.body)])).toEqual([
        ['/v1/handshake/create', { terminal_name: TERMINAL, sum: '1250.50' }],
      ]);
      expect(authProblems).toEqual([]);
    });

    it('says what the payment is for when the clinic set a purpose, never its own description', async () => {
      const link = await newLink({
        purpose: '  טיפול שורש – שן 36 ',
        description: 'הערה פנימית: לגבות לפני הטיפול הבא',
      });
      const answer = await getRequest(link.token);
      expect(answer.json()).toMatchObject({ data: { purpose: 'טיפול שורש – שן 36' } });
      expect(answer.body).not.toContain('הערה פנימית');
      expect(Object.keys(answer.json().data as object)).not.toContain('description');
    });

    it('read for its state alone (the result page rendered on the server): no handshake', async () => {
      const link = await newLink();
      const request = await app.payments.getPaymentRequest(link.token, { pinFrame: false });
      expect(request).toMatchObject({ status: 'pending', amount: 1250.5, thtk: null });
      expect(provider.requests).toEqual([]);
    });

    it('answers no handshake without provider credentials, or with the provider down', async () => {
      const link = await newLink();
      providerDown = 1;
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { thtk: null } });
      await app.payments.setProviderCredentials(db, clinicId, null);
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { thtk: null } });
    });

    it('answers 404 to an unknown, an expired and a cancelled link, saying how a known one ended', async () => {
      const unknown = await getRequest('no-such-token');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'not_found' });
      // Nothing is known of a token no link had.
      expect(unknown.json()).not.toHaveProperty('details');
      expect(unknown.headers['cache-control']).toBe('no-store');

      const link = await newLink();
      now = START + 30 * DAY - 1;
      expect((await getRequest(link.token)).statusCode).toBe(200);
      now = START + 30 * DAY;
      const expired = await getRequest(link.token);
      expect(expired.statusCode).toBe(404);
      // Whose it was and how it ended, for the page to say with the clinic's phone; no more.
      expect(expired.json()).toEqual({
        code: 'not_found',
        message: expect.any(String),
        details: { ended: 'expired', clinicId },
      });

      now = START;
      const cancelled = await newLink();
      await db
        .update(paymentRequests)
        .set({ status: 'cancelled' })
        .where(eq(paymentRequests.id, cancelled.requestId));
      const answer = await getRequest(cancelled.token);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ details: { ended: 'cancelled', clinicId } });
    });

    it('shows a paid request as paid, even after its expiry', async () => {
      const link = await newLink();
      charge('1001');
      expect((await notify(link.token, approved())).statusCode).toBe(200);
      await settle();
      const paid = await getRequest(link.token);
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({
        data: { amount: 1250.5, status: 'paid', patientId: '039845128' },
      });
      now = START + 60 * DAY;
      // Past its expiry the link still says it is paid, no longer who it was for, nor the card.
      expect((await getRequest(link.token)).json()).toMatchObject({
        data: {
          status: 'paid',
          patientId: '',
          patientNameRemarks: '',
          patientEmail: '',
          purpose: '',
          receipt: null,
        },
      });
      expect(await app.payments.getPaymentRequest(link.token, { pinFrame: false })).toMatchObject({
        status: 'paid',
        patientId: '',
        patientNameRemarks: '',
        patientEmail: '',
      });
    });

    it('gives a paid request’s confirmed charge: sum, payments, last 4, confirmation, receipt email', async () => {
      const link = await newLink();
      // A declined card first, then the approved charge in 3 payments the provider confirms.
      expect((await notify(link.token, { ...approved('1000'), Response: '033' })).statusCode).toBe(
        200,
      );
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { receipt: null } });
      charge('2001', { number_of_payments: 3 });
      await notify(link.token, { ...inThree(), email: 'dana.receipts@example.com' });
      // Reported, not yet confirmed: nothing to show as a receipt.
      expect((await getRequest(link.token)).json()).toMatchObject({
        data: { status: 'verifying', receipt: null },
      });
      await settle();
      expect((await getRequest(link.token)).json()).toMatchObject({
        data: {
          status: 'paid',
          receipt: {
            amount: 1250.5,
            payments: 3,
            cardLast4: '4321',
            confirmationCode: '0123456',
            email: 'dana.receipts@example.com',
            // When it was paid: the moment the provider's confirmation arrived.
            paidAt: new Date(now).toISOString(),
          },
        },
      });
    });

    it('gives no receipt for a charge the provider refused', async () => {
      const link = await newLink();
      await notify(link.token, approved());
      await settle();
      expect((await getRequest(link.token)).json()).toMatchObject({
        data: { status: 'pending', receipt: null },
      });
    });

    it('needs the XSRF header like every POST', async () => {
      const link = await newLink();
      const response = await app.inject({
        method: 'POST',
        url: '/api/get-payment-request',
        payload: { token: link.token },
        cookies: xsrf.cookies,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'xsrf' });
    });
  });

  describe('POST /api/notify-payment/:token', () => {
    it('takes an approved callback as a hint: paid once the provider’s API confirms the index', async () => {
      const link = await newLink();
      charge('1001');
      const response = await notify(link.token, approved());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(await requestRow(link.requestId)).toMatchObject({ status: 'verifying', paidAt: null });
      expect((await getRequest(link.token)).json()).toMatchObject({
        data: { status: 'verifying', thtk: null },
      });

      provider.reset();
      now = START + 1000;
      await settle();
      // Server to server, with the clinic's credentials: exactly one lookup of that index.
      expect(provider.requests.map((r) => [r.path, JSON.parse(r.body)])).toEqual([
        ['/v1/transactions', { terminal_name: TERMINAL, transaction_index: '1001' }],
      ]);
      expect(authProblems).toEqual([]);
      const request = await requestRow(link.requestId);
      expect(request?.status).toBe('paid');
      const reference = await refOfToken(link.token);
      expect(request?.paidAt?.getTime()).toBe(START + 1000);
      now = START;
      const [row] = await transactions(link.requestId);
      expect(row).toMatchObject({
        clinicId,
        providerIndex: '1001',
        responseCode: '000',
        confirmationCode: '0123456',
        amountAgorot: 125_050,
        credType: '1',
        payments: 1,
        cardLast4: '4321',
        accepted: true,
        rejectionReason: null,
        verification: 'confirmed',
        providerAnswer: {
          error_code: 0,
          transactions: [{ ...providerCharge('1001'), marpe_ref: reference }],
        },
      });
      expect(row?.receivedAt.getTime()).toBe(START);
      expect(row?.payload).toEqual({
        Response: '000',
        index: '1001',
        ConfirmationCode: '0123456',
        sum: '1250.50',
        currency: '1',
        cred_type: '1',
        supplier: TERMINAL,
        contact: '039845128',
        email: 'dana@example.com',
        remarks: 'דנה לוי',
        marpe_ref: reference,
      });

      // Nothing that looks like a card number, an expiry, a CVV or a card token anywhere.
      const raw = JSON.stringify(
        (await db.execute(sql`SELECT * FROM payment_transactions`)) as unknown,
      );
      expect(raw).not.toMatch(/\d{12,}/);
      for (const secret of ['4580', 'a1b2c3d4', '"123"', 'expmonth', 'mycvv']) {
        expect(raw).not.toContain(secret);
      }
    });

    it('accepts instalments that add up, and JSON bodies', async () => {
      const link = await newLink();
      const reference = await refOfToken(link.token);
      charge('2001', { number_of_payments: 3, marpe_ref: reference });
      const response = await app.inject({
        method: 'POST',
        url: `/api/notify-payment/${link.token}`,
        payload: { ...inThree(), marpe_ref: reference },
      });
      expect(response.statusCode).toBe(200);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
      const [row] = await transactions(link.requestId);
      expect(row).toMatchObject({
        credType: '8',
        payments: 3,
        firstPaymentAgorot: 41_684,
        laterPaymentAgorot: 41_683,
        accepted: true,
      });
    });

    it.each([
      ['a wrong sum', { sum: '1250.49' }, 'sum_mismatch'],
      ['a sum with more decimals', { sum: '1250.500' }, 'sum_mismatch'],
      ['another terminal', { supplier: 'otherterm' }, 'terminal_mismatch'],
      ['no terminal', { supplier: '' }, 'terminal_mismatch'],
      ['another currency', { currency: '2' }, 'currency_mismatch'],
      ['instalments that do not add up', { fpay: '416.85' }, 'instalments_mismatch'],
      [
        'an uneven split adding up otherwise',
        { fpay: '0.50', spay: '625.00' },
        'instalments_mismatch',
      ],
      [
        'more payments than allowed',
        { npay: '3', fpay: '312.64', spay: '312.62' },
        'too_many_payments',
      ],
      ['instalments without a count', { npay: '' }, 'instalments_mismatch'],
      ['another payment type', { cred_type: '6' }, 'cred_type_not_allowed'],
    ])('records but does not pay %s', async (_what, change, reason) => {
      const link = await newLink();
      const response = await notify(link.token, { ...inThree(), ...change });
      expect(response.statusCode).toBe(200);
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      const rows = await transactions(link.requestId);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.accepted).toBe(false);
      expect(rows[0]?.rejectionReason?.split(',')).toContain(reason);
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { status: 'pending' } });
    });

    it('does not let a single payment claim later payments', async () => {
      const link = await newLink();
      await notify(link.token, { ...approved(), npay: '2' });
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]?.rejectionReason).toBe('instalments_mismatch');
    });

    it('refuses instalments on a single-payment request', async () => {
      const link = await newLink({ maxPayments: 1 });
      await notify(link.token, inThree());
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]?.rejectionReason).toBe('too_many_payments');
    });

    it('records a declined card without paying', async () => {
      const link = await newLink();
      const declined: Record<string, string> = { ...approved(), Response: '006' };
      delete declined.ConfirmationCode;
      expect((await notify(link.token, declined)).statusCode).toBe(200);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]).toMatchObject({
        responseCode: '006',
        confirmationCode: null,
        accepted: true,
      });
      // A later approval still pays.
      charge('1002');
      expect((await notify(link.token, approved('1002'))).statusCode).toBe(200);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
    });

    it('never un-pays: a later failure is recorded and ignored', async () => {
      const link = await newLink();
      charge('1');
      await notify(link.token, approved('1'));
      await settle();
      now = START + 60_000;
      expect((await notify(link.token, { ...approved('2'), Response: '004' })).statusCode).toBe(
        200,
      );
      expect((await notify(link.token, { ...approved('3'), sum: '1.00' })).statusCode).toBe(200);
      await settle();
      const request = await requestRow(link.requestId);
      expect(request?.status).toBe('paid');
      expect(request?.paidAt?.getTime()).toBe(START);
      expect((await transactions(link.requestId)).map((t) => t.providerIndex)).toEqual([
        '1',
        '2',
        '3',
      ]);
    });

    it('records ten concurrent replays of one callback once, answering 2xx to each', async () => {
      const link = await newLink();
      charge('777', { number_of_payments: 3 });
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => notify(link.token, inThree('777'))),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      expect(await transactions(link.requestId)).toHaveLength(1);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
      // One state change: one lookup with the provider.
      expect(provider.requests.filter((r) => r.path === '/v1/transactions')).toHaveLength(1);

      // A replay with other values under the same index changes nothing either.
      const other = await newLink();
      await notify(other.token, { ...approved('5'), Response: '006' });
      await notify(other.token, approved('5'));
      await settle();
      expect((await transactions(other.requestId)).map((t) => t.responseCode)).toEqual(['006']);
      expect((await requestRow(other.requestId))?.status).toBe('pending');
    });

    it('pays once when different approvals race', async () => {
      const link = await newLink();
      for (const index of ['a', 'b', 'c', 'd']) charge(index);
      const responses = await Promise.all(
        ['a', 'b', 'c', 'd'].map((index) => notify(link.token, approved(index))),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(await transactions(link.requestId)).toHaveLength(4);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
      // The first confirmed paid it; the other three were confirmed too: duplicates to refund.
      expect((await transactions(link.requestId)).map((t) => t.verification)).toEqual(
        Array(4).fill('confirmed'),
      );
    });

    it('answers 400 naming a missing Response or index, and 404 to an unknown token', async () => {
      const link = await newLink();
      const noResponse = await notify(link.token, { index: '1', sum: '1250.50' });
      expect(noResponse.statusCode).toBe(400);
      expect(noResponse.json<{ message: string }>().message).toContain('Response');
      const noIndex = await notify(link.token, { Response: '000' });
      expect(noIndex.statusCode).toBe(400);
      expect(noIndex.json<{ message: string }>().message).toContain('index');
      const empty = await app.inject({ method: 'POST', url: `/api/notify-payment/${link.token}` });
      expect(empty.statusCode).toBe(400);
      expect(await transactions(link.requestId)).toHaveLength(0);

      const unknown = await notify('no-such-token', approved());
      expect(unknown.statusCode).toBe(404);
    });

    it("lists a clinic's request and its callbacks, and nobody else's", async () => {
      const link = await newLink();
      charge('2');
      await notify(link.token, { ...approved('1'), Response: '006' });
      await notify(link.token, approved('2'));
      await settle();
      const request = await app.payments.findRequest(clinicId, link.requestId);
      expect(request).toMatchObject({ id: link.requestId, status: 'paid', amountAgorot: 125_050 });
      expect(request).not.toHaveProperty('tokenHash');
      const rows = await app.payments.listTransactions(clinicId, link.requestId);
      expect(rows?.map((r) => [r.providerIndex, r.responseCode])).toEqual([
        ['1', '006'],
        ['2', '000'],
      ]);
      expect(await app.payments.findRequest(clinicId + 1, link.requestId)).toBeNull();
      expect(await app.payments.listTransactions(clinicId + 1, link.requestId)).toBeNull();
    });

    it('refuses callbacks for a cancelled link, or one expired over a day ago', async () => {
      const link = await newLink();
      await db
        .update(paymentRequests)
        .set({ status: 'cancelled' })
        .where(eq(paymentRequests.id, link.requestId));
      expect((await notify(link.token, approved())).statusCode).toBe(404);
      expect(await transactions(link.requestId)).toEqual([]);

      const late = await newLink({ expiresInDays: 1 });
      charge('1001');
      now = START + 2 * DAY - 1; // expired, within a day of it: a charge made just before counts
      expect((await notify(late.token, approved())).statusCode).toBe(200);
      now = START + 2 * DAY;
      expect((await notify(late.token, approved('1002'))).statusCode).toBe(404);
      expect(await transactions(late.requestId)).toHaveLength(1);
    });

    it('keeps at most 20 callbacks a link', async () => {
      const link = await newLink();
      for (let i = 0; i < 20; i++) {
        const declined = { ...approved(String(i)), Response: '004' };
        expect((await notify(link.token, declined)).statusCode).toBe(200);
      }
      expect((await notify(link.token, approved('20'))).statusCode).toBe(429);
      expect(await transactions(link.requestId)).toHaveLength(20);
    });
  });

  describe('verification with the provider', () => {
    it('a forged approved callback leaves the request unpaid', async () => {
      const link = await newLink();
      expect((await notify(link.token, approved('9999'))).statusCode).toBe(200);
      await settle();
      expect(await requestRow(link.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(link.requestId))[0]).toMatchObject({
        verification: 'refused',
        providerAnswer: { error_code: 0, transactions: [] },
      });
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { status: 'pending' } });
    });

    it.each([
      ['another sum', { amount: '1.00' }],
      ['another terminal', { terminal_name: 'otherterm' }],
      ['a decline', { processor_response_code: '004' }],
      ['another currency', { currency_code: '2' }],
      ['other instalments', { number_of_payments: 2 }],
    ])('does not pay when the provider reports %s', async (_what, overrides) => {
      const link = await newLink();
      charge('1001', overrides);
      await notify(link.token, approved());
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]?.verification).toBe('refused');
    });

    it('tries again when the provider cannot be reached, then pays', async () => {
      const link = await newLink();
      charge('1001');
      providerDown = 1;
      await notify(link.token, approved());
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('verifying');
      expect((await transactions(link.requestId))[0]?.verification).toBeNull();
      now = START + 60_000; // past the outbox's backoff
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
    });

    it('without provider credentials: recorded as unverifiable, the link stays payable', async () => {
      await app.payments.setProviderCredentials(db, clinicId, null);
      const link = await newLink();
      const response = await notify(link.token, approved());
      expect(response.statusCode).toBe(200);
      await settle();
      expect(provider.requests).toEqual([]);
      expect(await requestRow(link.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(link.requestId))[0]?.verification).toBe('unverifiable');
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { status: 'pending' } });
    });

    it('credentials removed while a charge waits: unverifiable, and the link payable again', async () => {
      const link = await newLink();
      await notify(link.token, approved());
      expect((await requestRow(link.requestId))?.status).toBe('verifying');
      await app.payments.setProviderCredentials(db, clinicId, null);
      await settle();
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]?.verification).toBe('unverifiable');
    });
  });

  describe('one charge pays one request', () => {
    /** Two requests of ₪77, as in the review's repro; the provider charged `index` for ₪77. */
    const twoOf77 = async (index: string, overrides: Record<string, unknown> = {}) => {
      const first = await newLink({ amountAgorot: 7700, maxPayments: 1 });
      const second = await newLink({ amountAgorot: 7700, maxPayments: 1 });
      charge(index, { amount: '77.00', ...overrides });
      return { first, second };
    };
    const of77 = (index: string) => ({ ...approved(index), sum: '77.00' });
    const refOf = async (token: string) =>
      (await getRequest(token)).json<{ data: { chargeRef: string } }>().data.chargeRef;

    it('a charge that paid one request is refused on another, at the callback', async () => {
      const { first, second } = await twoOf77('7001');
      await notify(first.token, of77('7001'));
      await settle();
      expect((await requestRow(first.requestId))?.status).toBe('paid');

      provider.reset();
      const replay = await notify(second.token, of77('7001'));
      expect(replay.statusCode).toBe(200);
      await settle();
      expect(await requestRow(second.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(second.requestId))[0]).toMatchObject({
        accepted: false,
        rejectionReason: 'charge_of_another_request',
        verification: null,
      });
      // Not even asked: the database already says whose charge it is.
      expect(provider.requests).toEqual([]);
    });

    it('two callbacks for one charge on two requests before either is verified: the charged one is paid', async () => {
      const { first, second } = await twoOf77('7002');
      // Made in the first link's frame; reported on the second too, with its own reference.
      await notify(first.token, of77('7002'));
      await notify(second.token, of77('7002'));
      expect((await requestRow(first.requestId))?.status).toBe('verifying');
      expect((await requestRow(second.requestId))?.status).toBe('verifying');
      const [a] = await transactions(first.requestId);
      const [b] = await transactions(second.requestId);
      // Both verifications at once (on PostgreSQL, two connections), in both orders; the
      // reference the provider kept decides, not who is first (test/payment-race.test.ts).
      await Promise.all([app.payments.verify(b?.id ?? 0), app.payments.verify(a?.id ?? 0)]);
      expect((await requestRow(first.requestId))?.status).toBe('paid');
      expect((await requestRow(second.requestId))?.status).toBe('pending');
      expect((await transactions(first.requestId))[0]?.verification).toBe('confirmed');
      expect((await transactions(second.requestId))[0]).toMatchObject({
        verification: 'refused',
        rejectionReason: 'reference_mismatch',
      });
      expect(await db.select().from(paymentCharges)).toMatchObject([
        { requestId: first.requestId, chargeRef: await refOf(first.token) },
      ]);
    });

    it('a callback without the reference is refused, never verified, and the clinic told', async () => {
      const { first } = await twoOf77('7007');
      const response = await notify(first.token, of77('7007'), { withReference: false });
      expect(response.statusCode).toBe(200);
      await settle();
      expect(await requestRow(first.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(first.requestId))[0]).toMatchObject({
        accepted: false,
        rejectionReason: 'reference_missing',
        verification: 'unverifiable',
      });
      expect(provider.requests.filter((r) => r.path === '/v1/transactions')).toEqual([]);
      // Declined without one, it is a failed attempt like any other.
      await notify(first.token, { ...of77('7008'), Response: '004' }, { withReference: false });
      expect((await transactions(first.requestId))[1]).toMatchObject({
        accepted: false,
        rejectionReason: 'reference_missing',
        verification: null,
      });
    });

    it('a charge the provider keeps without a reference pays nobody', async () => {
      const { first } = await twoOf77('7009', { marpe_ref: undefined });
      await notify(first.token, of77('7009'));
      expect((await requestRow(first.requestId))?.status).toBe('verifying');
      await settle();
      expect(await requestRow(first.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(first.requestId))[0]).toMatchObject({
        accepted: true,
        verification: 'unverifiable',
        rejectionReason: 'reference_missing',
      });
      expect(await db.select().from(paymentCharges)).toEqual([]);
    });

    it('a charge the provider keeps with another request’s reference never pays this one', async () => {
      const { first, second } = await twoOf77('7003');
      charge('7003', { amount: '77.00', marpe_ref: await refOf(first.token) });
      // The callback carries the forger's own link's reference.
      await notify(second.token, of77('7003'));
      await settle();
      expect((await requestRow(second.requestId))?.status).toBe('pending');
      expect((await transactions(second.requestId))[0]).toMatchObject({
        verification: 'refused',
        rejectionReason: 'reference_mismatch',
      });
      // The request it was made for is paid by it.
      await notify(first.token, of77('7003'));
      await settle();
      expect((await requestRow(first.requestId))?.status).toBe('paid');
    });

    it('a callback naming another request’s reference is not accepted, nor verified', async () => {
      const { first, second } = await twoOf77('7004');
      const forged = { ...of77('7004'), marpe_ref: await refOf(first.token) };
      await notify(second.token, forged);
      await settle();
      expect((await requestRow(second.requestId))?.status).toBe('pending');
      expect((await transactions(second.requestId))[0]).toMatchObject({
        accepted: false,
        rejectionReason: 'reference_mismatch',
        verification: null,
      });
      // With its own reference it pays as before.
      charge('7005', { amount: '77.00', marpe_ref: await refOf(second.token) });
      await notify(second.token, { ...of77('7005'), marpe_ref: await refOf(second.token) });
      await settle();
      expect((await requestRow(second.requestId))?.status).toBe('paid');
    });

    it('each request has its own reference, sent to nobody but its link', async () => {
      const { first, second } = await twoOf77('7006');
      const refs = [await refOf(first.token), await refOf(second.token)];
      expect(refs[0]).toMatch(/^[\w-]{16}$/);
      expect(refs[0]).not.toBe(refs[1]);
      const listed = await app.payments.findRequest(clinicId, first.requestId);
      expect(listed).not.toHaveProperty('chargeRef');
    });
  });

  describe('the provider’s return address', () => {
    const results = (location: string | undefined, token: string) => {
      const prefix = `/tranzila/${token}?results=`;
      expect(location?.startsWith(prefix)).toBe(true);
      return decodeURIComponent(location?.slice(prefix.length) ?? '');
    };

    it('turns a GET into a 303 to the result page, without card data', async () => {
      const token = 'tok_en-1';
      const query = new URLSearchParams({
        ccno: '4321',
        Response: '036',
        index: '9',
        expmonth: '12',
        sum: '1250.50',
        note: '4580 1234 1234 1234',
        remarks: 'דנה & לוי',
      });
      const response = await app.inject({
        method: 'GET',
        url: `/api/payment-return/${token}?${query.toString()}`,
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(
        `/tranzila/${token}?results=${encodeURIComponent(
          'Response=036&index=9&sum=1250.50&remarks=%D7%93%D7%A0%D7%94+%26+%D7%9C%D7%95%D7%99',
        )}`,
      );
      expect(parsePaymentResults(results(response.headers.location, token))).toEqual({
        Response: '036',
        index: '9',
        sum: '1250.50',
        remarks: 'דנה & לוי',
      });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    });

    it('turns a form POST into the same 303, without XSRF', async () => {
      const token = 'tok_en-2';
      const response = await app.inject({
        method: 'POST',
        url: `/api/payment-return/${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        payload: new URLSearchParams(approved()).toString(),
      });
      expect(response.statusCode).toBe(303);
      const pairs = parsePaymentResults(results(response.headers.location, token));
      expect(pairs).toEqual({
        Response: '000',
        index: '1001',
        ConfirmationCode: '0123456',
        sum: '1250.50',
        currency: '1',
        cred_type: '1',
        supplier: TERMINAL,
        contact: '039845128',
        email: 'dana@example.com',
        remarks: 'דנה לוי',
      });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    });
  });

  describe('headers of the payment pages', () => {
    it('lets our own page frame the result page only', async () => {
      const result = await app.inject({
        method: 'GET',
        url: '/tranzila/some-token?results=Response%3D000',
        headers: { accept: 'text/html' },
      });
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(result.headers['content-security-policy']).toMatch(/;frame-ancestors 'self'$/);
      expect(result.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(result.headers['referrer-policy']).toBe('no-referrer');

      const page = await app.inject({
        method: 'GET',
        url: '/p/some-token',
        headers: { accept: 'text/html' },
      });
      expect(page.headers['content-security-policy']).toMatch(/;frame-ancestors 'none'$/);
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).toContain(
        // On our own origin: a path, reached by whatever name the page was opened with.
        '<meta name="marpe-card-frame-base" content="/api/sandbox">',
      );
    });

    it("lets the configured card frame's origin into frame-src", async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['content-security-policy']).toContain(`;frame-src 'self' ${ORIGIN};`);
      const other = await buildTestApp(database.current.handle, {
        config: testConfig({ CARD_FRAME_BASE_URL: 'https://frames.example.com:8443/tranzila' }),
        outboxPollIntervalMs: 3_600_000,
      });
      try {
        const health = await other.inject({ method: 'GET', url: '/api/health' });
        expect(health.headers['content-security-policy']).toContain(
          ";frame-src 'self' https://frames.example.com:8443;",
        );
      } finally {
        await other.close();
      }
    });
  });

  describe('the demo card sandbox', () => {
    // An app whose provider API is the sandbox's own (the demo's default), which confirms the
    // charges its frame made with the demo credentials.
    let sandbox: App;
    beforeAll(async () => {
      sandbox = await buildTestApp(database.current.handle, {
        config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
        clock: () => now,
        outboxPollIntervalMs: 3_600_000,
        webDistDir,
      });
      await sandbox.ready();
    });
    afterAll(async () => {
      await sandbox.close();
    });
    const frameUrl = (token: string, payments: number, chargeRef?: string) => {
      const url = new URL(
        buildCardFrameUrl({
          baseUrl: `${ORIGIN}/api/sandbox`,
          terminal: TERMINAL,
          amountAgorot: 125_050,
          payments,
          email: 'dana@example.com',
          patientId: '039845128',
          remarks: 'דנה לוי',
          publicOrigin: ORIGIN,
          token,
          chargeRef,
        }),
      );
      return { path: `${url.pathname}${url.search}`, params: url.searchParams };
    };

    const pay = (params: URLSearchParams, card: string) => {
      const form = new URLSearchParams(params);
      form.set('card', card);
      return sandbox.inject({
        method: 'POST',
        url: `/api/sandbox/${TERMINAL}/iframenew.php`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
    };

    it('shows a test page with the sum, the instalments and the email', async () => {
      const link = await newLink();
      const response = await sandbox.inject({ method: 'GET', url: frameUrl(link.token, 3).path });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['content-security-policy']).toMatch(/;frame-ancestors 'self'$/);
      const html = response.body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
      expect(html).toContain('<title>');
      // A named main landmark: axe counts landmarks across the frame and the page around it.
      expect(html).toContain('<main aria-labelledby="sandbox-heading">');
      expect(html).toContain('<h1 id="sandbox-heading">דף תשלום לבדיקה – אין חיוב אמיתי</h1>');
      expect(html).toContain('₪1,250.50');
      expect(html).toContain('3 תשלומים');
      expect(html).toContain('₪416.84');
      expect(html).toContain('₪416.83');
      expect(html).toContain('dana@example.com');
      expect(html).toContain(`action="/api/sandbox/${TERMINAL}/iframenew.php"`);
      expect(html).toContain('<legend>כרטיס לבדיקה</legend>');
      for (const code of ['000', '006', '033', '036', '004']) {
        expect(html).toContain(`id="card-${code}" value="${code}"`);
        expect(html).toContain(`<label for="card-${code}">`);
      }
      expect(html).toContain('<button type="submit">תשלום</button>');
      expect(html).not.toMatch(/<script|\son[a-z]+=/i);
      // The parameters travel on as hidden fields.
      expect(html).toContain('<input type="hidden" name="npay" value="2">');
      expect(html).toContain(
        `<input type="hidden" name="notify_url_address" value="${ORIGIN}/api/notify-payment/${link.token}">`,
      );

      const single = await sandbox.inject({ method: 'GET', url: frameUrl(link.token, 1).path });
      expect(single.body).toContain('תשלום אחד');
    });

    it('refuses parameters the provider would refuse, and foreign addresses', async () => {
      const link = await newLink();
      const { params } = frameUrl(link.token, 3);
      const broken = new URLSearchParams(params);
      broken.set('fpay', '1.00');
      const bad = await sandbox.inject({
        method: 'GET',
        url: `/api/sandbox/${TERMINAL}/iframenew.php?${broken.toString()}`,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(bad.body).toContain('fpay');

      const foreign = new URLSearchParams(params);
      foreign.set('notify_url_address', `https://evil.example/api/notify-payment/${link.token}`);
      const refused = await pay(foreign, '000');
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('notify_url_address');
      const elsewhere = new URLSearchParams(params);
      elsewhere.set('notify_url_address', `${ORIGIN}/api/get-payment-request`);
      expect((await pay(elsewhere, '000')).statusCode).toBe(400);
      const openRedirect = new URLSearchParams(params);
      openRedirect.set('success_url_address', 'https://evil.example/');
      expect((await pay(openRedirect, '000')).statusCode).toBe(400);
      expect((await pay(params, '999')).statusCode).toBe(400);
      expect(await transactions(link.requestId)).toHaveLength(0);
    });

    it('pays end to end with the approving card', async () => {
      const link = await newLink();
      const { params } = frameUrl(link.token, 3, await refOfToken(link.token));
      const response = await pay(params, '000');
      expect(response.statusCode).toBe(303);
      const location = new URL(response.headers.location ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(
        `${ORIGIN}/api/payment-return/${link.token}`,
      );
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        Response: '000',
        index: expect.stringMatching(/^\d+$/),
        ConfirmationCode: expect.stringMatching(/^\d{7}$/),
        sum: '1250.50',
        cred_type: '8',
        npay: '2',
        fpay: '416.84',
        spay: '416.83',
      });

      await sandbox.outbox.runOnce();
      expect((await requestRow(link.requestId))?.status).toBe('paid');
      const [row] = await transactions(link.requestId);
      expect(row).toMatchObject({
        responseCode: '000',
        accepted: true,
        payments: 3,
        cardLast4: '1111',
        providerIndex: location.searchParams.get('index'),
      });
      expect(row?.payload).not.toHaveProperty('ccno');
      expect(row?.payload).not.toHaveProperty('expmonth');

      // The browser follows to our return address, and on to the result page.
      const back = await sandbox.inject({
        method: 'GET',
        url: `${location.pathname}${location.search}`,
      });
      expect(back.statusCode).toBe(303);
      const results = new URL(back.headers.location ?? '', ORIGIN).searchParams.get('results');
      expect(parsePaymentResults(results ?? '')).toMatchObject({
        Response: '000',
        index: location.searchParams.get('index'),
        npay: '2',
      });
      expect((await getRequest(link.token)).json()).toMatchObject({ data: { status: 'paid' } });
    });

    it('the review’s repro: a sandbox charge of one ₪77 request replayed on another pays nothing', async () => {
      const first = await newLink({ amountAgorot: 7700, maxPayments: 1 });
      const second = await newLink({ amountAgorot: 7700, maxPayments: 1 });
      const chargeRef = (await getRequest(first.token)).json<{ data: { chargeRef: string } }>().data
        .chargeRef;
      const url = new URL(
        buildCardFrameUrl({
          baseUrl: `${ORIGIN}/api/sandbox`,
          terminal: TERMINAL,
          amountAgorot: 7700,
          payments: 1,
          email: 'dana@example.com',
          patientId: '039845128',
          remarks: 'דנה לוי',
          publicOrigin: ORIGIN,
          token: first.token,
          chargeRef,
        }),
      );
      const paid = await pay(url.searchParams, '000');
      const index = new URL(paid.headers.location ?? '').searchParams.get('index') ?? '';
      await sandbox.outbox.runOnce();
      expect((await requestRow(first.requestId))?.status).toBe('paid');
      expect((await transactions(first.requestId))[0]?.payload).toMatchObject({
        marpe_ref: chargeRef,
      });

      const forged = await sandbox.inject({
        method: 'POST',
        url: `/api/notify-payment/${second.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `Response=000&index=${index}&sum=77.00&currency=1&cred_type=1&supplier=${TERMINAL}`,
      });
      expect(forged.statusCode).toBe(200);
      await sandbox.outbox.runOnce();
      expect(await requestRow(second.requestId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await transactions(second.requestId))[0]?.rejectionReason?.split(',')).toEqual([
        'reference_missing',
        'charge_of_another_request',
      ]);
    });

    it('a sandbox charge from a frame stripped of its reference pays nothing', async () => {
      const link = await newLink();
      const { params } = frameUrl(link.token, 1);
      expect(params.has('marpe_ref')).toBe(false);
      expect((await pay(params, '000')).statusCode).toBe(303);
      await sandbox.outbox.runOnce();
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]).toMatchObject({
        rejectionReason: 'reference_missing',
        verification: 'unverifiable',
      });
    });

    it('leaves the request unpaid with a failing card and sends the frame to the fail address', async () => {
      const link = await newLink();
      const { params } = frameUrl(link.token, 1);
      params.set('fail_url_address', `${ORIGIN}/api/payment-return/${link.token}?failed=1`);
      const response = await pay(params, '006');
      expect(response.statusCode).toBe(303);
      const location = new URL(response.headers.location ?? '');
      expect(location.searchParams.get('failed')).toBe('1');
      expect(location.searchParams.get('Response')).toBe('006');
      expect(location.searchParams.has('ConfirmationCode')).toBe(false);
      expect((await requestRow(link.requestId))?.status).toBe('pending');
      expect((await transactions(link.requestId))[0]).toMatchObject({
        responseCode: '006',
        cardLast4: '2222',
      });
    });

    it('works when the page is reached by another name than PUBLIC_ORIGIN', async () => {
      const link = await newLink();
      const local = 'http://127.0.0.1:4123';
      const url = new URL(
        buildCardFrameUrl({
          baseUrl: `${local}/api/sandbox`,
          terminal: TERMINAL,
          amountAgorot: 125_050,
          payments: 1,
          email: 'dana@example.com',
          patientId: '039845128',
          remarks: 'דנה לוי',
          publicOrigin: local,
          token: link.token,
          chargeRef: await refOfToken(link.token),
        }),
      );
      const headers = { host: '127.0.0.1:4123' };
      const page = await sandbox.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers,
      });
      expect(page.statusCode).toBe(200);
      const form = new URLSearchParams(url.searchParams);
      form.set('card', '000');
      const paid = await sandbox.inject({
        method: 'POST',
        url: url.pathname,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toMatch(
        new RegExp(`^${local}/api/payment-return/${link.token}\\?Response=000&`),
      );
      await sandbox.outbox.runOnce();
      expect((await requestRow(link.requestId))?.status).toBe('paid');

      // Any other name is still refused.
      const elsewhere = await sandbox.inject({
        method: 'POST',
        url: url.pathname,
        headers: { host: 'other.example', 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      expect(elsewhere.statusCode).toBe(400);
    });

    it('shows an error page when our notify address refuses the callback', async () => {
      const link = await newLink();
      const { params } = frameUrl('no-such-token', 1);
      const response = await pay(params, '000');
      expect(response.statusCode).toBe(502);
      expect(response.body).toContain('404');
      expect(await transactions(link.requestId)).toHaveLength(0);
    });
  });
});

describe.each(engines)('payments outside demo mode, and demo links (%s)', (engine) => {
  const database = useTestDatabase(engine);

  it('has no sandbox without demo mode, and points the frame at Tranzila', async () => {
    const plain = await buildTestApp(database.current.handle, {
      config: testConfig(nonDemoEnv),
      outboxPollIntervalMs: 3_600_000,
    });
    try {
      await plain.ready();
      const page = await plain.inject({
        method: 'GET',
        url: '/api/sandbox/marpedemo/iframenew.php?sum=1.00',
      });
      expect(page.statusCode).toBe(404);
      const post = await plain.inject({
        method: 'POST',
        url: '/api/sandbox/marpedemo/iframenew.php',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'sum=1.00&card=000',
      });
      expect(post.statusCode).toBe(404);
      expect(page.headers['content-security-policy']).toContain(
        ";frame-src 'self' https://direct.tranzila.com;",
      );
    } finally {
      await plain.close();
    }
  });

  it('makes no link for a clinic whose charges it cannot confirm (no provider credentials)', async () => {
    const plain = await buildTestApp(database.current.handle, {
      config: testConfig(nonDemoEnv),
      outboxPollIntervalMs: 3_600_000,
    });
    try {
      await plain.ready();
      const db = database.current.handle.db;
      const [clinic] = await db
        .insert(clinics)
        .values({ ...clinicRow('מרפאה בלי ספק'), cardTerminal: TERMINAL })
        .returning({ id: clinics.id });
      const clinicId = clinic?.id ?? 0;
      const input = { clinicId, amountAgorot: 7700 };
      const refused = await plain.payments.createLink(input).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        status: 400,
        code: 'validation_failed',
        details: { issues: [{ path: 'payment_provider' }] },
      });
      expect((refused as Error).message).toContain('PUT /api/integration/payment-provider');
      expect(await db.select().from(paymentRequests)).toEqual([]);

      await plain.payments.setProviderCredentials(db, clinicId, CREDENTIALS);
      const link = await plain.payments.createLink(input);
      expect(link.url).toMatch(/\/p\/[\w-]{43}$/);
      // The page names the clinic's card provider, not the demo's sandbox.
      expect(await plain.payments.getPaymentRequest(link.token, { pinFrame: false })).toMatchObject(
        { cardProvider: 'tranzila', clinicName: 'מרפאה בלי ספק' },
      );
    } finally {
      await plain.close();
    }
  });

  it('seeds the demo terminal, and POST /api/dev/demo-links mints a working payment link', async () => {
    await seedDemoClinic(database.current.handle.db, { now: START });
    const db = database.current.handle.db;
    const terminalOf = async () =>
      (
        await db
          .select({ t: clinics.cardTerminal })
          .from(clinics)
          .where(eq(clinics.id, DEMO_CLINIC_ID))
      )[0]?.t;
    expect(await terminalOf()).toBe(DEMO_CARD_TERMINAL);
    // A database seeded before payments: the terminal is added, once.
    await db.update(clinics).set({ cardTerminal: null }).where(eq(clinics.id, DEMO_CLINIC_ID));
    expect(await ensureDemoCardTerminal(db)).toBe(true);
    expect(await ensureDemoCardTerminal(db)).toBe(true);
    expect(await terminalOf()).toBe(DEMO_CARD_TERMINAL);

    const demo = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://demo.example' }),
      clock: () => START,
      outboxPollIntervalMs: 3_600_000,
    });
    try {
      await demo.ready();
      // As the server's start-up does: the demo clinic gets the sandbox's API credentials.
      await ensureDemoProviderCredentials(db, demo.payments);
      const xsrf = await xsrfPair(demo);
      const response = await demo.inject({ method: 'POST', url: '/api/dev/demo-links', ...xsrf });
      expect(response.statusCode).toBe(200);
      const { paymentUrl } = response.json<{ paymentUrl: string }>();
      expect(paymentUrl).toMatch(/^https:\/\/demo\.example\/p\/[\w-]{43}$/);
      const token = paymentUrl.split('/p/')[1] ?? '';
      const request = await demo.inject({
        method: 'POST',
        url: '/api/get-payment-request',
        payload: { token },
        ...xsrf,
      });
      expect(request.json()).toEqual({
        data: {
          amount: 1250.5,
          terminal: DEMO_CARD_TERMINAL,
          patientId: '039845128',
          patientNameRemarks: 'דנה לוי',
          patientEmail: 'dana@example.com',
          clinicLogo: '/demo/clinic-logo.svg',
          numPayments: 3,
          status: 'pending',
          // The sandbox's handshake: its frame then takes this sum only.
          thtk: expect.stringMatching(/^[\w-]{20,}$/),
          chargeRef: expect.stringMatching(/^[\w-]{16}$/),
          clinicName: demoClinic.name,
          clinicId: expect.any(Number),
          clinicPhone: demoClinic.phone,
          clinicTimeZone: 'Asia/Jerusalem',
          purpose: 'טיפול שורש – שן 36',
          cardProvider: 'sandbox',
          receipt: null,
        },
      });
    } finally {
      await demo.close();
    }
  });
});
