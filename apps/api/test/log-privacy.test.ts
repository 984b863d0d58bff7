import { eq, sql } from 'drizzle-orm';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdCheckDigit, type ClinicData, type Slot } from '@marpe/shared';
import type { App } from '../src/app.js';
import { ensureDemoForm } from '../src/demo/demo-form.js';
import { ensureDemoCardTerminal } from '../src/demo/demo-payment.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { patients } from '../src/platform/db/schema.js';
import { startTracing, type Tracing } from '../src/platform/telemetry.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';

/** Tuesday 2027-03-23, 09:00 in Israel: the demo clinic's caregivers have slots ahead. */
const NOW = Date.parse('2027-03-23T09:00:00+02:00');

/** The demo patient (seeded) and a new one who signs up. */
const DANA = {
  idNumber: '039845128',
  phone: '0501234567',
  firstName: 'דנה',
  lastName: 'לוי',
  /** What the demo payment request holds. */
  email: 'dana@example.com',
};
const NEW_PATIENT = {
  idNumber: withIdCheckDigit('31415926'),
  phone: '0527654321',
  firstName: 'אביגיל',
  lastName: 'שטרנברג',
};

/** One tracer provider per process (it is global): both engines' suites share the exporter. */
const spans = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(spans)] });
});
afterAll(async () => {
  await tracing.shutdown();
});

/**
 * Everything the server logs, and every span it would export, read back as text, through a patient's whole visit and the failures
 * on the way: nothing that names the patient (ID number, phone, name, email), no one-time code and
 * no token (session, two-factor, link, connection) may be in it.
 */
describe.each(engines)('what the logs hold (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const lines: string[] = [];
  const secrets = new Set<string>();
  let app: App;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    const db = database.current.handle.db;
    await seedDemoClinic(db, { now: NOW });
    await ensureDemoForm(db);
    await ensureDemoCardTerminal(db);
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ LOG_LEVEL: 'trace' }),
      clock: () => NOW,
      logStream: { write: (line) => void lines.push(line) },
      outboxPollIntervalMs: 3_600_000,
      tracing,
    });
    spans.reset();
    await app.ready();
    xsrf = await xsrfPair(app);
    secrets.add(xsrf.headers['x-xsrf-token'] as string);
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, payload: object, token?: string) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  /** The code of the newest SMS to `phone`, from the demo provider's list. */
  async function codeSentTo(phone: string): Promise<string> {
    await app.messaging.runOutbox();
    const messages = (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json<
      { to: string; body: string }[]
    >();
    const code = /#(\d{6})$/.exec(messages.find((m) => m.to === phone)?.body ?? '')?.[1];
    if (!code) throw new Error(`no code sent to ${phone}`);
    secrets.add(code);
    return code;
  }

  async function verify(idNumber: string, phone: string, twoFactorToken: string) {
    secrets.add(twoFactorToken);
    const code = await codeSentTo(phone);
    return post('/api/patient-auth/two-factor', { idNumber, code, twoFactorToken });
  }

  it('holds no patient data, code or token through login, booking, failures and links', async () => {
    // Login → verify → book, as the demo patient.
    const login = await post('/api/patient-auth/login', {
      clinicId: 1,
      idNumber: DANA.idNumber,
      phone: '+972 50-123-4567',
    });
    expect(login.statusCode).toBe(200);
    const verified = await verify(DANA.idNumber, DANA.phone, login.json().twoFactorToken);
    expect(verified.statusCode).toBe(200);
    const session: string = verified.json().token;
    secrets.add(session);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/patient-auth',
          headers: { authorization: `Bearer ${session}` },
        })
      ).statusCode,
    ).toBe(200);

    // Two free slots on different dates (one booking a day): one to book, one to fail on.
    const clinic = (await app.inject({ method: 'GET', url: '/api/clinic/1' })).json<ClinicData>();
    const caregiver = clinic.caregivers.find((c) => c.first_available_slot !== null);
    const type = clinic.appointmentTypes.find(
      (t) => t.id === caregiver?.default_appointment_types[0],
    );
    if (!caregiver || !type) throw new Error('the demo clinic has no free caregiver');
    const slots = await app.inject({
      method: 'GET',
      url: '/api/appointment/available-slots',
      query: {
        clinicId: '1',
        caregiverId: String(caregiver.id),
        duration: String(type.duration_minutes),
        startDate: '2027-03-23 00:00',
        endDate: '2027-04-06 00:00',
      },
    });
    const starts = [...new Set(slots.json<Slot[]>().map((slot) => slot.start))];
    const [booking, bookingThatFails] = [
      starts[0],
      starts.find((start) => start.slice(0, 10) !== starts[0]?.slice(0, 10)),
    ].map(
      (start) =>
        start && {
          clinicId: 1,
          caregiverId: caregiver.id,
          appointmentTypeId: type.id,
          startDate: start,
          endDate: new Date(Date.parse(start) + type.duration_minutes * 60_000).toISOString(),
        },
    );
    if (!booking || !bookingThatFails) throw new Error('the demo clinic has too few free slots');
    expect((await post('/api/appointment', booking, session)).statusCode).toBe(201);
    expect((await post('/api/appointment', booking, session)).statusCode).toBe(409);

    // A database failure whose statement, parameters and driver message all carry patient data.
    const run = async (statements: string[]) => {
      for (const statement of statements)
        await database.current.handle.db.execute(sql.raw(statement));
    };
    await run([
      `CREATE FUNCTION refuse_patient() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'refused % %', NEW.id_number, NEW.phone
           USING DETAIL = NEW.first_name || ' ' || NEW.last_name;
       END $$`,
      `CREATE TRIGGER refuse_patient BEFORE INSERT ON patients
         FOR EACH ROW EXECUTE FUNCTION refuse_patient()`,
      `CREATE FUNCTION refuse_booking() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE p patients;
       BEGIN
         SELECT * INTO p FROM patients WHERE id = NEW.patient_id;
         RAISE EXCEPTION 'no booking for % % %', p.id_number, p.phone, p.first_name
           USING DETAIL = p.last_name;
       END $$`,
      `CREATE TRIGGER refuse_booking BEFORE INSERT ON appointments
         FOR EACH ROW EXECUTE FUNCTION refuse_booking()`,
      `CREATE FUNCTION refuse_payment() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'no payment for % %', NEW.patient_email, NEW.patient_id_number
           USING DETAIL = NEW.patient_name_remarks;
       END $$`,
      `CREATE TRIGGER refuse_payment BEFORE INSERT ON payment_requests
         FOR EACH ROW EXECUTE FUNCTION refuse_payment()`,
    ]);
    try {
      const signUp = await post('/api/patient-auth/sign-up', { clinicId: 1, ...NEW_PATIENT });
      expect(signUp.statusCode).toBe(200);
      const failed = await verify(
        NEW_PATIENT.idNumber,
        NEW_PATIENT.phone,
        signUp.json().twoFactorToken,
      );
      expect(failed.statusCode).toBe(500);
      expect((await post('/api/appointment', bookingThatFails, session)).statusCode).toBe(500);
      expect((await post('/api/dev/demo-links', {})).statusCode).toBe(500);
    } finally {
      await run(
        ['patient', 'booking', 'payment'].map((name) => `DROP FUNCTION refuse_${name}() CASCADE`),
      );
    }
    const created = await database.current.handle.db
      .select()
      .from(patients)
      .where(eq(patients.idNumber, NEW_PATIENT.idNumber));
    expect(created).toEqual([]);

    // Form and payment links, opened as a patient would and as the card provider calls back.
    const links = await post('/api/dev/demo-links', {});
    const { formUrl, paymentUrl } = links.json<{ formUrl: string; paymentUrl: string }>();
    const formToken = new URL(formUrl).pathname.split('/')[2] as string;
    const paymentToken = new URL(paymentUrl).pathname.split('/')[2] as string;
    secrets.add(formToken).add(paymentToken);
    const connectionToken = 'Wk3pR9vXq2LmT8nB4cYd7Hs1Jf6Gu0Ae5Zo_Ki-QwEr';
    secrets.add(connectionToken);
    const feedToken = 'Cq7mT2vXk9LpR4nB8cYd1Hs6Jf3Gu5Ae0Zo_Ki-WqEr';
    secrets.add(feedToken);

    expect((await post('/api/get-form', { token: formToken })).statusCode).toBe(200);
    expect((await post('/api/get-payment-request', { token: paymentToken })).statusCode).toBe(200);
    for (const url of [
      `/q/${formToken}`,
      `/p/${paymentToken}?utm=x`,
      `/tranzila/${paymentToken}?results=Response%3D000`,
      `/api/payment-return/${paymentToken}?Response=000&index=1`,
      `/whatsapp-signup/${connectionToken}`,
      `/api/calendar-feed/${feedToken}.ics`,
      `//q//${formToken}`,
      `/unknown/${formToken}`,
    ]) {
      await app.inject({ method: 'GET', url });
    }
    await app.inject({
      method: 'POST',
      url: `/api/notify-payment/${paymentToken}`,
      payload: `Response=000&index=1&ccno=4580&email=${encodeURIComponent(DANA.email)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await app.inject({ method: 'DELETE', url: `/api/notify-payment/${paymentToken}` });

    // Everything is written before the test reads it: the destination batches per turn.
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    expect(text).toContain('"msg":"request failed"');
    expect(text).toContain('"sqlState":"P0001"');
    expect(text).toContain('/q/[token]');
    expect(text).toContain('/whatsapp-signup/[token]');
    expect(text).toContain('/api/calendar-feed/[token].ics');

    const patientData = [
      DANA.idNumber,
      DANA.idNumber.replace(/^0/, ''),
      DANA.phone,
      '50-123-4567',
      '501234567',
      DANA.firstName,
      DANA.lastName,
      DANA.email,
      NEW_PATIENT.idNumber,
      NEW_PATIENT.phone,
      '527654321',
      NEW_PATIENT.firstName,
      NEW_PATIENT.lastName,
    ];
    // The spans: named by route pattern, database calls inside them on PostgreSQL.
    const finished = spans.getFinishedSpans();
    const names = finished.map((span) => span.name);
    expect(names).toContain('POST /api/appointment');
    expect(names).toContain('POST /api/patient-auth/login');
    expect(names).toContain('GET unmatched');
    const bookingSpan = finished.find((span) => span.name === 'POST /api/appointment');
    expect(bookingSpan?.attributes).toMatchObject({
      'http.route': '/api/appointment',
      'url.path': '/api/appointment',
      'http.response.status_code': 201,
    });
    if (engine === 'postgres') {
      expect(finished.some((span) => span.attributes['db.system.name'] === 'postgresql')).toBe(
        true,
      );
    }
    const spanText = JSON.stringify(
      finished.map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
        status: span.status,
        resource: span.resource.attributes,
      })),
    );
    expect(spanText).not.toMatch(/\/(q|p|tranzila|whatsapp-signup)\/[A-Za-z0-9_-]{16}/);

    for (const value of [...patientData, ...secrets]) {
      // Whole numbers only: a six-digit code may well be part of a time or a duration.
      const pattern = new RegExp(
        `(?<![0-9])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`,
      );
      expect({ value, found: pattern.test(text) }).toEqual({ value, found: false });
      expect({ value, inSpans: pattern.test(spanText) }).toEqual({ value, inSpans: false });
    }
  });
});
