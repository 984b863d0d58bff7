// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  defaultReminderSettings,
  webhookEndpointSchema,
  webhookEventSchema,
  type FormSchema,
  type WebhookDelivery,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { UsageError } from '../src/cli/args.js';
import {
  formatWebhookDeliveries,
  listWebhookDeliveries,
  parseWebhookDeliveriesArgs,
} from '../src/cli/webhook-deliveries.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import {
  standardWebhookKey,
  standardWebhookSignature,
  webhookSignatureHeader,
} from '../src/modules/webhooks/webhook-signature.js';
import { checkWebhookUrl } from '../src/modules/webhooks/webhook-url.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointmentTypes,
  auditLog,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinics,
  formTemplates,
  outbox,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/platform/db/schema.js';
import { OUTBOX_GIVE_UP_MS, OUTBOX_BACKOFF } from '../src/platform/outbox/outbox.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  testDataKey,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import { startLoopback, type LoopbackRequest } from './loopback.js';
import { bearer, insertLoggedInPatients, type TestPatient } from './sessions.js';
import { dataKeyId } from '../src/platform/crypto.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wednesday 2027-03-24, 10:00 in Israel; Sunday the 28th is past the clocks' change (+03:00). */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const ORIGIN = 'https://marpe.example';
const TIMEOUT_MS = 300;

describe('webhook signature', () => {
  it('is t=<timestamp>,v1=<HMAC-SHA256 of "t.body">, as openssl computes it', () => {
    // printf '%s' '1700000000.{"id":"evt_1","type":"appointment.booked"}' \
    //   | openssl dgst -sha256 -hmac 'whsec_MfKQ9r3GDhwl4kz1Xn2pTq'
    expect(
      webhookSignatureHeader(
        'whsec_MfKQ9r3GDhwl4kz1Xn2pTq',
        1_700_000_000,
        '{"id":"evt_1","type":"appointment.booked"}',
      ),
    ).toBe('t=1700000000,v1=ac080d57acba8b5b131c7f8fb6a31ff1a2efb578894fad31e2056dc96c58400d');
  });

  it('carries one v1 per secret in force, the new one first', () => {
    const body = '{"id":"evt_1"}';
    const [one, two] = ['whsec_MfKQ9r3GDhwl4kz1Xn2pTq', 'whsec_other-secret-0123'].map(
      (secret) => webhookSignatureHeader(secret, 1_700_000_000, body).split(',')[1],
    );
    expect(
      webhookSignatureHeader(
        ['whsec_MfKQ9r3GDhwl4kz1Xn2pTq', 'whsec_other-secret-0123'],
        1_700_000_000,
        body,
      ),
    ).toBe(`t=1700000000,${one},${two}`);
  });
});

describe('Standard Webhooks signature', () => {
  const body = '{"id":"evt_1","type":"appointment.booked"}';
  const at = new Date(1_700_000_000_000);

  it('is what the standardwebhooks library signs, keyed with the base64 part of whsec_', () => {
    // 24 random bytes, as the server generates them.
    const secret = 'whsec_A+OvKm/n1psjc/nz8QdSPupXDILvRz6e';
    expect(standardWebhookKey(secret)).toEqual(
      Buffer.from('A+OvKm/n1psjc/nz8QdSPupXDILvRz6e', 'base64'),
    );
    expect(standardWebhookSignature([secret], 'evt_1', 1_700_000_000, body)).toBe(
      new Webhook(secret).sign('evt_1', at, body),
    );
  });

  it('keys any other secret with its UTF-8 bytes, as the library does with format raw', () => {
    for (const secret of [
      'my-own-secret-0123456789',
      // base64url, as secrets were generated before Standard Webhooks.
      'whsec_3Xz-Qm_8aB0cD1eF2gH3iJ4kL5mN6oP7qR8sT9uV0wX',
      'whsec_abcde',
    ]) {
      expect(standardWebhookKey(secret), secret).toEqual(Buffer.from(secret));
      expect(standardWebhookSignature([secret], 'evt_1', 1_700_000_000, body)).toBe(
        new Webhook(secret, { format: 'raw' }).sign('evt_1', at, body),
      );
    }
  });

  it('separates the signatures of two secrets with a space', () => {
    const [a, b] = ['whsec_A+OvKm/n1psjc/nz8QdSPupXDILvRz6e', 'whsec_MfKQ9r3GDhwl4kz1Xn2pTq'];
    expect(standardWebhookSignature([a, b], 'evt_1', 1_700_000_000, body)).toBe(
      `${new Webhook(a).sign('evt_1', at, body)} ${new Webhook(b).sign('evt_1', at, body)}`,
    );
  });

  it('is the HMAC-SHA256 of "<id>.<timestamp>.<body>" the specification defines, UTF-8 secrets too', () => {
    for (const secret of [
      'whsec_A+OvKm/n1psjc/nz8QdSPupXDILvRz6e',
      'my-own-secret-0123456789',
      // Not ASCII: keyed with its UTF-8 bytes (the library's raw string mode would take UTF-16 units).
      'סוד-של-המרפאה-0123456789',
    ]) {
      const key = secret.startsWith('whsec_')
        ? Buffer.from(secret.slice('whsec_'.length), 'base64')
        : Buffer.from(secret, 'utf8');
      const hmac = createHmac('sha256', key).update(`evt_1.1700000000.${body}`).digest('base64');
      expect(standardWebhookSignature([secret], 'evt_1', 1_700_000_000, body), secret).toBe(
        `v1,${hmac}`,
      );
    }
  });
});

describe('webhook URL', () => {
  const demo = { httpsOnly: false, publicOnly: false };
  const production = { httpsOnly: true, publicOnly: true };

  it('takes http or https outside production, without credentials or fragment', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook?x=1#frag', demo)).toEqual({
      url: 'http://127.0.0.1:8080/hook?x=1',
    });
    expect(checkWebhookUrl('https://hooks.example.com', demo)).toEqual({
      url: 'https://hooks.example.com/',
    });
    expect(checkWebhookUrl('ftp://hooks.example.com/', demo)).toEqual({
      problem: 'Expected an http or https URL',
    });
    expect(checkWebhookUrl('hooks.example.com/x', demo)).toEqual({
      problem: 'Expected an absolute URL',
    });
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', demo)).toMatchObject({
      problem: expect.stringContaining('user name or password'),
    });
  });

  it('takes only https on a public address in production', () => {
    expect(checkWebhookUrl('https://hooks.example.com/marpe', production)).toEqual({
      url: 'https://hooks.example.com/marpe',
    });
    expect(checkWebhookUrl('https://8.8.8.8/marpe', production)).toHaveProperty('url');
    expect(checkWebhookUrl('http://hooks.example.com/marpe', production)).toEqual({
      problem: 'Expected an https URL',
    });
    for (const host of [
      'localhost',
      'api.localhost',
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.10',
      '169.254.169.254',
      '0.0.0.0',
      '[::1]',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      'localhost.',
      'API.LOCALHOST.',
      '203.0.113.7',
      '0x7f.1',
      '[64:ff9b::a00:1]',
      '[2002:c0a8:101::1]',
    ]) {
      expect(checkWebhookUrl(`https://${host}/hook`, production), host).toEqual({
        problem: 'Must be a public address, not a local or private one',
      });
    }
  });
});

describe('webhook-deliveries arguments', () => {
  it('reads the clinic, the status and the limit', () => {
    expect(
      parseWebhookDeliveriesArgs(['--clinic', '3', '--status=failed', '--limit', '5']),
    ).toEqual({ clinicId: 3, status: 'failed', limit: 5 });
    expect(parseWebhookDeliveriesArgs(['--clinic=3'])).toEqual({
      clinicId: 3,
      status: undefined,
      limit: 50,
    });
    expect(parseWebhookDeliveriesArgs(['--clinic', '3', '--help'])).toBe('help');
  });

  it.each([
    [[], '--clinic <id> is required'],
    [['--clinic', 'x'], '--clinic needs a whole number'],
    [['--clinic', '1', '--status', 'sent'], '--status is one of pending, delivered, failed'],
    [['--clinic', '1', '--limit', '1000'], '--limit needs a whole number from 1 to 200'],
    [['--clinic', '1', '--verbose'], 'unknown argument "--verbose"'],
  ])('refuses %j', (args, message) => {
    expect(() => parseWebhookDeliveriesArgs(args)).toThrow(UsageError);
    expect(() => parseWebhookDeliveriesArgs(args)).toThrow(message);
  });
});

interface Received extends LoopbackRequest {
  /** Whether the Marpe-Signature checked out with the secret registered for the path. */
  verified: boolean;
  /** Whether the `standardwebhooks` library accepted the request with that secret. */
  standard: boolean;
}

/**
 * A receiver's Standard Webhooks verifier, as docs/integration.md builds it: a secret that is
 * `whsec_` and base64 as is, any other as its bytes.
 */
function standardVerifier(secret: string): Webhook {
  return /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)
    ? new Webhook(secret)
    : new Webhook(secret, { format: 'raw' });
}

/** The library checks the timestamp against `Date.now()`: the test's clock stands in for it. */
function verifiesWithLibrary(request: LoopbackRequest, secret: string, nowMs: number): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: nowMs });
  try {
    standardVerifier(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A clinic's receiver of the deprecated Marpe-Signature: its own HMAC of `${t}.${body}` with the
 * endpoint's secret, compared in constant time with each `v1`, t within 5 minutes.
 */
function verifySignature(secret: string, header: string, body: string, nowSeconds: number) {
  const parts = header
    .split(',')
    .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] as const);
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = Buffer.from(
    createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'),
  );
  return parts.some(([name, value]) => {
    const given = Buffer.from(value);
    return name === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function startReceiver(nowSeconds: () => number) {
  const requests: Received[] = [];
  const statuses: number[] = [];
  /** Keyed by the path with its query, as the endpoint's URL has it. */
  const secrets = new Map<string, string>();
  /** A path that always answers this status. */
  const statusFor = new Map<string, number>();
  let hang = false;
  const loopback = await startLoopback((request) => {
    const secret = secrets.get(request.url);
    const header = request.headers['marpe-signature'];
    requests.push({
      ...request,
      verified:
        secret !== undefined &&
        typeof header === 'string' &&
        verifySignature(secret, header, request.body, nowSeconds()),
      standard: secret !== undefined && verifiesWithLibrary(request, secret, nowSeconds() * 1000),
    });
    if (hang) return null;
    return { status: statusFor.get(request.url) ?? statuses.shift() ?? 200, body: 'ok' };
  });
  return {
    url: loopback.url,
    requests,
    statuses,
    secrets,
    statusFor,
    setHang(value: boolean) {
      hang = value;
    },
    reset() {
      loopback.reset();
      requests.length = 0;
      statuses.length = 0;
      secrets.clear();
      statusFor.clear();
      hang = false;
    },
    close: loopback.close,
  };
}

/** One step, one required text field. */
const formSchema: FormSchema = [
  {
    title: 'פרטים',
    next_button: 'שליחה',
    fields: [{ name: 'first_name', type: 'text', title: 'שם פרטי', validations: ['required'] }],
  },
];

interface Fixture {
  clinicId: number;
  otherClinicId: number;
  caregiverId: number;
  typeId: number;
  templateId: number;
}

async function insertFixture(db: Database): Promise<Fixture> {
  const [main, other] = await db
    .insert(clinics)
    .values([clinicRow('מרפאת הבדיקות'), clinicRow('מרפאה אחרת')])
    .returning({ id: clinics.id });
  if (!main || !other) throw new Error('fixture: clinics');
  const [type] = await db
    .insert(appointmentTypes)
    .values({ clinicId: main.id, name: 'בדיקה תקופתית', durationMinutes: 30 })
    .returning({ id: appointmentTypes.id });
  const [caregiver] = await db
    .insert(caregivers)
    .values({
      clinicId: main.id,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      slotStepMinutes: 30,
      minNoticeMinutes: 60,
      bookingHorizonDays: 30,
    })
    .returning({ id: caregivers.id });
  const [template] = await db
    .insert(formTemplates)
    .values({ clinicId: main.id, name: 'שאלון', schema: formSchema })
    .returning({ id: formTemplates.id });
  if (!type || !caregiver || !template) throw new Error('fixture');
  await db
    .insert(caregiverAppointmentTypes)
    .values({ caregiverId: caregiver.id, appointmentTypeId: type.id });
  await db.insert(caregiverWorkingHours).values(
    [0, 1, 2, 3, 4].map((weekDay) => ({
      caregiverId: caregiver.id,
      weekDay,
      startTime: '08:00',
      endTime: '16:00',
    })),
  );
  return {
    clinicId: main.id,
    otherClinicId: other.id,
    caregiverId: caregiver.id,
    typeId: type.id,
    templateId: template.id,
  };
}

describe.each(engines)('webhooks (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let now = NOW;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let app: App;
  let db: Database;
  let f: Fixture;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  /** API keys of the main clinic and of the other one. */
  let key: string;
  let otherKey: string;
  let keyId: number;

  beforeAll(async () => {
    receiver = await startReceiver(() => Math.floor(now / 1000));
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
      clock: () => now,
      // The tests run the outbox themselves.
      outboxPollIntervalMs: HOUR,
      webhookTimeoutMs: TIMEOUT_MS,
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
    receiver.reset();
    await database.current.reset();
    f = await insertFixture(db);
    const created = await app.apiKeys.create(f.clinicId, 'pms', 'cli');
    key = created.key;
    keyId = created.id;
    otherKey = (await app.apiKeys.create(f.otherClinicId, 'pms', 'cli')).key;
  });

  const api = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    apiKey = key,
  ) => app.inject({ method, url: `/api/integration${url}`, payload, headers: bearer(apiKey) });

  /** Creates an endpoint receiving at `path`, and lets the receiver verify with its secret. */
  async function addEndpoint(
    path: string,
    body: Record<string, unknown> = {},
    apiKey = key,
  ): Promise<WebhookEndpointWithSecret> {
    const response = await api('POST', '/webhooks', { url: receiver.url(path), ...body }, apiKey);
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = response.json<WebhookEndpointWithSecret>();
    receiver.secrets.set(path, endpoint.secret ?? '');
    return endpoint;
  }

  async function onePatient(clinicId = f.clinicId): Promise<TestPatient> {
    const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    if (!patient) throw new Error('no patient');
    return patient;
  }

  /** Books through the patient API, as the booking page does. */
  async function book(patient: TestPatient, local = '2027-03-28 09:00'): Promise<number> {
    const start = zonedToEpoch(local, TZ);
    const response = await app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient.token) },
      payload: {
        clinicId: f.clinicId,
        caregiverId: f.caregiverId,
        appointmentTypeId: f.typeId,
        startDate: formatZonedIso(start, TZ),
        endDate: formatZonedIso(start + 30 * MINUTE, TZ),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  }

  const submitForm = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/api/submit',
      payload: { token, inputData: { first_name: 'דנה' } },
      ...xsrf,
    });

  const events = () => receiver.requests.map((r) => JSON.parse(r.body) as WebhookEvent);

  const deliveryRows = () => db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);

  async function onlyDelivery() {
    const rows = await deliveryRows();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    if (!row) throw new Error('no delivery');
    return row;
  }

  describe('endpoints', () => {
    it('shows a generated secret once, stores it encrypted, and audits the change', async () => {
      const response = await api('POST', '/webhooks', {
        url: receiver.url('/a'),
        events: ['form.submitted', 'appointment.booked', 'form.submitted'],
      });
      expect(response.statusCode, response.body).toBe(201);
      const endpoint = response.json<WebhookEndpointWithSecret>();
      expect(endpoint).toEqual({
        id: expect.any(Number),
        url: receiver.url('/a'),
        // Once each, in the documented order.
        events: ['appointment.booked', 'form.submitted'],
        is_active: true,
        created_at: new Date(NOW).toISOString(),
        updated_at: new Date(NOW).toISOString(),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });

      const list = await api('GET', '/webhooks');
      expect(list.json()).toEqual([withoutSecret(endpoint)]);
      const one = await api('GET', `/webhooks/${endpoint.id}`);
      expect(one.json()).toEqual(withoutSecret(endpoint));

      const [row] = await db.select().from(webhookEndpoints);
      expect(row?.secret).toMatch(new RegExp(`^v2\\.${dataKeyId(testDataKey)}\\.`));
      expect(JSON.stringify(row)).not.toContain(endpoint.secret);

      const entries = await db.select().from(auditLog);
      expect(entries).toEqual([
        expect.objectContaining({ action: 'api_key.create' }),
        expect.objectContaining({ action: 'api_key.create' }),
        expect.objectContaining({
          clinicId: f.clinicId,
          actor: `api_key:${keyId}`,
          action: 'webhook_endpoint.create',
          targetType: 'webhook_endpoint',
          targetId: String(endpoint.id),
          details: {
            url: receiver.url('/a'),
            events: ['appointment.booked', 'form.submitted'],
            is_active: true,
          },
          createdAt: new Date(NOW),
        }),
      ]);
      expect(JSON.stringify(entries)).not.toContain(endpoint.secret);
    });

    it('signs with a secret the clinic gives, and with a new one once rotated', async () => {
      const given = 'my-own-secret-0123456789';
      const endpoint = await addEndpoint('/a', { secret: given });
      expect(endpoint.secret).toBe(given);

      await book(await onePatient(), '2027-03-28 09:00');
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => [r.verified, r.standard])).toEqual([[true, true]]);

      now += MINUTE;
      const rotated = await api('PATCH', `/webhooks/${endpoint.id}`, { rotate_secret: true });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const secret = rotated.json<WebhookEndpointWithSecret>().secret ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(rotated.json()).toMatchObject({ updated_at: new Date(now).toISOString() });
      expect((await api('GET', `/webhooks/${endpoint.id}`)).json()).not.toHaveProperty('secret');

      const [audited] = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'webhook_endpoint.update'));
      expect(audited?.details).toEqual({ secret_rotated: true });
    });

    it('keeps signing with the replaced secret for 24 hours after a rotation', async () => {
      const endpoint = await addEndpoint('/a');
      const oldSecret = endpoint.secret ?? '';
      // Generated secrets are what Standard Webhooks libraries take as they are.
      expect(oldSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const patient = await onePatient();
      const cancel = async (appointmentId: number) => {
        const response = await api('POST', `/appointments/${appointmentId}/cancel`);
        expect(response.statusCode, response.body).toBe(200);
      };
      const verifiedBy = (secret: string) => {
        const request = receiver.requests.at(-1);
        if (!request) throw new Error('no request');
        const signature = String(request.headers['marpe-signature']);
        return {
          standard: verifiesWithLibrary(request, secret, now),
          marpe: verifySignature(secret, signature, request.body, Math.floor(now / 1000)),
          signatures: String(request.headers['webhook-signature']).split(' ').length,
        };
      };

      // Before: one signature, the library accepts it.
      const first = await book(patient, '2027-03-28 09:00');
      await app.outbox.runOnce();
      expect(verifiedBy(oldSecret)).toEqual({ standard: true, marpe: true, signatures: 1 });

      now += HOUR;
      const rotated = await api('PATCH', `/webhooks/${endpoint.id}`, { rotate_secret: true });
      const newSecret = rotated.json<WebhookEndpointWithSecret>().secret ?? '';
      expect(newSecret).not.toBe(oldSecret);
      const stored = await db.select().from(webhookEndpoints);
      expect(JSON.stringify(stored)).not.toContain(oldSecret.slice(6));
      expect(stored[0]?.previousSecretUntil).toEqual(new Date(now + 24 * HOUR));

      // During: both secrets sign, so a receiver holding either accepts the event.
      await cancel(first);
      await app.outbox.runOnce();
      expect(verifiedBy(oldSecret)).toEqual({ standard: true, marpe: true, signatures: 2 });
      expect(verifiedBy(newSecret)).toEqual({ standard: true, marpe: true, signatures: 2 });

      // After 24 hours: only the new one.
      now += 24 * HOUR;
      await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      expect(verifiedBy(oldSecret)).toEqual({ standard: false, marpe: false, signatures: 1 });
      expect(verifiedBy(newSecret)).toEqual({ standard: true, marpe: true, signatures: 1 });
      expect(receiver.requests.map((r) => JSON.parse(r.body).type)).toEqual([
        'appointment.booked',
        'appointment.cancelled',
        'appointment.booked',
      ]);
    });

    it('changes the URL, events and state, and deletes with the log', async () => {
      const endpoint = await addEndpoint('/a');
      const patched = await api('PATCH', `/webhooks/${endpoint.id}`, {
        url: receiver.url('/b'),
        events: ['appointment.cancelled'],
        is_active: false,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toEqual({
        ...withoutSecret(endpoint),
        url: receiver.url('/b'),
        events: ['appointment.cancelled'],
        is_active: false,
      });

      const reactivated = await api('PATCH', `/webhooks/${endpoint.id}`, {
        is_active: true,
        events: [],
      });
      expect(reactivated.json()).toMatchObject({ is_active: true, events: [] });
      await book(await onePatient());
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => r.url)).toEqual(['/b']);
      expect(await deliveryRows()).toHaveLength(1);

      const deleted = await api('DELETE', `/webhooks/${endpoint.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(deleted.body).toBe('');
      expect((await api('GET', `/webhooks/${endpoint.id}`)).statusCode).toBe(404);
      expect((await api('DELETE', `/webhooks/${endpoint.id}`)).statusCode).toBe(404);
      expect(await deliveryRows()).toEqual([]);
      const actions = (await db.select().from(auditLog).orderBy(auditLog.id)).map((e) => e.action);
      expect(actions.slice(2)).toEqual([
        'webhook_endpoint.create',
        'webhook_endpoint.update',
        'webhook_endpoint.update',
        'webhook_endpoint.delete',
      ]);
    });

    it('answers 400 naming the bad field', async () => {
      const invalid = async (method: 'POST' | 'PATCH', url: string, body: object) => {
        const response = await api(method, url, body);
        expect(response.statusCode, response.body).toBe(400);
        const json = response.json<{ code: string; details: { issues: { path: string }[] } }>();
        expect(json.code).toBe('validation_failed');
        return [...new Set(json.details.issues.map((issue) => issue.path))];
      };
      expect(await invalid('POST', '/webhooks', {})).toEqual(['url']);
      expect(await invalid('POST', '/webhooks', { url: 'ftp://x.example/' })).toEqual(['url']);
      expect(await invalid('POST', '/webhooks', { url: 'http://me:pw@127.0.0.1:9/hook' })).toEqual([
        'url',
      ]);
      expect(
        await invalid('POST', '/webhooks', { url: receiver.url('/a'), events: ['form.sent'] }),
      ).toEqual(['events.0']);
      expect(
        await invalid('POST', '/webhooks', { url: receiver.url('/a'), events: 'form.submitted' }),
      ).toEqual(['events']);
      expect(
        await invalid('POST', '/webhooks', { url: receiver.url('/a'), secret: 'short' }),
      ).toEqual(['secret']);
      const endpoint = await addEndpoint('/a');
      expect(await invalid('PATCH', `/webhooks/${endpoint.id}`, { url: 'nope' })).toEqual(['url']);
      expect(await invalid('PATCH', `/webhooks/${endpoint.id}`, { is_active: 'yes' })).toEqual([
        'is_active',
      ]);
      expect((await api('PATCH', `/webhooks/${endpoint.id}`, {})).statusCode).toBe(400);
      expect((await api('GET', '/webhooks/abc')).statusCode).toBe(400);
      expect((await api('GET', '/webhooks/99999999999')).statusCode).toBe(404);
      const query = await api('GET', '/webhook-deliveries?status=sent');
      expect(query.statusCode).toBe(400);
      expect(query.json()).toMatchObject({ details: { issues: [{ path: 'status' }] } });
      // Nothing was written by the refusals.
      expect(await db.select().from(webhookEndpoints)).toHaveLength(1);
    });

    it('answers 401 without a live key, and keeps each clinic to its own endpoints', async () => {
      expect(
        (await app.inject({ method: 'GET', url: '/api/integration/webhooks' })).statusCode,
      ).toBe(401);
      expect((await api('GET', '/webhooks', undefined, 'mrp_not-a-key')).statusCode).toBe(401);

      const endpoint = await addEndpoint('/a');
      const theirs = await addEndpoint('/b', {}, otherKey);
      expect((await api('GET', '/webhooks', undefined, otherKey)).json()).toEqual([
        withoutSecret(theirs),
      ]);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { is_active: false }],
        ['DELETE', undefined],
      ] as const) {
        const response = await api(method, `/webhooks/${endpoint.id}`, body, otherKey);
        expect(response.statusCode, `${method} ${response.body}`).toBe(404);
      }
      const deliveries = await api(
        'GET',
        `/webhook-deliveries?endpoint_id=${endpoint.id}`,
        undefined,
        otherKey,
      );
      expect(deliveries.statusCode).toBe(404);
      expect((await api('GET', `/webhooks/${endpoint.id}`)).json()).toMatchObject({
        is_active: true,
      });

      // The main clinic's events reach its endpoint only.
      await book(await onePatient());
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => r.url)).toEqual(['/a']);
      expect((await api('GET', '/webhook-deliveries', undefined, otherKey)).json()).toEqual([]);
      expect((await api('GET', '/webhook-deliveries')).json()).toHaveLength(1);
    });

    it('refuses an eleventh endpoint', async () => {
      for (let i = 0; i < 10; i++) await addEndpoint(`/e${i}`);
      const response = await api('POST', '/webhooks', { url: receiver.url('/e10') });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'conflict' });
    });
  });

  describe('events', () => {
    it('delivers appointment.booked, signed, with an event id unique to the event', async () => {
      const a = await addEndpoint('/a');
      await addEndpoint('/b', { events: ['appointment.booked'] });
      const patient = await onePatient();
      const appointmentId = await book(patient);

      expect(await app.outbox.runOnce()).toBe(0); // the kick after the booking sent them
      expect(receiver.requests).toHaveLength(2);
      // Delivered concurrently: in either order.
      const first = receiver.requests.find((r) => r.url === '/a');
      const second = receiver.requests.find((r) => r.url === '/b');
      if (!first || !second) throw new Error('a request to each endpoint expected');
      expect([first.verified, first.standard]).toEqual([true, true]);
      expect([second.verified, second.standard]).toEqual([true, true]);
      expect(first.headers).toMatchObject({
        'content-type': 'application/json',
        'webhook-timestamp': String(Math.floor(NOW / 1000)),
        'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
        'marpe-event-type': 'appointment.booked',
        'marpe-timestamp': String(Math.floor(NOW / 1000)),
        'marpe-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
      });
      const event = webhookEventSchema.parse(JSON.parse(first.body));
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[\w-]{24}$/),
        type: 'appointment.booked',
        created_at: new Date(NOW).toISOString(),
        clinic_id: f.clinicId,
        data: {
          id: appointmentId,
          status: 'booked',
          start_date: '2027-03-28T09:00:00+03:00',
          end_date: '2027-03-28T09:30:00+03:00',
          caregiver: { id: f.caregiverId, name: 'ד"ר דנה' },
          appointment_type: { id: f.typeId, name: 'בדיקה תקופתית' },
          patient: {
            id: patient.id,
            id_number: patient.idNumber,
            first_name: 'מטופל',
            last_name: expect.stringMatching(/^מספר \d+$/),
            phone: patient.phone,
          },
          source: 'patient',
          created_at: expect.any(String),
          cancelled_at: null,
          cancel_reason: null,
        },
      });
      expect(first.headers['marpe-event-id']).toBe(event.id);
      expect(first.headers['webhook-id']).toBe(event.id);
      // One event, one id, whichever endpoint receives it; the same bytes to each.
      expect(second.headers['marpe-event-id']).toBe(event.id);
      expect(second.body).toBe(first.body);

      await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      const ids = new Set(events().map((e) => e.id));
      expect(ids.size).toBe(2);

      const log = await api('GET', `/webhook-deliveries?endpoint_id=${a.id}`);
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json<WebhookDelivery[]>().map((d) => d.event_id)).toEqual(
        events()
          .filter((_, i) => receiver.requests[i]?.url === '/a')
          .map((e) => e.id)
          .reverse(),
      );
      expect(log.json<WebhookDelivery[]>()[1]).toEqual({
        id: expect.any(Number),
        endpoint_id: a.id,
        event_id: event.id,
        event_type: 'appointment.booked',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        created_at: new Date(NOW).toISOString(),
        last_attempt_at: new Date(NOW).toISOString(),
        delivered_at: new Date(NOW).toISOString(),
      });
    });

    it('delivers appointment.cancelled when the patient or the clinic cancels', async () => {
      await addEndpoint('/a', { events: ['appointment.cancelled'] });
      const patient = await onePatient();
      const byPatient = await book(patient, '2027-03-28 09:00');
      const byClinic = await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      expect(receiver.requests).toEqual([]);

      now += MINUTE;
      const cancel = await app.inject({
        method: 'PUT',
        url: '/api/appointment/patient-appointments',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: { appointmentId: byPatient },
      });
      expect(cancel.statusCode, cancel.body).toBe(200);
      const clinicCancel = await api('POST', `/appointments/${byClinic}/cancel`);
      expect(clinicCancel.statusCode, clinicCancel.body).toBe(200);
      await app.outbox.runOnce();

      expect(receiver.requests.every((r) => r.verified)).toBe(true);
      expect(events().map((e) => [e.type, (e.data as { id: number }).id])).toEqual([
        ['appointment.cancelled', byPatient],
        ['appointment.cancelled', byClinic],
      ]);
      expect(events()[0]?.data).toMatchObject({
        status: 'cancelled',
        cancelled_at: new Date(now).toISOString(),
      });
      // A second cancel is refused and reports nothing.
      expect((await api('POST', `/appointments/${byClinic}/cancel`)).statusCode).toBe(409);
      await app.outbox.runOnce();
      expect(receiver.requests).toHaveLength(2);
    });

    it('delivers appointment.rescheduled with the new slot and the previous one', async () => {
      await addEndpoint('/r', { events: ['appointment.rescheduled'] });
      const patient = await onePatient();
      const id = await book(patient, '2027-03-28 09:00');
      const moved = await app.inject({
        method: 'POST',
        url: `/api/appointment/patient-appointments/${id}/reschedule`,
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId: f.clinicId,
          caregiverId: f.caregiverId,
          appointmentTypeId: f.typeId,
          startDate: '2027-03-29T10:00:00+03:00',
          endDate: '2027-03-29T10:30:00+03:00',
        },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await app.outbox.runOnce();
      expect(events().map((e) => e.type)).toEqual(['appointment.rescheduled']);
      expect(events()[0]?.data).toMatchObject({
        id,
        status: 'booked',
        start_date: '2027-03-29T10:00:00+03:00',
        end_date: '2027-03-29T10:30:00+03:00',
        caregiver: { id: f.caregiverId },
        previous: {
          caregiver_id: f.caregiverId,
          appointment_type_id: f.typeId,
          start_date: '2027-03-28T09:00:00+03:00',
          end_date: '2027-03-28T09:30:00+03:00',
        },
      });
    });

    it('delivers appointment.reminded with the reminder that was sent', async () => {
      await addEndpoint('/r', { events: ['appointment.reminded'] });
      const settings = await api('PUT', '/reminders/settings', {
        ...defaultReminderSettings,
        enabled: true,
        lead_minutes: [120],
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const id = await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      expect(receiver.requests).toEqual([]);

      now = zonedToEpoch('2027-03-28 08:00', TZ);
      expect(await app.reminders.runOnce()).toBe(1);
      await app.outbox.runOnce();
      expect(receiver.requests.every((r) => r.verified)).toBe(true);
      expect(events().map((e) => e.type)).toEqual(['appointment.reminded']);
      expect(events()[0]?.data).toMatchObject({
        id,
        status: 'booked',
        start_date: '2027-03-28T10:00:00+03:00',
        reminder: {
          id: expect.any(Number),
          lead_minutes: 120,
          channel: 'sms',
          sent_at: new Date(now).toISOString(),
        },
      });
    });

    it('delivers form.submitted once, with a link to the answers and not the answers', async () => {
      await addEndpoint('/a', { events: ['form.submitted'] });
      const link = await app.forms.createLink({ clinicId: f.clinicId, templateId: f.templateId });
      expect((await submitForm(link.token)).statusCode).toBe(200);
      // The same answers again answer ok (a double tap) but are no new event.
      expect((await submitForm(link.token)).statusCode).toBe(200);
      await app.outbox.runOnce();

      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]?.verified).toBe(true);
      expect(receiver.requests[0]?.body).not.toContain('דנה');
      expect(events()).toEqual([
        {
          id: expect.stringMatching(/^evt_/),
          type: 'form.submitted',
          created_at: new Date(NOW).toISOString(),
          clinic_id: f.clinicId,
          data: {
            request_id: link.requestId,
            template_id: f.templateId,
            submitted_at: new Date(NOW).toISOString(),
            submission_url: `${ORIGIN}/api/integration/form-requests/${link.requestId}/submission`,
          },
        },
      ]);
    });

    it('sends nothing to inactive endpoints or for types they did not subscribe to', async () => {
      const forms = await addEndpoint('/forms', {
        events: ['form.submitted', 'payment.succeeded'],
      });
      await addEndpoint('/off', { is_active: false });
      const late = await addEndpoint('/late');
      await addEndpoint('/theirs', {}, otherKey);

      await book(await onePatient());
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => r.url)).toEqual(['/late']);
      expect((await deliveryRows()).map((d) => d.endpointId)).toEqual([late.id]);

      // A payment event as the payments module emits it, in its own transaction (no kick here).
      const data = {
        request_id: 7,
        amount: 1250.5,
        status: 'paid' as const,
        response_code: '000',
        payments: 3,
        transaction_index: '41',
        verified: true,
      };
      const count = await db.transaction((tx) =>
        app.webhooks.emit(tx, { clinicId: f.clinicId, type: 'payment.succeeded', data }),
      );
      expect(count).toBe(2);
      // Deactivated after the event, before its delivery: dropped, and the log says why.
      expect((await api('PATCH', `/webhooks/${late.id}`, { is_active: false })).statusCode).toBe(
        200,
      );
      await app.outbox.runOnce();
      expect(receiver.requests.map((r) => r.url)).toEqual(['/late', '/forms']);
      expect(events()[1]).toMatchObject({ type: 'payment.succeeded', data });
      expect(receiver.requests[1]?.verified).toBe(true);
      const log = (await api('GET', '/webhook-deliveries')).json<WebhookDelivery[]>();
      expect(
        log.map((d) => [d.endpoint_id, d.event_type, d.status, d.attempts, d.last_error]),
      ).toEqual([
        [late.id, 'payment.succeeded', 'failed', 0, 'The endpoint was deactivated'],
        [forms.id, 'payment.succeeded', 'delivered', 1, null],
        [late.id, 'appointment.booked', 'delivered', 1, null],
      ]);

      await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      expect(await deliveryRows()).toHaveLength(3);
      expect(receiver.requests).toHaveLength(2);
    });

    it('retries after a 500 with backoff and delivers once', async () => {
      await addEndpoint('/a');
      receiver.statuses.push(500, 200);
      await book(await onePatient());
      await app.outbox.runOnce();

      expect(receiver.requests).toHaveLength(1);
      expect(await onlyDelivery()).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'The endpoint answered 500',
        lastAttemptAt: new Date(NOW),
        deliveredAt: null,
      });
      // Not before the backoff is over.
      expect(await app.outbox.runOnce()).toBe(0);
      expect(receiver.requests).toHaveLength(1);

      now += OUTBOX_BACKOFF.firstMs;
      now += 1;
      expect(await app.outbox.runOnce()).toBe(1);
      expect(receiver.requests).toHaveLength(2);
      const [first, second] = receiver.requests;
      expect(second?.body).toBe(first?.body);
      expect(second?.headers['marpe-event-id']).toBe(first?.headers['marpe-event-id']);
      expect(second?.headers['marpe-timestamp']).toBe(String(Math.floor(now / 1000)));
      expect(second?.verified).toBe(true);
      expect(await onlyDelivery()).toMatchObject({
        status: 'delivered',
        attempts: 2,
        lastStatusCode: 200,
        lastError: null,
        deliveredAt: new Date(now),
      });

      now += 24 * HOUR;
      expect(await app.outbox.runOnce()).toBe(0);
      expect(receiver.requests).toHaveLength(2);
      expect(await db.select({ status: outbox.status }).from(outbox)).toEqual([{ status: 'sent' }]);
    });

    it('counts no answer in time as a failure', async () => {
      await addEndpoint('/a');
      receiver.setHang(true);
      await book(await onePatient());
      await app.outbox.runOnce();

      expect(receiver.requests).toHaveLength(1);
      expect(await onlyDelivery()).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: null,
        lastError: `No answer within ${TIMEOUT_MS / 1000} s`,
      });
      const [row] = await db.select().from(outbox);
      expect(row).toMatchObject({
        status: 'pending',
        lastError: expect.stringContaining('No answer'),
      });
    });

    it('reads failed once the outbox gives up, and never names the URL in the error', async () => {
      const endpoint = await addEndpoint('/a?token=do-not-log-me');
      receiver.statuses.push(503, 503, 503);
      await book(await onePatient());
      await app.outbox.runOnce();
      expect(await onlyDelivery()).toMatchObject({ status: 'pending', attempts: 1 });

      now = NOW + OUTBOX_GIVE_UP_MS + OUTBOX_BACKOFF.maxMs;
      expect(await app.outbox.runOnce()).toBe(1);
      expect(await onlyDelivery()).toMatchObject({
        status: 'failed',
        attempts: 2,
        lastStatusCode: 503,
        lastError: 'The endpoint answered 503',
      });
      expect(await db.select({ status: outbox.status }).from(outbox)).toEqual([
        { status: 'failed' },
      ]);

      const failed = await api('GET', '/webhook-deliveries?status=failed');
      expect(failed.json<WebhookDelivery[]>().map((d) => [d.endpoint_id, d.status])).toEqual([
        [endpoint.id, 'failed'],
      ]);
      expect((await api('GET', '/webhook-deliveries?status=delivered')).json()).toEqual([]);

      // Nor does a connection error name it: a loopback port nothing listens on, one the system
      // gave a server that is closed again.
      receiver.reset();
      const gone = await startLoopback(() => null);
      await gone.close();
      const closed = await api('PATCH', `/webhooks/${endpoint.id}`, {
        url: gone.url('/closed?token=do-not-log-me'),
      });
      expect(closed.statusCode).toBe(200);
      now = NOW;
      await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();
      const [, latest] = await deliveryRows();
      expect(latest?.lastError).toBe('Request failed: ECONNREFUSED');
      const stored = JSON.stringify(await db.select().from(outbox));
      expect(stored).not.toContain('do-not-log-me');
    });
  });

  describe('delivery log', () => {
    it('lists newest first, filtered by endpoint and status, up to the limit', async () => {
      const a = await addEndpoint('/a');
      const b = await addEndpoint('/b');
      receiver.statusFor.set('/b', 500);
      await book(await onePatient(), '2027-03-28 09:00');
      await app.outbox.runOnce();
      now += MINUTE;
      await book(await onePatient(), '2027-03-28 10:00');
      await app.outbox.runOnce();

      const all = (await api('GET', '/webhook-deliveries')).json<WebhookDelivery[]>();
      expect(all.map((d) => [d.endpoint_id, d.created_at])).toEqual([
        [b.id, new Date(now).toISOString()],
        [a.id, new Date(now).toISOString()],
        [b.id, new Date(NOW).toISOString()],
        [a.id, new Date(NOW).toISOString()],
      ]);
      const pending = (await api('GET', '/webhook-deliveries?status=pending')).json();
      expect(pending).toEqual([
        expect.objectContaining({ endpoint_id: b.id, attempts: 1, last_status_code: 500 }),
        // Retried (and failed again) in the run after the second booking.
        expect.objectContaining({ endpoint_id: b.id, attempts: 2, last_status_code: 500 }),
      ]);
      const limited = await api('GET', `/webhook-deliveries?endpoint_id=${a.id}&limit=1`);
      expect(limited.json<WebhookDelivery[]>().map((d) => d.id)).toEqual([all[1]?.id]);
      expect((await api('GET', '/webhook-deliveries?limit=0')).statusCode).toBe(400);
    });

    it('is printed by the CLI', async () => {
      await addEndpoint('/a');
      receiver.statuses.push(500);
      await book(await onePatient());
      await app.outbox.runOnce();

      const rows = await listWebhookDeliveries(db, { clinicId: f.clinicId, limit: 10 });
      const [row] = rows;
      const table = formatWebhookDeliveries(rows).split('\n');
      expect(table).toHaveLength(2);
      expect(table[0]).toMatch(
        /^CREATED +EVENT +TYPE +ENDPOINT +STATUS +ATTEMPTS +HTTP +LAST ERROR$/,
      );
      expect(table[1]?.split(/ {2,}/)).toEqual([
        new Date(NOW).toISOString(),
        row?.eventId,
        'appointment.booked',
        String(row?.endpointId),
        'pending',
        '1',
        '500',
        'The endpoint answered 500',
      ]);
      expect(
        formatWebhookDeliveries(
          await listWebhookDeliveries(db, { clinicId: f.clinicId, status: 'failed', limit: 10 }),
        ),
      ).toBe('No webhook deliveries.');
      await expect(
        listWebhookDeliveries(db, { clinicId: f.otherClinicId + 100, limit: 10 }),
      ).rejects.toThrow(UsageError);
    });
  });
});

/** The endpoint as reads show it: the schema drops the secret. */
const withoutSecret = (endpoint: WebhookEndpointWithSecret) =>
  webhookEndpointSchema.parse(endpoint);
