// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_IDENTITIES_PER_PHONE,
  withIdCheckDigit,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { demoPatients } from '../src/demo/demo-clinic.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  auditLog,
  authChallenges,
  clinics,
  patients,
} from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertStaffSession } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const START = Date.parse('2027-03-24T10:00:00+02:00');

const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);
/** The n-th valid ID number of a test (8 digits and the check digit). */
const idOf = (n: number) => withIdCheckDigit(String(30_000_000 + n));

type Method = 'GET' | 'POST' | 'PATCH';
type Caller = { key: string } | { desk: { cookies: Record<string, string>; accountId: number } };
type Issues = { code: string; details?: { issues?: { path: string }[] } };

describe.each(engines)('identities per phone, and giving an ID back (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now: number;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let owner: Caller;
  let frontDesk: Caller;
  let otherFrontDesk: Caller;
  let type: IntegrationAppointmentType;
  let caregiverIds: number[];

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
      outboxPollIntervalMs: HOUR,
      patientAuthAttemptsPerMinute: 10_000,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (caller: Caller | null, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...(caller === null
        ? {}
        : 'key' in caller
          ? { headers: bearer(caller.key) }
          : {
              cookies: { ...xsrf.cookies, ...caller.desk.cookies },
              headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
            }),
    });

  const expectInvalid = (response: Awaited<ReturnType<typeof call>>, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<Issues>();
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  beforeEach(async () => {
    await database.current.reset();
    now = START;
    const [main, other] = await db
      .insert(clinics)
      .values([
        { ...clinicRow('מרפאת הזהויות'), isAcceptNewPatients: true },
        clinicRow('מרפאה אחרת'),
      ])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now }) };
    otherFrontDesk = {
      desk: await insertStaffSession(db, { clinicId: otherClinicId, role: 'owner', now }),
    };
    const created = await call({ key }, 'POST', '/appointment-types', {
      name: 'בדיקה',
      duration_minutes: 30,
    });
    expect(created.statusCode, created.body).toBe(201);
    type = created.json<IntegrationAppointmentType>();
    const hours = [{ start: '08:00', end: '16:00' }];
    caregiverIds = [];
    for (const [i, license] of ['12345', '23456', '34567', '45678'].entries()) {
      const response = await call({ key }, 'POST', '/caregivers', {
        name: `ד"ר ${i + 1}`,
        license_number: license,
        appointment_type_ids: [type.id],
        marpe_rules: { weekly_hours: { sunday: hours, monday: hours, thursday: hours } },
      });
      expect(response.statusCode, response.body).toBe(201);
      caregiverIds.push(response.json<IntegrationCaregiver>().id);
    }
  });

  /** A clinic booking (key or desk) for a patient by ID number and phone. */
  const book = (
    caller: Caller,
    patient: { idNumber: string; phone: string; firstName?: string; lastName?: string },
    local: string,
    caregiverId = caregiverIds[0],
  ) =>
    call(caller, 'POST', '/appointments', {
      caregiver_id: caregiverId,
      appointment_type_id: type.id,
      start_date: iso(local),
      outside_working_hours: true,
      patient: {
        id_number: patient.idNumber,
        phone: patient.phone,
        first_name: patient.firstName ?? 'בן',
        last_name: patient.lastName ?? 'משפחה',
      },
    });

  const identitiesOf = async (phone: string, clinic = clinicId) => {
    const [row] = await db
      .select({ n: count() })
      .from(patients)
      .where(and(eq(patients.clinicId, clinic), eq(patients.phone, phone)));
    return row?.n ?? 0;
  };

  /** `n` patients of the clinic on one phone, straight into the table. */
  const family = (n: number, phone: string, from = 100) =>
    db.insert(patients).values(
      Array.from({ length: n }, (_, i) => ({
        clinicId,
        idNumber: idOf(from + i),
        firstName: 'בן',
        lastName: `משפחה ${i}`,
        phone,
      })),
    );

  // The patients' own flow.
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, payload, remoteAddress: '127.0.0.1', ...xsrf });
  const login = (body: { idNumber: string; phone: string }) =>
    post('/api/patient-auth/login', { clinicId, ...body });
  const signUp = (body: { idNumber: string; phone: string }) =>
    post('/api/patient-auth/sign-up', { clinicId, firstName: 'זר', lastName: 'מתחזה', ...body });
  const twoFactor = (body: { idNumber: string; code: string; twoFactorToken: string }) =>
    post('/api/patient-auth/two-factor', body);
  const me = (token: string) =>
    app.inject({ method: 'GET', url: '/api/patient-auth', headers: bearer(token) });
  const messages = useSentMessages(() => app);
  async function lastCode(phone: string): Promise<string> {
    const message = (await messages()).find((m) => m.to === phone);
    const code = /#(\d{6})$/.exec(message?.body ?? '')?.[1];
    if (!code) throw new Error(`no code sent to ${phone}`);
    return code;
  }
  /** A verified session of the patient (login or sign-up), its bearer token. */
  async function verified(
    start: Awaited<ReturnType<typeof login>>,
    patient: { idNumber: string; phone: string },
  ): Promise<string> {
    expect(start.statusCode, start.body).toBe(200);
    const response = await twoFactor({
      idNumber: patient.idNumber,
      code: await lastCode(patient.phone),
      twoFactorToken: start.json().twoFactorToken,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().token as string;
  }

  describe('every path that creates a patient counts identities per phone', () => {
    const PHONE = '0521111111';

    it(`a clinic booking by key signs up at most ${MAX_IDENTITIES_PER_PHONE} ID numbers on one phone`, async () => {
      for (let i = 0; i < MAX_IDENTITIES_PER_PHONE; i++) {
        const response = await book(
          { key },
          { idNumber: idOf(i), phone: PHONE },
          `2027-03-28 0${8 + (i % 2)}:00`,
          caregiverIds[Math.floor(i / 2)],
        );
        expect(response.statusCode, response.body).toBe(201);
      }
      const refused = await book({ key }, { idNumber: idOf(50), phone: PHONE }, '2027-03-29 08:00');
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'too_many_identities',
        details: { max: MAX_IDENTITIES_PER_PHONE },
      });
      // Nobody signed up, nothing booked.
      expect(await identitiesOf(PHONE)).toBe(MAX_IDENTITIES_PER_PHONE);
      const [booked] = await db.select({ n: count() }).from(appointments);
      expect(booked?.n).toBe(MAX_IDENTITIES_PER_PHONE);
      // A known ID number on the full phone still books; another clinic counts its own.
      const known = await book({ key }, { idNumber: idOf(0), phone: PHONE }, '2027-03-29 09:00');
      expect(known.statusCode, known.body).toBe(201);
      // The patients' own sign-up counts the clinic's bookings' identities too.
      const own = await signUp({ idNumber: idOf(51), phone: PHONE });
      expect(own.statusCode, own.body).toBe(409);
      expect(own.json().code).toBe('too_many_identities');
    });

    it("the desk's booking (a staff session) is refused the same way", async () => {
      await family(MAX_IDENTITIES_PER_PHONE, PHONE);
      for (const caller of [frontDesk, owner]) {
        const refused = await book(
          caller,
          { idNumber: idOf(60), phone: PHONE },
          '2027-03-28 08:00',
        );
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json()).toMatchObject({
          code: 'too_many_identities',
          message: `This phone already signs in ${MAX_IDENTITIES_PER_PHONE} ID numbers at the clinic`,
        });
      }
      expect(await identitiesOf(PHONE)).toBe(MAX_IDENTITIES_PER_PHONE);
      // One identity fewer on the phone, and the desk signs the next one up.
      await db.delete(patients).where(eq(patients.idNumber, idOf(100)));
      const booked = await book(
        frontDesk,
        { idNumber: idOf(60), phone: PHONE },
        '2027-03-28 08:00',
      );
      expect(booked.statusCode, booked.body).toBe(201);
      expect(await identitiesOf(PHONE)).toBe(MAX_IDENTITIES_PER_PHONE);
    });

    it('concurrent bookings and sign-ups on one phone cannot overshoot the cap', async () => {
      await family(2, PHONE);
      // Codes out for two sign-ups first, verified in the same race as eight clinic bookings.
      const signUps = [idOf(70), idOf(71)].map((idNumber) => ({ idNumber, phone: PHONE }));
      const codes: { idNumber: string; code: string; twoFactorToken: string }[] = [];
      for (const patient of signUps) {
        const started = await signUp(patient);
        expect(started.statusCode, started.body).toBe(200);
        codes.push({
          idNumber: patient.idNumber,
          code: await lastCode(PHONE),
          twoFactorToken: started.json().twoFactorToken,
        });
        now += 61_000;
      }
      const results = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) =>
          book(
            i % 2 === 0 ? { key } : frontDesk,
            { idNumber: idOf(i), phone: PHONE },
            `2027-03-28 ${String(8 + Math.floor(i / 4)).padStart(2, '0')}:00`,
            caregiverIds[i % 4],
          ),
        ),
        ...codes.map((c) => twoFactor(c)),
      ]);
      const statuses = results.map((r) => r.statusCode);
      const succeeded = statuses.filter((s) => s === 200 || s === 201);
      expect(succeeded, statuses.join()).toHaveLength(MAX_IDENTITIES_PER_PHONE - 2);
      for (const r of results.filter((r) => r.statusCode >= 400)) {
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json().code).toBe('too_many_identities');
      }
      expect(await identitiesOf(PHONE)).toBe(MAX_IDENTITIES_PER_PHONE);
    });

    it("the demo's seeded patients keep to the cap", () => {
      const perPhone = new Map<string, number>();
      for (const p of demoPatients) perPhone.set(p.phone, (perPhone.get(p.phone) ?? 0) + 1);
      expect(Math.max(...perPhone.values())).toBeLessThanOrEqual(MAX_IDENTITIES_PER_PHONE);
    });
  });

  describe('POST /api/integration/patients/:idNumber/reassign', () => {
    const NOA = {
      idNumber: withIdCheckDigit('20547718'),
      phone: '0527654321',
      firstName: 'נועה',
      lastName: 'כהן',
    };
    const SQUATTER = { idNumber: NOA.idNumber, phone: '0548888888' };
    const reassign = (caller: Caller | null, body: object, idNumber = NOA.idNumber) =>
      call(caller, 'POST', `/patients/${idNumber}/reassign`, body);
    const valid = {
      phone: '052-765-4321',
      first_name: ' נועה ',
      last_name: 'כהן',
      identity_document_checked: true,
      reason: 'The owner showed her ID card at the desk; someone else had signed up with it',
    };
    const auditOf = (action: string) =>
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, action)));

    /** Someone signs up with Noa's ID number and their own phone, and books under it. */
    async function squat() {
      const squatterToken = await verified(await signUp(SQUATTER), SQUATTER);
      const booked = await book({ key }, { ...SQUATTER }, '2027-03-29 09:00');
      expect(booked.statusCode, booked.body).toBe(201);
      // A code already on its way to the squatter.
      now += 61_000;
      const pending = await login(SQUATTER);
      expect(pending.statusCode, pending.body).toBe(200);
      // Noa herself only ever hears "another phone".
      expect((await login(NOA)).json()).toMatchObject({ code: 'invalid_phone' });
      return {
        squatterToken,
        appointmentId: booked.json().id as number,
        pendingToken: pending.json().twoFactorToken as string,
      };
    }

    it('gives the ID back: the new phone and names together, sessions and codes end, audited', async () => {
      const { squatterToken, appointmentId, pendingToken } = await squat();
      const response = await reassign(frontDesk, valid);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json()).toEqual({
        patient: {
          id: expect.any(Number),
          id_number: NOA.idNumber,
          first_name: 'נועה',
          last_name: 'כהן',
          phone: NOA.phone,
        },
        sessions_ended: 1,
        upcoming_appointment_ids: [appointmentId],
      });
      // The squatter is out and their code dead.
      expect((await me(squatterToken)).statusCode).toBe(401);
      const late = await twoFactor({
        idNumber: NOA.idNumber,
        code: await lastCode(SQUATTER.phone),
        twoFactorToken: pendingToken,
      });
      expect(late.statusCode).toBe(400);
      const [challenge] = await db
        .select({ status: authChallenges.status })
        .from(authChallenges)
        .where(and(eq(authChallenges.phone, SQUATTER.phone), eq(authChallenges.purpose, 'login')));
      expect(challenge?.status).toBe('replaced');
      // Noa logs in with her phone and sees the names she gave.
      now += 61_000;
      const token = await verified(await login(NOA), NOA);
      expect((await me(token)).json()).toMatchObject({
        id_number: NOA.idNumber,
        first_name: 'נועה',
        last_name: 'כהן',
        phone: NOA.phone,
      });
      // What belongs to the ID stays: the appointment is kept for the desk to review.
      const [kept] = await db
        .select({ status: appointments.status })
        .from(appointments)
        .where(eq(appointments.id, appointmentId));
      expect(kept?.status).toBe('booked');
      // One audit entry: who, why, the phones' last digits only.
      const [entry, ...more] = await auditOf('patient.reassign');
      expect(more).toEqual([]);
      expect(entry?.actor).toMatch(/^staff:/);
      expect(entry).toMatchObject({
        targetType: 'patient',
        details: {
          reason: valid.reason,
          identity_document_checked: true,
          previous_phone_ends: '888',
          phone_ends: '321',
          previous_first_name: 'זר',
          previous_last_name: 'מתחזה',
          first_name: 'נועה',
          last_name: 'כהן',
          sessions_ended: 1,
          upcoming_appointment_ids: [appointmentId],
        },
      });
      const written = JSON.stringify(entry?.details);
      expect(written).not.toContain(SQUATTER.phone);
      expect(written).not.toContain(NOA.phone);
    });

    it('refuses a phone that already signs in the most ID numbers, changing nothing', async () => {
      const { squatterToken } = await squat();
      await family(MAX_IDENTITIES_PER_PHONE, NOA.phone);
      const full = await reassign(owner, valid);
      expect(full.statusCode, full.body).toBe(409);
      expect(full.json()).toMatchObject({
        code: 'too_many_identities',
        details: { max: MAX_IDENTITIES_PER_PHONE },
      });
      expect((await me(squatterToken)).statusCode).toBe(200);
      const row = await call(frontDesk, 'GET', `/patients/${NOA.idNumber}`);
      expect(row.json()).toMatchObject({ first_name: 'זר', phone: SQUATTER.phone });
      expect(await auditOf('patient.reassign')).toEqual([]);
    });

    it('with the phone already on file, still replaces the names and ends every session', async () => {
      const { squatterToken } = await squat();
      const response = await reassign({ key }, { ...valid, phone: SQUATTER.phone });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().patient).toMatchObject({ first_name: 'נועה', phone: SQUATTER.phone });
      expect((await me(squatterToken)).statusCode).toBe(401);
      expect((await auditOf('patient.reassign'))[0]?.actor).toMatch(/^api_key:/);
    });

    it('answers 400 naming the field', async () => {
      await squat();
      const without = (field: keyof typeof valid) =>
        Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field));
      expectInvalid(
        await reassign(frontDesk, without('identity_document_checked')),
        'identity_document_checked',
      );
      expectInvalid(
        await reassign(frontDesk, { ...valid, identity_document_checked: false }),
        'identity_document_checked',
      );
      expectInvalid(await reassign(frontDesk, without('phone')), 'phone');
      expectInvalid(await reassign(frontDesk, { ...valid, phone: '03-5551234' }), 'phone');
      expectInvalid(await reassign(frontDesk, without('first_name')), 'first_name');
      expectInvalid(await reassign(frontDesk, { ...valid, last_name: '  ' }), 'last_name');
      expectInvalid(await reassign(frontDesk, without('reason')), 'reason');
      expectInvalid(await reassign(frontDesk, { ...valid, reason: ' ' }), 'reason');
      expectInvalid(await reassign(frontDesk, { ...valid, reason: 'א'.repeat(501) }), 'reason');
      expectInvalid(await reassign(frontDesk, { ...valid, nickname: 'x' }), 'body');
      expectInvalid(await reassign(frontDesk, valid, '123456789'), 'idNumber');
      expect(await auditOf('patient.reassign')).toEqual([]);
    });

    it('answers 404 for an unknown ID or another clinic; 401 without a caller; both roles and keys may', async () => {
      await squat();
      const unknown = await reassign(frontDesk, valid, withIdCheckDigit('12345678'));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('patient_not_found');
      const foreign = await reassign(otherFrontDesk, valid);
      expect(foreign.statusCode).toBe(404);
      expect((await reassign(null, valid)).statusCode).toBe(401);
      // A desk call without the anti-forgery token is refused before anything changes.
      const forged = await app.inject({
        method: 'POST',
        url: `/api/integration/patients/${NOA.idNumber}/reassign`,
        payload: valid,
        cookies: 'desk' in frontDesk ? frontDesk.desk.cookies : {},
      });
      expect(forged.statusCode).toBe(403);
      expect(await auditOf('patient.reassign')).toEqual([]);
      for (const caller of [owner, frontDesk, { key }]) {
        const response = await reassign(caller, valid);
        expect(response.statusCode, response.body).toBe(200);
      }
      expect(await auditOf('patient.reassign')).toHaveLength(3);
    });
  });
});
