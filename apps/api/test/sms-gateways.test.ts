// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createHmac } from 'node:crypto';
import { META_GRAPH_VERSION, withIdCheckDigit } from '@marpe/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { createInforuSmsProvider } from '../src/modules/messaging/inforu-sms-provider.js';
import { createTwilioSmsProvider } from '../src/modules/messaging/twilio-sms-provider.js';
import { saveConnection, whatsappTokenKey } from '../src/modules/messaging/whatsapp-connections.js';
import { messageDeliveries, outbox } from '../src/platform/db/schema.js';
import { insertClinics } from './fixtures.js';
import { engines, testConfig, testDataKey, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type LoopbackAnswer } from './loopback.js';

const NOW = Date.parse('2027-03-01T09:00:00Z');
const ORIGIN = 'https://marpe.example';
const ACCOUNT_SID = `AC${'1a'.repeat(16)}`;
const AUTH_TOKEN = 'f'.repeat(8) + '0123456789abcdef' + '9'.repeat(8);
const SERVICE_SID = `MG${'2b'.repeat(16)}`;
const API_KEY_SID = `SK${'3c'.repeat(16)}`;
const API_KEY_SECRET = 'Secret0123456789Secret0123456789';
const INFORU_USER = 'marpe-clinic';
const INFORU_TOKEN = '6f1d2c3b-aaaa-4bbb-8ccc-0123456789ab';
const METRICS_TOKEN = 'metrics-token-0123456789';
const MESSAGES_PATH = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;
const sid = (n: number) => `SM${n.toString(16).padStart(32, '0')}`;

type Provider = 'twilio' | 'inforu' | 'graph';

/**
 * One loopback standing in for Twilio, InforU and Meta's Graph API (by path). Each answers what
 * its queue says, else success as its documentation shows it; `null` in a queue never answers.
 */
async function startFakes() {
  const queued: Record<Provider, (LoopbackAnswer | null)[]> = { twilio: [], inforu: [], graph: [] };
  let twilioSids = 0;
  const server = await startLoopback((request) => {
    const provider: Provider = request.path.startsWith('/2010-04-01/')
      ? 'twilio'
      : request.path === '/SendMessageXml.ashx'
        ? 'inforu'
        : 'graph';
    if (queued[provider].length > 0) return queued[provider].shift() ?? null;
    if (provider === 'twilio') {
      twilioSids += 1;
      // Twilio's 201 Created: the Message resource, its sid and status among the fields.
      return {
        status: 201,
        body: { sid: sid(twilioSids), status: 'accepted', account_sid: ACCOUNT_SID },
      };
    }
    if (provider === 'inforu') {
      return {
        status: 200,
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: '<Result><Status>1</Status><Description>Message accepted successfully</Description><NumberOfRecipients>1</NumberOfRecipients></Result>',
      };
    }
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.fallback' }] },
    };
  });
  return {
    ...server,
    queued,
    of: (provider: Provider) =>
      server.requests.filter((r) =>
        provider === 'twilio'
          ? r.path.startsWith('/2010-04-01/')
          : provider === 'inforu'
            ? r.path === '/SendMessageXml.ashx'
            : r.path.endsWith('/messages'),
      ),
    reset() {
      server.reset();
      twilioSids = 0;
      for (const list of Object.values(queued)) list.length = 0;
    },
  };
}

let fakes: Awaited<ReturnType<typeof startFakes>>;
beforeAll(async () => {
  fakes = await startFakes();
});
afterAll(async () => {
  await fakes.close();
});
beforeEach(() => {
  fakes.reset();
});

const twilioError = (status: number, code: number, message: string): LoopbackAnswer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
const inforuStatus = (status: number, description: string): LoopbackAnswer => ({
  status: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: `<Result><Status>${status}</Status><Description>${description}</Description><NumberOfRecipients>0</NumberOfRecipients></Result>`,
});

/** Twilio's documented signature, written here on its own: URL, then sorted name+value pairs. */
function signTwilio(url: string, params: Record<string, string>, token = AUTH_TOKEN): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((name) => name + params[name])
      .join('');
  return createHmac('sha1', token).update(data).digest('base64');
}

describe('Twilio and InforU adapters (no database)', () => {
  it('Twilio: an API key pair and a sender number instead of a Messaging Service', async () => {
    const provider = createTwilioSmsProvider({
      apiBaseUrl: fakes.origin,
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiKey: { sid: API_KEY_SID, secret: API_KEY_SECRET },
      messagingServiceSid: null,
      sender: '+972559990000',
      statusCallbackUrl: `${ORIGIN}/api/sms/twilio/status`,
    });
    await expect(provider.send({ to: '0521234567', body: 'שלום' })).resolves.toEqual({
      provider: 'twilio',
      providerMessageId: sid(1),
    });
    const [request] = fakes.of('twilio');
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${API_KEY_SID}:${API_KEY_SECRET}`).toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      To: '+972521234567',
      Body: 'שלום',
      From: '+972559990000',
      StatusCallback: `${ORIGIN}/api/sms/twilio/status`,
    });
  });

  it('Twilio and InforU: no answer in time is retried, naming no recipient', async () => {
    fakes.queued.twilio.push(null);
    fakes.queued.inforu.push(null);
    const twilio = createTwilioSmsProvider({
      apiBaseUrl: fakes.origin,
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiKey: null,
      messagingServiceSid: SERVICE_SID,
      sender: null,
      statusCallbackUrl: `${ORIGIN}/api/sms/twilio/status`,
      timeoutMs: 100,
    });
    const inforu = createInforuSmsProvider({
      apiBaseUrl: fakes.origin,
      username: INFORU_USER,
      apiToken: INFORU_TOKEN,
      sender: 'Marpe',
      deliveryNotificationUrl: `${ORIGIN}/api/sms/inforu/delivery`,
      timeoutMs: 100,
    });
    const twilioSend = twilio.send({ to: '0521234567', body: 'x' });
    await expect(twilioSend).rejects.toThrow('Twilio unreachable: no answer in time');
    await expect(twilioSend).rejects.not.toHaveProperty('permanent', true);
    await expect(inforu.send({ to: '0521234567', body: 'x' })).rejects.toThrow(
      'InforU unreachable: no answer in time',
    );
  });
});

describe.each(engines)('SMS gateways (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  const db = () => database.current.handle.db;

  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
  });

  const build = (env: Record<string, string>) =>
    buildApp({
      config: testConfig({
        DEMO: 'false',
        PUBLIC_ORIGIN: ORIGIN,
        METRICS_TOKEN,
        GRAPH_API_BASE_URL: fakes.origin,
        ...env,
      }),
      database: database.current.handle,
      dataKey: testDataKey,
      webDistDir: null,
      clock: () => now,
      outboxPollIntervalMs: 3600_000,
    });

  const outboxRows = () => db().select().from(outbox).orderBy(asc(outbox.id));
  const deliveries = () => db().select().from(messageDeliveries).orderBy(asc(messageDeliveries.id));

  async function queueCode(app: App, to = '0501234567') {
    await app.messaging.queueCode(db(), {
      to,
      body: 'קוד הכניסה שלך: 482913',
      expiresAt: new Date(now + 5 * 60_000),
      deliveryRef: 'challenge-hash-1',
    });
    await app.messaging.runOutbox();
  }

  /** A clinic whose WhatsApp number is connected (messages still sent by SMS unless asked). */
  async function clinicWithWhatsApp(): Promise<number> {
    const [clinicId] = await insertClinics(db(), ['מרפאת הגפן']);
    await saveConnection(db(), whatsappTokenKey(testDataKey), clinicId, {
      wabaId: '1001',
      phoneNumberId: '2002',
      businessId: '3003',
      connectedAt: new Date(now),
      accessToken: 'EAAG-clinic-token',
    });
    return clinicId;
  }

  describe('SMS_PROVIDER=twilio', () => {
    let app: App;
    beforeAll(async () => {
      app = await build({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_MESSAGING_SERVICE_SID: SERVICE_SID,
        TWILIO_API_BASE: fakes.origin,
      });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    const callback = (params: Record<string, string>, signature?: string) =>
      app.inject({
        method: 'POST',
        url: '/api/sms/twilio/status',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature === undefined ? {} : { 'x-twilio-signature': signature }),
        },
        payload: new URLSearchParams(params).toString(),
      });
    /** A status callback as Twilio sends it, signed. */
    const status = (messageSid: string, messageStatus: string, errorCode?: string) => {
      const params: Record<string, string> = {
        AccountSid: ACCOUNT_SID,
        ApiVersion: '2010-04-01',
        From: '+972559990000',
        MessageSid: messageSid,
        MessageStatus: messageStatus,
        SmsSid: messageSid,
        SmsStatus: messageStatus,
        To: '+972501234567',
        ...(errorCode ? { ErrorCode: errorCode } : {}),
      };
      return callback(params, signTwilio(`${ORIGIN}/api/sms/twilio/status`, params));
    };

    it('sends the exact request of the Messages resource and records the message as sent', async () => {
      await queueCode(app);
      const requests = fakes.of('twilio');
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe(MESSAGES_PATH);
      expect(request?.headers.authorization).toBe(
        `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
      );
      expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
        To: '+972501234567',
        Body: 'קוד הכניסה שלך: 482913',
        MessagingServiceSid: SERVICE_SID,
        StatusCallback: `${ORIGIN}/api/sms/twilio/status`,
      });
      expect(await outboxRows()).toMatchObject([{ status: 'sent', payload: null }]);
      const rows = await deliveries();
      expect(rows).toMatchObject([
        {
          provider: 'twilio',
          providerMessageId: sid(1),
          kind: 'login_code',
          ref: 'challenge-hash-1',
          state: 'sent',
          errorCode: null,
          fallback: null,
        },
      ]);
      // Neither the number nor the text is kept.
      expect(JSON.stringify(rows)).not.toMatch(/0501234567|972501234567|482913/);
    });

    it('gives up at once on a permanent error (400, 21211 invalid number) and records it', async () => {
      fakes.queued.twilio.push(
        twilioError(400, 21211, "The 'To' number +972501234567 is not a valid phone number."),
      );
      await queueCode(app);
      expect(await outboxRows()).toMatchObject([
        {
          status: 'failed',
          attempts: 1,
          lastError: 'SmsRefused: Twilio answered 400 (error 21211)',
        },
      ]);
      expect(await deliveries()).toMatchObject([
        { provider: 'twilio', providerMessageId: null, state: 'failed', errorCode: '21211' },
      ]);
      now += 3600_000;
      expect(await app.messaging.runOutbox()).toBe(0);
      expect(fakes.of('twilio')).toHaveLength(1);
    });

    it('gives up at once on 21610 (the recipient unsubscribed)', async () => {
      fakes.queued.twilio.push(
        twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
      );
      await queueCode(app);
      expect(await outboxRows()).toMatchObject([{ status: 'failed', attempts: 1 }]);
    });

    it.each([
      ['401 (credentials)', twilioError(401, 20003, 'Authenticate')],
      ['429 (too many requests)', twilioError(429, 20429, 'Too Many Requests')],
      ['500 (Twilio down)', { status: 500, body: 'Internal Server Error' }],
      ['400 for the sender settings (21606)', twilioError(400, 21606, 'From is not valid')],
    ])('retries later on %s, then sends', async (_name, answer) => {
      fakes.queued.twilio.push(answer as LoopbackAnswer);
      await queueCode(app);
      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row?.lastError).toMatch(/^SmsRefused: Twilio answered \d{3}/);
      expect(await deliveries()).toEqual([]);
      now = (row?.nextAttemptAt.getTime() ?? now) + 1;
      await app.messaging.runOutbox();
      expect(await outboxRows()).toMatchObject([{ status: 'sent', attempts: 2 }]);
      expect(await deliveries()).toMatchObject([{ state: 'sent' }]);
    });

    it('records signed status callbacks, and counts them in metrics', async () => {
      await queueCode(app);
      const sending = await status(sid(1), 'sent');
      expect(sending.statusCode).toBe(200);
      expect(sending.json()).toEqual({ status: 'ok' });
      now += 5000;
      expect((await status(sid(1), 'undelivered', '30003')).statusCode).toBe(200);
      expect(await deliveries()).toMatchObject([
        { state: 'undelivered', errorCode: '30003', updatedAt: new Date(now) },
      ]);
      const metrics = await app.metrics?.scrape();
      expect(metrics?.body).toContain(
        'marpe_sms_receipts_total{provider="twilio",state="undelivered"} 1',
      );
      expect(metrics?.body).toMatch(
        /marpe_sms_receipts_total\{provider="twilio",state="sent"\} \d/,
      );
    });

    it('refuses a callback unsigned, badly signed, signed for another URL or altered: 403', async () => {
      await queueCode(app);
      const params = { MessageSid: sid(1), MessageStatus: 'delivered' };
      const good = signTwilio(`${ORIGIN}/api/sms/twilio/status`, params);
      expect((await callback(params)).statusCode).toBe(403);
      expect((await callback(params, 'not-a-signature')).statusCode).toBe(403);
      expect((await callback(params, signTwilio(`${ORIGIN}/other`, params))).statusCode).toBe(403);
      expect(
        (
          await callback(
            params,
            signTwilio(`${ORIGIN}/api/sms/twilio/status`, params, 'e'.repeat(32)),
          )
        ).statusCode,
      ).toBe(403);
      expect((await callback({ ...params, MessageStatus: 'failed' }, good)).statusCode).toBe(403);
      expect(await deliveries()).toMatchObject([{ state: 'sent' }]);
      expect((await callback(params, good)).statusCode).toBe(200);
      expect(await deliveries()).toMatchObject([{ state: 'delivered' }]);
    });

    it('answers 200 and ignores a callback for a message it does not know', async () => {
      const response = await status(sid(999), 'delivered');
      expect(response.statusCode).toBe(200);
      expect(await deliveries()).toEqual([]);
    });

    it('never moves a message backwards: late, repeated or contradicting callbacks', async () => {
      await queueCode(app);
      expect((await status(sid(1), 'delivered')).statusCode).toBe(200);
      const deliveredAt = now;
      now += 1000;
      for (const late of ['queued', 'sent', 'undelivered', 'failed', 'delivered']) {
        expect(
          (await status(sid(1), late, late === 'failed' ? '30008' : undefined)).statusCode,
        ).toBe(200);
      }
      expect(await deliveries()).toMatchObject([
        { state: 'delivered', errorCode: null, updatedAt: new Date(deliveredAt) },
      ]);
    });

    it('lets delivered win over an earlier undelivered (the handset has it)', async () => {
      await queueCode(app);
      await status(sid(1), 'undelivered', '30005');
      await status(sid(1), 'sent');
      expect(await deliveries()).toMatchObject([{ state: 'undelivered', errorCode: '30005' }]);
      await status(sid(1), 'delivered');
      expect(await deliveries()).toMatchObject([{ state: 'delivered', errorCode: null }]);
    });

    describe('a login code that did not arrive', () => {
      const NOA = { idNumber: withIdCheckDigit('20547718'), phone: '0527654321' };

      async function signUp(): Promise<string> {
        const [clinicId] = await insertClinics(db(), ['מרפאת הבדיקות']);
        const xsrf = await xsrfPair(app);
        const response = await app.inject({
          method: 'POST',
          url: '/api/patient-auth/sign-up',
          payload: { clinicId, firstName: 'נועה', lastName: 'כהן', ...NOA },
          ...xsrf,
        });
        expect(response.statusCode).toBe(200);
        return response.json().twoFactorToken as string;
      }
      const delivery = async (twoFactorToken: string) => {
        const xsrf = await xsrfPair(app);
        return app.inject({
          method: 'POST',
          url: '/api/patient-auth/code-delivery',
          payload: { twoFactorToken },
          ...xsrf,
        });
      };

      it('tells the code page when the code was not delivered, with the clinic phone', async () => {
        // Twilio down at first: nothing is known of the code's SMS yet.
        fakes.queued.twilio.push({ status: 503, body: 'Service Unavailable' });
        const token = await signUp();
        await app.messaging.runOutbox();
        expect((await delivery(token)).json()).toEqual({
          delivery: 'pending',
          clinicPhone: '03-5550000',
        });
        now += 60_000;
        await app.messaging.runOutbox();
        expect((await delivery(token)).json()).toMatchObject({ delivery: 'sent' });
        await status(sid(1), 'undelivered', '30003');
        const answer = await delivery(token);
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ delivery: 'not_delivered', clinicPhone: '03-5550000' });
        expect(answer.body).not.toContain(NOA.phone);
      });

      it('tells it at once when the provider refused the number', async () => {
        fakes.queued.twilio.push(twilioError(400, 21211, 'invalid'));
        const token = await signUp();
        await app.messaging.runOutbox();
        expect((await delivery(token)).json()).toMatchObject({ delivery: 'not_delivered' });
      });

      it('says delivered once the receipt says so', async () => {
        const token = await signUp();
        await app.messaging.runOutbox();
        await status(sid(1), 'delivered');
        expect((await delivery(token)).json()).toMatchObject({ delivery: 'delivered' });
      });

      it('answers 400 for an unknown or expired code token', async () => {
        const unknown = await delivery('no-such-token');
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json()).toMatchObject({ code: 'invalid_two_factor_token' });
        const token = await signUp();
        now += 60 * 60_000;
        expect((await delivery(token)).statusCode).toBe(400);
        const missing = await app.inject({
          method: 'POST',
          url: '/api/patient-auth/code-delivery',
          payload: {},
          ...(await xsrfPair(app)),
        });
        expect(missing.statusCode).toBe(400);
      });
    });

    describe('WhatsApp fallback', () => {
      it('queues a clinic message by WhatsApp once when its SMS is undelivered', async () => {
        const clinicId = await clinicWithWhatsApp();
        await app.messaging.queueMessage(db(), {
          clinicId,
          to: '0521112233',
          body: 'התור שלך מחר ב-10:00',
          kind: 'reminder',
          channel: 'sms',
        });
        await app.messaging.runOutbox();
        const [sent] = await deliveries();
        expect(sent).toMatchObject({ state: 'sent', clinicId, kind: 'reminder' });
        expect(sent?.fallback).toMatch(/^v\d+\./);
        expect(sent?.fallback).not.toContain('0521112233');

        await status(sid(1), 'undelivered', '30003');
        await status(sid(1), 'failed', '30003');
        await app.messaging.runOutbox();
        const graphSends = fakes.of('graph');
        expect(graphSends).toHaveLength(1);
        expect(graphSends[0]?.path).toBe(`/${META_GRAPH_VERSION}/2002/messages`);
        expect(JSON.parse(graphSends[0]?.body ?? '')).toMatchObject({
          to: '+972521112233',
          text: { body: 'התור שלך מחר ב-10:00' },
        });
        expect(await deliveries()).toMatchObject([
          { state: 'undelivered', fallback: null, fellBackAt: expect.any(Date) },
        ]);
        expect(fakes.of('twilio')).toHaveLength(1);
      });

      it('sends by WhatsApp at once when Twilio refuses the number for good', async () => {
        const clinicId = await clinicWithWhatsApp();
        fakes.queued.twilio.push(twilioError(400, 21614, 'To number is not a mobile number'));
        await app.messaging.queueMessage(db(), {
          clinicId,
          to: '0521112233',
          body: 'הטופס שלך',
          kind: 'form_link',
          channel: 'sms',
        });
        await app.messaging.runOutbox();
        await app.messaging.runOutbox();
        expect(fakes.of('graph')).toHaveLength(1);
        expect(await outboxRows()).toMatchObject([
          { topic: 'sms', status: 'sent' },
          { topic: 'whatsapp', status: 'sent' },
        ]);
        expect(await deliveries()).toMatchObject([
          { state: 'failed', errorCode: '21614', fellBackAt: expect.any(Date) },
        ]);
      });

      it('never sends a login code by WhatsApp', async () => {
        const clinicId = await clinicWithWhatsApp();
        fakes.queued.twilio.push(twilioError(400, 21211, 'invalid'));
        await app.messaging.queueCode(db(), { clinicId, to: '0521112233', body: 'code 1' });
        await app.messaging.runOutbox();
        await app.messaging.runOutbox();
        expect(fakes.of('graph')).toEqual([]);
        expect(await outboxRows()).toMatchObject([{ topic: 'sms', status: 'failed' }]);
        expect(await deliveries()).toMatchObject([{ state: 'failed', fellBackAt: null }]);
      });

      it('sends by SMS once when Meta refuses a WhatsApp message, and never back again', async () => {
        const clinicId = await clinicWithWhatsApp();
        fakes.queued.graph.push({
          status: 400,
          body: { error: { code: 131026, message: 'Message undeliverable' } },
        });
        fakes.queued.twilio.push(twilioError(400, 21211, 'invalid'));
        await app.messaging.queueMessage(db(), {
          clinicId,
          to: '0521112233',
          body: 'תזכורת',
          kind: 'reminder',
          channel: 'whatsapp',
        });
        for (let i = 0; i < 3; i += 1) await app.messaging.runOutbox();
        expect(fakes.of('graph')).toHaveLength(1);
        expect(fakes.of('twilio')).toHaveLength(1);
        expect(await outboxRows()).toMatchObject([
          { topic: 'whatsapp', status: 'sent' },
          { topic: 'sms', status: 'failed' },
        ]);
      });
    });
  });

  describe('SMS_PROVIDER=inforu', () => {
    let app: App;
    beforeAll(async () => {
      app = await build({
        SMS_PROVIDER: 'inforu',
        INFORU_USERNAME: INFORU_USER,
        INFORU_API_TOKEN: INFORU_TOKEN,
        INFORU_API_BASE: fakes.origin,
        SMS_SENDER: 'Marpe',
      });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    /** The InforuXML document of a request, and the fields Marpe sets in it. */
    function sentXml(index = 0) {
      const request = fakes.of('inforu')[index];
      const xml = new URLSearchParams(request?.body).get('InforuXML') ?? '';
      const field = (name: string) =>
        new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`).exec(xml)?.[1];
      return { request, xml, field };
    }

    /** The delivery notification InforU posts to the URL it was given, with its fields. */
    async function notify(status: string, index = 0, method: 'POST' | 'GET' = 'POST') {
      const { field } = sentXml(index);
      const url = new URL((field('DeliveryNotificationUrl') ?? '').replaceAll('&amp;', '&'));
      const params = new URLSearchParams({
        PhoneNumber: '0501234567',
        Network: '050',
        Status: status,
        StatusDescription: status === '2' ? 'Delivered' : 'Not Delivered',
        CustomerMessageId: field('CustomerMessageId') ?? '',
        CustomerParam: '',
        SenderNumber: 'Marpe',
        SegmentsNumber: '1',
        RetriesNumber: '0',
        NotificationDate: '01/03/2027 11:00:05',
        ActionType: 'Content',
        BillingCodeId: '1',
        Price: '0.00',
      });
      if (method === 'GET') {
        for (const [name, value] of params) url.searchParams.set(name, value);
        return app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      }
      return app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: params.toString(),
      });
    }

    it('sends the documented XML request and records the message as sent', async () => {
      await queueCode(app);
      const { request, field, xml } = sentXml();
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/SendMessageXml.ashx');
      expect(request?.headers['content-type']).toBe(
        'application/x-www-form-urlencoded; charset=utf-8',
      );
      expect(xml.startsWith('<Inforu><User>')).toBe(true);
      expect(field('Username')).toBe(INFORU_USER);
      expect(field('ApiToken')).toBe(INFORU_TOKEN);
      expect(xml).toContain(
        '<Content Type="sms"><Message>קוד הכניסה שלך: 482913</Message></Content>',
      );
      expect(field('PhoneNumber')).toBe('0501234567');
      expect(field('Sender')).toBe('Marpe');
      const customerMessageId = field('CustomerMessageId');
      expect(customerMessageId).toMatch(/^[0-9a-f]{32}$/);
      const notificationUrl = new URL(
        (field('DeliveryNotificationUrl') ?? '').replaceAll('&amp;', '&'),
      );
      expect(`${notificationUrl.origin}${notificationUrl.pathname}`).toBe(
        `${ORIGIN}/api/sms/inforu/delivery`,
      );
      expect(notificationUrl.searchParams.get('sig')).toMatch(/^[\w-]{43}$/);
      expect(await deliveries()).toMatchObject([
        { provider: 'inforu', providerMessageId: customerMessageId, state: 'sent' },
      ]);
    });

    it('escapes the text in the XML', async () => {
      await app.messaging.queueSms(db(), { to: '0501234567', body: 'a < b & "c" > d' });
      await app.messaging.runOutbox();
      expect(sentXml().xml).toContain('<Message>a &lt; b &amp; &quot;c&quot; &gt; d</Message>');
    });

    it('gives up at once when InforU finds no valid recipient (-18)', async () => {
      fakes.queued.inforu.push(inforuStatus(-18, 'WrongRecipients'));
      await queueCode(app);
      expect(await outboxRows()).toMatchObject([
        {
          status: 'failed',
          attempts: 1,
          lastError: 'SmsRefused: InforU refused the message (status -18)',
        },
      ]);
      expect(await deliveries()).toMatchObject([
        { provider: 'inforu', state: 'failed', errorCode: '-18' },
      ]);
    });

    it.each([
      ['-2 (bad user name or token)', inforuStatus(-2, 'BadUserNameOrPassword')],
      ['-13 (quota exceeded)', inforuStatus(-13, 'UserQuotaExceeded')],
      ['HTTP 500', { status: 500, body: 'error' }],
      ['an answer without a status', { status: 200, body: '<html>maintenance</html>' }],
    ])('retries later on %s', async (_name, answer) => {
      fakes.queued.inforu.push(answer as LoopbackAnswer);
      await queueCode(app);
      expect(await outboxRows()).toMatchObject([{ status: 'pending', attempts: 1 }]);
      expect(await deliveries()).toEqual([]);
    });

    it('records delivery notifications (POST or GET), never backwards, and counts them', async () => {
      await queueCode(app);
      expect((await notify('-2')).statusCode).toBe(200);
      expect(await deliveries()).toMatchObject([{ state: 'undelivered', errorCode: '-2' }]);
      expect((await notify('2', 0, 'GET')).statusCode).toBe(200);
      expect((await notify('-2')).statusCode).toBe(200);
      expect(await deliveries()).toMatchObject([{ state: 'delivered', errorCode: null }]);
      const metrics = await app.metrics?.scrape();
      expect(metrics?.body).toContain(
        'marpe_sms_receipts_total{provider="inforu",state="delivered"} 1',
      );
    });

    it('refuses a notification without our signature: 403; unknown ids are 200', async () => {
      await queueCode(app);
      const { field } = sentXml();
      const id = field('CustomerMessageId') ?? '';
      const post = (url: string) =>
        app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ CustomerMessageId: id, Status: '-2' }).toString(),
        });
      expect((await post('/api/sms/inforu/delivery')).statusCode).toBe(403);
      expect((await post('/api/sms/inforu/delivery?sig=forged')).statusCode).toBe(403);
      expect(await deliveries()).toMatchObject([{ state: 'sent' }]);

      // Signed for an id this installation never sent (another's, or pruned): accepted, ignored.
      const other = 'a'.repeat(32);
      const sig = createHmac('sha256', INFORU_TOKEN)
        .update(`inforu-dlr:${other}`)
        .digest('base64url');
      const unknown = await app.inject({
        method: 'POST',
        url: `/api/sms/inforu/delivery?sig=${sig}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ CustomerMessageId: other, Status: '2' }).toString(),
      });
      expect(unknown.statusCode).toBe(200);
      expect(await deliveries()).toMatchObject([{ state: 'sent' }]);
    });
  });

  it('has no receipt routes for another provider', async () => {
    const app = await build({
      SMS_PROVIDER: 'inforu',
      INFORU_USERNAME: INFORU_USER,
      INFORU_API_TOKEN: INFORU_TOKEN,
      INFORU_API_BASE: fakes.origin,
      SMS_SENDER: 'Marpe',
    });
    try {
      const response = await app.inject({ method: 'POST', url: '/api/sms/twilio/status' });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('keeps no delivery for the demo provider', async () => {
    const app = await buildApp({
      config: testConfig(),
      database: database.current.handle,
      dataKey: testDataKey,
      webDistDir: null,
      clock: () => now,
      outboxPollIntervalMs: 3600_000,
    });
    try {
      await app.ready();
      await queueCode(app);
      expect(await deliveries()).toEqual([]);
      expect(await db().select().from(outbox).where(eq(outbox.status, 'sent'))).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
