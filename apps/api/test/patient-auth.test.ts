// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withIdCheckDigit } from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import {
  auditLog,
  authChallenges,
  clinics,
  limitEvents,
  outbox,
  patients,
  patientSessions,
} from '../src/platform/db/schema.js';
import { clinicRow } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  useTestDatabase,
  xsrfPair,
  useSentMessages,
} from './helper.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A valid ID number: `base` (8 digits) and the check digit that makes it pass. */
const DANA = { idNumber: withIdCheckDigit('03984512'), phone: '0501234567' };

describe.each(engines)('patient verification (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let clinicId: number;
  let closedClinicId: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    now = Date.parse('2027-03-24T10:00:00+02:00');
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://marpe.example' }),
      clock: () => now,
      outboxPollIntervalMs: 60 * MINUTE,
      // The in-memory per-minute limit has its own test; here it would mix tests together.
      patientAuthAttemptsPerMinute: 10_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(async () => {
    await database.current.reset();
    now = Date.parse('2027-03-24T10:00:00+02:00');
    const clinic = (name: string, isAcceptNewPatients: boolean) => ({
      ...clinicRow(name),
      isAcceptNewPatients,
    });
    const [open, closed] = await db
      .insert(clinics)
      .values([clinic('מרפאת הבדיקות', true), clinic('מרפאה סגורה', false)])
      .returning({ id: clinics.id });
    clinicId = open?.id ?? 0;
    closedClinicId = closed?.id ?? 0;
    await db.insert(patients).values({
      clinicId,
      idNumber: DANA.idNumber,
      firstName: 'דנה',
      lastName: 'לוי',
      phone: DANA.phone,
    });
  });

  const post = (url: string, payload: object, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url, payload, remoteAddress, ...xsrf });

  const login = (body: object, remoteAddress?: string) =>
    post('/api/patient-auth/login', { clinicId, ...body }, remoteAddress);

  const signUp = (body: object, remoteAddress?: string) =>
    post(
      '/api/patient-auth/sign-up',
      { clinicId, firstName: 'נועה', lastName: 'כהן', ...body },
      remoteAddress,
    );

  const twoFactor = (body: { idNumber: string; code: string; twoFactorToken: string }) =>
    post('/api/patient-auth/two-factor', body);

  const messages = useSentMessages(() => app);

  /** The code of the newest SMS to `phone`. */
  async function lastCode(phone: string): Promise<string> {
    const message = (await messages()).find((m) => m.to === phone);
    const code = /#(\d{6})$/.exec(message?.body ?? '')?.[1];
    if (!code) throw new Error(`no code sent to ${phone}`);
    return code;
  }

  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  async function loggedIn(): Promise<{ token: string; twoFactorToken: string }> {
    const { twoFactorToken } = (await login(DANA)).json();
    const code = await lastCode(DANA.phone);
    const response = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken });
    expect(response.statusCode).toBe(200);
    return { token: response.json().token, twoFactorToken };
  }

  const me = (token: string) =>
    app.inject({
      method: 'GET',
      url: '/api/patient-auth',
      headers: { authorization: `Bearer ${token}` },
    });

  describe('login', () => {
    it('sends a Hebrew code SMS naming the clinic, ending with the WebOTP line', async () => {
      // Typed the international way, with separators: normalised before comparing.
      const response = await login({ idNumber: DANA.idNumber, phone: '+972 50-123-4567' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ twoFactorToken: expect.any(String) });
      const [message] = await messages();
      expect(message).toMatchObject({ to: DANA.phone, channel: 'sms' });
      expect(message?.body).toContain('מרפאת הבדיקות');
      expect(message?.body).toContain('קוד האימות');
      expect(message?.body).toMatch(/\n@marpe\.example #\d{6}$/);
    });

    it('accepts an ID number without its leading zero', async () => {
      const response = await login({
        idNumber: DANA.idNumber.replace(/^0/, ''),
        phone: DANA.phone,
      });
      expect(response.statusCode).toBe(200);
    });

    it('answers invalid_phone with the last 3 digits on file, and sends nothing', async () => {
      const response = await login({ idNumber: DANA.idNumber, phone: '0529999999' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_phone', hint: '567' });
      expect(await messages()).toEqual([]);
    });

    it('answers an unknown patient identically whatever the phone', async () => {
      const stranger = withIdCheckDigit('12345678');
      const a = await login({ idNumber: stranger, phone: '0501234567' });
      const b = await login({ idNumber: stranger, phone: '0549876543' });
      expect(a.statusCode).toBe(404);
      expect(a.json()).toEqual({ code: 'patient_not_found', message: expect.any(String) });
      expect(b.statusCode).toBe(404);
      expect(b.body).toBe(a.body);
      expect(await messages()).toEqual([]);
    });

    it('is a patient of that clinic only', async () => {
      const response = await post('/api/patient-auth/login', { clinicId: closedClinicId, ...DANA });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('patient_not_found');
    });

    it('refuses a bad ID number, phone or clinic with 400 naming the field', async () => {
      const idNumber = DANA.idNumber.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
      const cases: [object, string][] = [
        [{ idNumber, phone: DANA.phone }, 'idNumber'],
        [{ idNumber: '000000000', phone: DANA.phone }, 'idNumber'],
        [{ idNumber: DANA.idNumber, phone: '03-5551234' }, 'phone'],
        [{ idNumber: DANA.idNumber, phone: '050123456' }, 'phone'],
        [{ idNumber: DANA.idNumber, phone: DANA.phone, clinicId: 'x' }, 'clinicId'],
      ];
      for (const [body, field] of cases) {
        const response = await login(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().code).toBe('validation_failed');
        expect(response.json().details.issues.map((i: { path: string }) => i.path)).toEqual([
          field,
        ]);
      }
    });

    it('answers 404 for a clinic that does not exist', async () => {
      const response = await post('/api/patient-auth/login', { clinicId: 999_999, ...DANA });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('clinic_not_found');
    });
  });

  describe('sign-up', () => {
    const NOA = { idNumber: withIdCheckDigit('20547718'), phone: '0527654321' };

    it('creates the patient only when the code is verified', async () => {
      const response = await signUp(NOA);
      expect(response.statusCode).toBe(200);
      const { twoFactorToken } = response.json();
      expect(await db.select().from(patients).where(eq(patients.idNumber, NOA.idNumber))).toEqual(
        [],
      );

      const code = await lastCode(NOA.phone);
      const verified = await twoFactor({ idNumber: NOA.idNumber, code, twoFactorToken });
      expect(verified.statusCode).toBe(200);
      const { patient, token } = verified.json();
      expect(patient).toEqual({
        id: expect.any(Number),
        id_number: NOA.idNumber,
        first_name: 'נועה',
        last_name: 'כהן',
        phone: NOA.phone,
      });
      expect((await me(token)).json()).toEqual(patient);
    });

    it('trims names and refuses empty ones', async () => {
      const response = await signUp({ ...NOA, firstName: '   ', lastName: '\u200f' });
      expect(response.statusCode).toBe(400);
      const paths = response.json().details.issues.map((i: { path: string }) => i.path);
      expect(paths.sort()).toEqual(['firstName', 'lastName']);
    });

    it('answers 403 not_accepting_new_patients for a clinic closed to new patients', async () => {
      const response = await post('/api/patient-auth/sign-up', {
        clinicId: closedClinicId,
        firstName: 'נועה',
        lastName: 'כהן',
        ...NOA,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('not_accepting_new_patients');
      expect(await messages()).toEqual([]);
    });

    it('treats a known patient as a login and keeps their name', async () => {
      const response = await signUp({ ...DANA, firstName: 'אחרת' });
      expect(response.statusCode).toBe(200);
      const code = await lastCode(DANA.phone);
      const verified = await twoFactor({
        idNumber: DANA.idNumber,
        code,
        twoFactorToken: response.json().twoFactorToken,
      });
      expect(verified.json().patient.first_name).toBe('דנה');
      const wrongPhone = await signUp({ idNumber: DANA.idNumber, phone: '0529999999' });
      expect(wrongPhone.json()).toMatchObject({ code: 'invalid_phone', hint: '567' });
    });
  });

  describe('identities per phone', () => {
    /** Family members already signed up with Dana's phone (5 with her). */
    async function family(count: number) {
      await db.insert(patients).values(
        Array.from({ length: count }, (_, i) => ({
          clinicId,
          idNumber: withIdCheckDigit(`3000000${i}`),
          firstName: 'בן',
          lastName: 'משפחה',
          phone: DANA.phone,
        })),
      );
    }

    it('signs up at most 6 ID numbers with one phone at a clinic, in a race too', async () => {
      await family(4);
      const first = { idNumber: withIdCheckDigit('40000001'), phone: DANA.phone };
      const second = { idNumber: withIdCheckDigit('40000002'), phone: DANA.phone };
      const a = await signUp(first);
      expect(a.statusCode, a.body).toBe(200);
      const codeA = await lastCode(DANA.phone);
      now += 61_000;
      // Both codes are out while 5 identities exist: the sixth to verify wins, the other not.
      const b = await signUp(second);
      expect(b.statusCode, b.body).toBe(200);
      const codeB = await lastCode(DANA.phone);
      const okA = await twoFactor({
        ...first,
        code: codeA,
        twoFactorToken: a.json().twoFactorToken,
      });
      expect(okA.statusCode, okA.body).toBe(200);
      const refused = await twoFactor({
        idNumber: second.idNumber,
        code: codeB,
        twoFactorToken: b.json().twoFactorToken,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'too_many_identities', details: { max: 6 } });
      const count = await db.select().from(patients).where(eq(patients.phone, DANA.phone));
      expect(count).toHaveLength(6);

      // The seventh is refused before any code goes; known ones still log in.
      now += 61_000;
      const sent = (await messages()).length;
      const seventh = await signUp({ idNumber: withIdCheckDigit('40000003'), phone: DANA.phone });
      expect(seventh.statusCode).toBe(409);
      expect(seventh.json().code).toBe('too_many_identities');
      expect(await messages()).toHaveLength(sent);
      expect((await login(DANA)).statusCode).toBe(200);
      // Another clinic counts its own.
      const elsewhere = await post('/api/patient-auth/sign-up', {
        clinicId: closedClinicId,
        firstName: 'נועה',
        lastName: 'כהן',
        idNumber: withIdCheckDigit('40000003'),
        phone: DANA.phone,
      });
      expect(elsewhere.json().code).toBe('not_accepting_new_patients');
    });

    it('lets the clinic correct a squatted or changed phone: PATCH /api/integration/patients/{idNumber}', async () => {
      const key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
      const patch = (idNumber: string, payload: object, bearer: string | null = key) =>
        app.inject({
          method: 'PATCH',
          url: `/api/integration/patients/${idNumber}`,
          payload,
          headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
        });
      // Someone signed up Noa's ID number with their own phone; Noa only ever gets invalid_phone.
      const NOA = { idNumber: withIdCheckDigit('20547718'), phone: '0527654321' };
      const squatter = { idNumber: NOA.idNumber, phone: '0548888888' };
      const started = await signUp(squatter);
      const squatted = await twoFactor({
        idNumber: NOA.idNumber,
        code: await lastCode(squatter.phone),
        twoFactorToken: started.json().twoFactorToken,
      });
      const squatterToken = squatted.json().token as string;
      // A code already on its way to the squatter stops working with the change too.
      now += 61_000;
      const pending = await login(squatter);
      expect((await login(NOA)).json()).toMatchObject({ code: 'invalid_phone', hint: '888' });

      expect((await patch(NOA.idNumber, { phone: '052-765-4321' }, null)).statusCode).toBe(401);
      const bad = await patch(NOA.idNumber, { phone: '03-5551234' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.issues).toEqual([{ path: 'phone', message: expect.any(String) }]);
      expect((await patch('123', { phone: '0527654321' })).statusCode).toBe(400);
      const unknown = await patch(withIdCheckDigit('12345678'), { phone: '0527654321' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('patient_not_found');

      const changed = await patch(NOA.idNumber.replace(/^0+/, ''), { phone: '052-765-4321' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({
        id: expect.any(Number),
        id_number: NOA.idNumber,
        first_name: 'נועה',
        last_name: 'כהן',
        phone: '0527654321',
      });
      // The squatter is out, their code no longer works; Noa logs in.
      expect((await me(squatterToken)).statusCode).toBe(401);
      const late = await twoFactor({
        idNumber: NOA.idNumber,
        code: await lastCode(squatter.phone),
        twoFactorToken: pending.json().twoFactorToken,
      });
      expect(late.statusCode).toBe(400);
      expect((await login(NOA)).statusCode).toBe(200);
      const [entry] = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'patient.update_phone'));
      expect(entry).toMatchObject({
        clinicId,
        targetType: 'patient',
        details: { previous_phone_ends: '888', phone_ends: '321' },
      });

      // A number that already signs in 6 ID numbers takes no seventh.
      await family(5);
      const full = await patch(NOA.idNumber, { phone: DANA.phone });
      expect(full.statusCode).toBe(409);
      expect(full.json().code).toBe('too_many_identities');
    });
  });

  describe('two-factor', () => {
    it('answers 400 for an unknown token and for another ID number', async () => {
      const { twoFactorToken } = (await login(DANA)).json();
      const code = await lastCode(DANA.phone);
      const unknown = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken: 'nope' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().code).toBe('invalid_two_factor_token');
      const other = await twoFactor({
        idNumber: withIdCheckDigit('12345678'),
        code,
        twoFactorToken,
      });
      expect(other.statusCode).toBe(400);
    });

    it('answers 404 wrong_code, then accepts the right code once', async () => {
      const { twoFactorToken } = (await login(DANA)).json();
      const code = await lastCode(DANA.phone);
      const bad = await twoFactor({ idNumber: DANA.idNumber, code: wrong(code), twoFactorToken });
      expect(bad.statusCode).toBe(404);
      expect(bad.json().code).toBe('wrong_code');
      const good = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken });
      expect(good.statusCode).toBe(200);
      const again = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken });
      expect(again.statusCode).toBe(400);
    });

    it('accepts a code once even when sent many times at once', async () => {
      const { twoFactorToken } = (await login(DANA)).json();
      const code = await lastCode(DANA.phone);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
      expect(await db.select().from(patientSessions)).toHaveLength(1);
    });

    it('lets a code expire after 10 minutes', async () => {
      const { twoFactorToken } = (await login(DANA)).json();
      const code = await lastCode(DANA.phone);
      now += 10 * MINUTE;
      const response = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken });
      expect(response.statusCode).toBe(400);
    });

    it('kills the challenge on the sixth wrong code: the right one no longer works', async () => {
      const { twoFactorToken } = (await login(DANA)).json();
      const code = await lastCode(DANA.phone);
      for (let i = 0; i < 5; i++) {
        const response = await twoFactor({
          idNumber: DANA.idNumber,
          code: wrong(code),
          twoFactorToken,
        });
        expect(response.statusCode).toBe(404);
      }
      const sixth = await twoFactor({ idNumber: DANA.idNumber, code: wrong(code), twoFactorToken });
      expect(sixth.statusCode).toBe(429);
      const right = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken });
      expect(right.statusCode).toBe(429);
    });

    it('replaces the earlier code on resend without resetting the failure count', async () => {
      const first = (await login(DANA)).json().twoFactorToken;
      const firstCode = await lastCode(DANA.phone);
      let token = first;
      let code = firstCode;
      // 4 codes × 5 wrong guesses: 20 failures, each answered 404.
      for (let round = 0; round < 4; round++) {
        if (round > 0) {
          now += MINUTE; // past the resend cooldown
          token = (await login(DANA)).json().twoFactorToken;
          code = await lastCode(DANA.phone);
        }
        for (let i = 0; i < 5; i++) {
          const response = await twoFactor({
            idNumber: DANA.idNumber,
            code: wrong(code),
            twoFactorToken: token,
          });
          expect(response.statusCode).toBe(404);
        }
      }
      // The first code was replaced by the resend.
      const replaced = await twoFactor({
        idNumber: DANA.idNumber,
        code: firstCode,
        twoFactorToken: first,
      });
      expect(replaced.statusCode).toBe(400);
      // Over 20 failures in the hour: even the right code of the live challenge is refused…
      const blocked = await twoFactor({ idNumber: DANA.idNumber, code, twoFactorToken: token });
      expect(blocked.statusCode).toBe(429);
      // …and so is a new code, with no SMS sent.
      const sent = (await messages()).length;
      const resend = await login(DANA);
      expect(resend.statusCode).toBe(429);
      expect(Number(resend.headers['retry-after'])).toBeGreaterThan(0);
      expect(await messages()).toHaveLength(sent);
      // An hour later the patient may try again.
      now += HOUR;
      expect((await login(DANA)).statusCode).toBe(200);
    });
  });

  describe('lockouts and disclosures', () => {
    /** Five wrong codes on each of `codes` fresh codes (a minute apart, past the cooldown). */
    async function failCodes(codes: number) {
      for (let round = 0; round < codes; round++) {
        now += MINUTE;
        const response = await login(DANA);
        expect(response.statusCode).toBe(200);
        const { twoFactorToken } = response.json();
        const code = await lastCode(DANA.phone);
        for (let i = 0; i < 5; i++) {
          await twoFactor({ idNumber: DANA.idNumber, code: wrong(code), twoFactorToken });
        }
      }
    }

    it('doubles the lockout for each further full window of failures within a day', async () => {
      await failCodes(4); // 20 failures: the first lockout, an hour
      expect((await login(DANA)).statusCode).toBe(429);
      now += HOUR;
      await failCodes(4); // 20 more within the day: 2 hours from the last failure
      const lastFailure = now;
      now += HOUR + MINUTE;
      const second = await login(DANA);
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers['retry-after'])).toBe((lastFailure + 2 * HOUR - now) / 1000);
      now = lastFailure + 2 * HOUR;
      expect((await login(DANA)).statusCode).toBe(200);
    });

    it('shows the phone hint 3 times a day per ID number, then 429', async () => {
      const wrongPhone = { ...DANA, phone: '0529999999' };
      for (let i = 0; i < 3; i++) {
        const response = await login(wrongPhone, `203.0.113.${i + 1}`);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'invalid_phone', hint: '567' });
      }
      const fourth = await signUp(wrongPhone, '203.0.113.9');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).not.toHaveProperty('hint');
      expect(JSON.stringify(await database.current.handle.db.select().from(limitEvents))).toContain(
        DANA.idNumber,
      );
      now += 24 * HOUR;
      expect((await login(wrongPhone)).json()).toMatchObject({ code: 'invalid_phone' });
    });
  });

  describe('send limits', () => {
    it('sends at most 5 codes an hour to one phone', async () => {
      for (let i = 0; i < 5; i++) {
        expect((await login(DANA)).statusCode).toBe(200);
        now += MINUTE;
      }
      const sixth = await login(DANA);
      expect(sixth.statusCode).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBe(3600 - 5 * 60);
      expect(await messages()).toHaveLength(5);
      now += 25 * MINUTE;
      expect(Number((await login(DANA)).headers['retry-after'])).toBe(1800);
      now += 30 * MINUTE;
      expect((await login(DANA)).statusCode).toBe(200);
    });

    it('waits 60 seconds between two codes to one phone, as the page counts down', async () => {
      expect((await login(DANA)).statusCode).toBe(200);
      now += 45_000;
      const early = await login(DANA);
      expect(early.statusCode).toBe(429);
      expect(early.headers['retry-after']).toBe('15');
      // The login page counts down from the body's seconds.
      expect(early.json()).toMatchObject({
        code: 'too_many_requests',
        details: { retryAfterSeconds: 15 },
      });
      // Through sign-up as well: the cooldown is the phone's.
      expect((await signUp(DANA)).statusCode).toBe(429);
      now += 15_000;
      expect((await login(DANA)).statusCode).toBe(200);
      expect(await messages()).toHaveLength(2);
    });

    it('holds when requests arrive together: one code, the rest refused', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, () => login(DANA)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(11);
      expect(await messages()).toHaveLength(1);
    });

    it('counts an IPv6 client by its /64', async () => {
      const prefix = '2001:db8:77:1';
      for (let i = 0; i < 30; i++) {
        const base = String(50_000_000 + i * 7919).padStart(8, '0');
        const phone = `05${String(20_000_000 + i)}`;
        const address = `${prefix}::${(i + 1).toString(16)}`;
        const response = await signUp({ idNumber: withIdCheckDigit(base), phone }, address);
        expect(response.statusCode, `send ${i + 1}`).toBe(200);
      }
      const sameNetwork = await signUp(
        { idNumber: withIdCheckDigit('60000000'), phone: '0582222222' },
        `${prefix}:ffff:ffff:ffff:fffe`,
      );
      expect(sameNetwork.statusCode).toBe(429);
      const otherNetwork = await signUp(
        { idNumber: withIdCheckDigit('60000000'), phone: '0582222222' },
        '2001:db8:77:2::1',
      );
      expect(otherNetwork.statusCode).toBe(200);
    });

    it('sends at most 30 codes an hour from one client address', async () => {
      const address = '198.51.100.7';
      for (let i = 0; i < 30; i++) {
        const base = String(30_000_000 + i * 7919).padStart(8, '0');
        const phone = `05${String(10_000_000 + i).slice(0)}`;
        const response = await signUp({ idNumber: withIdCheckDigit(base), phone }, address);
        expect(response.statusCode, `send ${i + 1}`).toBe(200);
      }
      const refused = await signUp(
        { idNumber: withIdCheckDigit('40000000'), phone: '0581111111' },
        address,
      );
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // Another address is not affected.
      const other = await signUp(
        { idNumber: withIdCheckDigit('40000000'), phone: '0581111111' },
        '198.51.100.8',
      );
      expect(other.statusCode).toBe(200);
      expect(await messages()).toHaveLength(31);
    });
  });

  describe('storage', () => {
    it('keeps only hashes of codes and tokens, and the SMS encrypted', async () => {
      const { token, twoFactorToken } = await loggedIn();
      const code = await lastCode(DANA.phone);
      const [challenge] = await db.select().from(authChallenges);
      const [session] = await db.select().from(patientSessions);
      const [message] = await db.select().from(outbox);
      const stored = JSON.stringify([challenge, session, message]);
      for (const secret of [code, token, twoFactorToken]) expect(stored).not.toContain(secret);
      expect(challenge?.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(challenge?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(session?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('sessions', () => {
    it('answers 401 without a token or with an unknown one', async () => {
      expect((await app.inject({ method: 'GET', url: '/api/patient-auth' })).statusCode).toBe(401);
      const empty = await app.inject({
        method: 'GET',
        url: '/api/patient-auth',
        headers: { authorization: 'Bearer ' },
      });
      expect(empty.statusCode).toBe(401);
      expect((await me('x'.repeat(43))).statusCode).toBe(401);
    });

    it('gives a new session at each login', async () => {
      const a = await loggedIn();
      now += MINUTE;
      const b = await loggedIn();
      expect(a.token).not.toBe(b.token);
      expect((await me(a.token)).statusCode).toBe(200);
      expect((await me(b.token)).statusCode).toBe(200);
      expect(Buffer.from(a.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    });

    it('ends after 30 idle minutes', async () => {
      const { token } = await loggedIn();
      now += 29 * MINUTE;
      expect((await me(token)).statusCode).toBe(200);
      now += 29 * MINUTE;
      expect((await me(token)).statusCode).toBe(200);
      now += 31 * MINUTE;
      expect((await me(token)).statusCode).toBe(401);
    });

    it('ends 12 hours after login however active', async () => {
      const { token } = await loggedIn();
      for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
        now += 20 * MINUTE;
        expect((await me(token)).statusCode).toBe(200);
      }
      now += 20 * MINUTE;
      expect((await me(token)).statusCode).toBe(401);
    });

    it('is revoked by logout', async () => {
      const { token } = await loggedIn();
      const headers = { authorization: `Bearer ${token}` };
      const out = await app.inject({ method: 'GET', url: '/api/patient-auth/logout', headers });
      expect(out.statusCode).toBe(200);
      expect((await me(token)).statusCode).toBe(401);
      const again = await app.inject({ method: 'GET', url: '/api/patient-auth/logout', headers });
      expect(again.statusCode).toBe(401);
    });
  });

  describe('per-minute limit', () => {
    it('answers 429 past the per-address limit of a route', async () => {
      const limited = await buildTestApp(database.current.handle, {
        patientAuthAttemptsPerMinute: 3,
      });
      try {
        const pair = await xsrfPair(limited);
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const response = await limited.inject({
            method: 'POST',
            url: '/api/patient-auth/login',
            payload: { clinicId, idNumber: withIdCheckDigit('12345678'), phone: DANA.phone },
            ...pair,
          });
          statuses.push(response.statusCode);
        }
        expect(statuses).toEqual([404, 404, 404, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe('XSRF', () => {
    const body = () => ({ clinicId, ...DANA });

    it('refuses a state-changing call without the header', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/patient-auth/login',
        payload: body(),
        cookies: xsrf.cookies,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('xsrf');
      expect(await messages()).toEqual([]);
    });

    it('refuses a header that does not match the cookie', async () => {
      const other = await xsrfPair(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/patient-auth/login',
        payload: body(),
        cookies: xsrf.cookies,
        headers: other.headers,
      });
      expect(response.statusCode).toBe(403);
    });

    it('refuses a matching pair that the server did not sign, and hands out a real one', async () => {
      const forged = 'a'.repeat(43);
      const response = await app.inject({
        method: 'POST',
        url: '/api/patient-auth/login',
        payload: body(),
        cookies: { '__Host-XSRF-TOKEN': forged },
        headers: { 'x-xsrf-token': forged },
      });
      expect(response.statusCode).toBe(403);
      expect(String(response.headers['set-cookie'])).toMatch(
        /^__Host-XSRF-TOKEN=[\w-]{43}\.[\w-]{43};/,
      );
    });

    it('refuses a call without any cookie', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/patient-auth/two-factor',
        payload: { idNumber: DANA.idNumber, code: '123456', twoFactorToken: 'x' },
        headers: xsrf.headers,
      });
      expect(response.statusCode).toBe(403);
    });
  });
});
