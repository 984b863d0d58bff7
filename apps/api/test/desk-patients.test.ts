// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  withIdCheckDigit,
  type IntegrationAppointment,
  type IntegrationAppointmentType,
  type IntegrationCaregiver,
  type IntegrationPatient,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog, clinics, patients } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertStaffSession } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const HOUR = 3_600_000;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);

type Method = 'GET' | 'POST' | 'PATCH';
type Caller = { key: string } | { desk: { cookies: Record<string, string>; accountId: number } };
type Issues = { code: string; details?: { issues?: { path: string }[] } };

describe.each(engines)("the desk's patients: the clinic API it calls (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let owner: Caller;
  let frontDesk: Caller;
  let otherFrontDesk: Caller;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (caller: Caller, method: Method, url: string, payload?: object) =>
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

  const expectInvalid = (response: Awaited<ReturnType<typeof call>>, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<Issues>();
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  /** 30 patients of the clinic: last names אבן 01 … אבן 30, and one of the other clinic's. */
  const many = Array.from({ length: 30 }, (_, i) => ({
    idNumber: withIdCheckDigit(String(40_000_000 + i)),
    firstName: i % 2 === 0 ? 'שרה' : 'Sarah',
    lastName: `אבן ${String(i + 1).padStart(2, '0')}`,
    phone: `0541${String(i).padStart(6, '0')}`,
  }));
  const NOA = {
    idNumber: withIdCheckDigit('03984512'),
    firstName: 'נועה',
    lastName: 'כהן',
    phone: '0527000001',
  };

  beforeEach(async () => {
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת המטופלים'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(otherClinicId, 'pms', 'test')).key;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now: NOW }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now: NOW }) };
    otherFrontDesk = {
      desk: await insertStaffSession(db, { clinicId: otherClinicId, role: 'front_desk', now: NOW }),
    };
    await db.insert(patients).values([
      { clinicId, ...NOA },
      ...many.map((p) => ({ clinicId, ...p })),
      // The other clinic's patient: the same name, another ID number and phone.
      {
        clinicId: otherClinicId,
        idNumber: withIdCheckDigit('50000004'),
        firstName: 'נועה',
        lastName: 'כהן',
        phone: '0527000002',
      },
    ]);
  });

  const list = async (query: Record<string, string>, caller: Caller = frontDesk) => {
    const response = await call(caller, 'GET', `/patients?${new URLSearchParams(query)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationPatient[]>();
  };

  describe('GET /api/integration/patients', () => {
    it('lists every patient by last and first name with nothing typed, a page at a time', async () => {
      const first = await list({ limit: '10' });
      expect(first.map((p) => p.last_name)).toEqual(many.slice(0, 10).map((p) => p.lastName));
      const second = await list({ limit: '10', offset: '10' });
      expect(second.map((p) => p.last_name)).toEqual(many.slice(10, 20).map((p) => p.lastName));
      // The last page is short: 30 + Noa (כהן, after every אבן).
      const last = await list({ limit: '10', offset: '30' });
      expect(last.map((p) => p.id_number)).toEqual([NOA.idNumber]);
      expect(await list({ limit: '10', offset: '40' })).toEqual([]);
      expect(await list({ q: ' ', limit: '50' })).toHaveLength(31);
      // Default page: 20.
      expect(await list({})).toHaveLength(20);
    });

    it('pages a search too, whole words first, and matches names in any case', async () => {
      const sarahs = await list({ q: 'sarah', limit: '50' });
      expect(sarahs).toHaveLength(15);
      const upper = await list({ q: 'SAR', limit: '50' });
      expect(upper.map((p) => p.id)).toEqual(sarahs.map((p) => p.id));
      const pages = [
        ...(await list({ q: 'אבן', limit: '12' })),
        ...(await list({ q: 'אבן', limit: '12', offset: '12' })),
        ...(await list({ q: 'אבן', limit: '12', offset: '24' })),
      ];
      expect(pages.map((p) => p.last_name)).toEqual(many.map((p) => p.lastName));
      expect((await list({ q: 'נוע כה' })).map((p) => p.id_number)).toEqual([NOA.idNumber]);
      expect((await list({ q: '052-700' })).map((p) => p.id_number)).toEqual([NOA.idNumber]);
    });

    it("never lists another clinic's patients", async () => {
      const theirs = await list({ limit: '50' }, otherFrontDesk);
      expect(theirs.map((p) => p.id_number)).toEqual([withIdCheckDigit('50000004')]);
      expect(await list({ q: NOA.idNumber }, otherFrontDesk)).toEqual([]);
      expect(await list({ q: '0527000002' }, frontDesk)).toEqual([]);
    });

    it('answers 400 naming the field', async () => {
      expectInvalid(await call(frontDesk, 'GET', '/patients?offset=-1'), 'offset');
      expectInvalid(await call(frontDesk, 'GET', '/patients?offset=x'), 'offset');
      expectInvalid(await call(frontDesk, 'GET', '/patients?limit=51'), 'limit');
      expectInvalid(await call(frontDesk, 'GET', `/patients?q=${'א'.repeat(101)}`), 'q');
    });
  });

  describe('GET /api/integration/patients/:idNumber', () => {
    it('answers the patient to both roles and keys, with or without leading zeros', async () => {
      for (const caller of [frontDesk, owner, { key }]) {
        const response = await call(caller, 'GET', `/patients/${NOA.idNumber.replace(/^0+/, '')}`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({
          id: expect.any(Number),
          id_number: NOA.idNumber,
          first_name: 'נועה',
          last_name: 'כהן',
          phone: '0527000001',
        });
        expect(response.headers['cache-control']).toBe('no-store');
      }
    });

    it("answers 404 patient_not_found for unknown and another clinic's; 400 for a bad ID", async () => {
      const unknown = await call(frontDesk, 'GET', `/patients/${withIdCheckDigit('12345678')}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('patient_not_found');
      const foreign = await call(frontDesk, 'GET', `/patients/${withIdCheckDigit('50000004')}`);
      expect(foreign.statusCode).toBe(404);
      const mine = await call(otherFrontDesk, 'GET', `/patients/${NOA.idNumber}`);
      expect(mine.statusCode).toBe(404);
      expectInvalid(await call(frontDesk, 'GET', '/patients/123456789'), 'idNumber');
      expect((await call({ key: 'mrp_nope' }, 'GET', `/patients/${NOA.idNumber}`)).statusCode).toBe(
        401,
      );
    });
  });

  describe('PATCH /api/integration/patients/:idNumber', () => {
    const patch = (caller: Caller, body: object, idNumber = NOA.idNumber) =>
      call(caller, 'PATCH', `/patients/${idNumber}`, body);
    const auditOf = (action: string) =>
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, action)));

    it('corrects names (front desk may), tidied as a booking takes them, audited before and after', async () => {
      const response = await patch(frontDesk, {
        first_name: '  נועה מרים ',
        last_name: 'כהן-לוי',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        id_number: NOA.idNumber,
        first_name: 'נועה מרים',
        last_name: 'כהן-לוי',
        phone: NOA.phone,
      });
      const [entry, ...more] = await auditOf('patient.update_name');
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        targetType: 'patient',
        details: {
          previous_first_name: 'נועה',
          previous_last_name: 'כהן',
          first_name: 'נועה מרים',
          last_name: 'כהן-לוי',
        },
      });
      expect(entry?.actor).toMatch(/^staff:/);
      expect(await auditOf('patient.update_phone')).toEqual([]);
      // The same names again change nothing and are not audited again.
      expect((await patch(owner, { last_name: 'כהן-לוי' })).statusCode).toBe(200);
      expect(await auditOf('patient.update_name')).toHaveLength(1);
      const found = await list({ q: 'נועה כהן-ל' });
      expect(found.map((p) => p.last_name)).toEqual(['כהן-לוי']);
    });

    it('corrects names and phone together, each audited; all or nothing', async () => {
      const both = await patch(frontDesk, { first_name: 'נעמה', phone: '054-123 4567' });
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json()).toMatchObject({
        first_name: 'נעמה',
        last_name: 'כהן',
        phone: '0541234567',
      });
      expect((await auditOf('patient.update_name'))[0]?.details).toMatchObject({
        previous_first_name: 'נועה',
        first_name: 'נעמה',
      });
      expect((await auditOf('patient.update_phone'))[0]?.details).toEqual({
        previous_phone_ends: '001',
        phone_ends: '567',
      });
      // A full phone refuses the whole change: the name stays as it was.
      await db.insert(patients).values(
        Array.from({ length: 6 }, (_, i) => ({
          clinicId,
          idNumber: withIdCheckDigit(String(60_000_000 + i)),
          firstName: 'משפחה',
          lastName: `${i}`,
          phone: '0509999999',
        })),
      );
      const full = await patch(frontDesk, { first_name: 'אחרת', phone: '0509999999' });
      expect(full.statusCode).toBe(409);
      expect(full.json().code).toBe('too_many_identities');
      const after = await call(frontDesk, 'GET', `/patients/${NOA.idNumber}`);
      expect(after.json()).toMatchObject({ first_name: 'נעמה', phone: '0541234567' });
      expect(await auditOf('patient.update_name')).toHaveLength(1);
    });

    it('answers 400 naming the field, 404 for unknown or another clinic', async () => {
      expectInvalid(await patch(frontDesk, { first_name: '   ' }), 'first_name');
      expectInvalid(await patch(frontDesk, { last_name: 'א'.repeat(51) }), 'last_name');
      expectInvalid(await patch(frontDesk, { phone: '03-5551234' }), 'phone');
      expectInvalid(await patch(frontDesk, { first_name: 'a', nickname: 'b' }), 'body');
      expectInvalid(await patch(frontDesk, {}), 'body');
      const foreign = await patch(otherFrontDesk, { first_name: 'זרה' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().code).toBe('patient_not_found');
      const row = await call(frontDesk, 'GET', `/patients/${NOA.idNumber}`);
      expect(row.json().first_name).toBe('נועה');
    });
  });

  describe('GET /api/integration/appointments?patient_id_number=', () => {
    let caregiver: IntegrationCaregiver;
    let type: IntegrationAppointmentType;

    beforeEach(async () => {
      const created = await call({ key }, 'POST', '/appointment-types', {
        name: 'בדיקה',
        duration_minutes: 30,
      });
      type = created.json<IntegrationAppointmentType>();
      const hours = [{ start: '08:00', end: '16:00' }];
      const response = await call({ key }, 'POST', '/caregivers', {
        name: 'ד"ר דנה',
        license_number: '12345',
        appointment_type_ids: [type.id],
        marpe_rules: {
          weekly_hours: {
            sunday: hours,
            monday: hours,
            tuesday: hours,
            wednesday: hours,
            thursday: hours,
          },
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      caregiver = response.json<IntegrationCaregiver>();
    });

    const book = async (local: string, patient = NOA) => {
      const response = await call({ key }, 'POST', '/appointments', {
        caregiver_id: caregiver.id,
        appointment_type_id: type.id,
        start_date: iso(local),
        outside_working_hours: true,
        patient: {
          id_number: patient.idNumber,
          phone: patient.phone,
          first_name: patient.firstName,
          last_name: patient.lastName,
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<IntegrationAppointment>();
    };

    const byPatient = async (query: string, caller: Caller = frontDesk) => {
      const response = await call(caller, 'GET', `/appointments?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<IntegrationAppointment[]>();
    };

    it("lists one patient's appointments, unbounded without dates, either order, limited", async () => {
      const later = await book('2027-09-01 09:00');
      const soon = await book('2027-03-25 09:00');
      const middle = await book('2027-05-02 09:00');
      const cancelled = await call(frontDesk, 'POST', `/appointments/${middle.id}/cancel`, {});
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      // Someone else's appointment the same days.
      await book('2027-03-25 10:00', many[0]);
      const all = await byPatient(`patient_id_number=${NOA.idNumber.replace(/^0+/, '')}`);
      expect(all.map((a) => a.id)).toEqual([soon.id, middle.id, later.id]);
      expect(all.every((a) => a.patient.id_number === NOA.idNumber)).toBe(true);
      const newest = await byPatient(`patient_id_number=${NOA.idNumber}&order=desc&limit=2`);
      expect(newest.map((a) => a.id)).toEqual([later.id, middle.id]);
      const upcoming = await byPatient(
        `patient_id_number=${NOA.idNumber}&from=2027-04-01&status=booked`,
      );
      expect(upcoming.map((a) => a.id)).toEqual([later.id]);
      const before = await byPatient(`patient_id_number=${NOA.idNumber}&to=2027-05-02&order=desc`);
      expect(before.map((a) => a.id)).toEqual([middle.id, soon.id]);
      // A patient's range may be longer than the diary's 93 days.
      const year = await byPatient(
        `patient_id_number=${NOA.idNumber}&from=2027-01-01&to=2027-12-31`,
      );
      expect(year).toHaveLength(3);
      // An unknown ID number has none.
      expect(await byPatient(`patient_id_number=${withIdCheckDigit('12345678')}`)).toEqual([]);
      // Keys and owners the same.
      expect(await byPatient(`patient_id_number=${NOA.idNumber}`, { key })).toHaveLength(3);
      expect(await byPatient(`patient_id_number=${NOA.idNumber}`, owner)).toHaveLength(3);
    });

    it("never shows another clinic's patient's appointments", async () => {
      await book('2027-03-25 09:00');
      expect(await byPatient(`patient_id_number=${NOA.idNumber}`, otherFrontDesk)).toEqual([]);
      expect(await byPatient(`patient_id_number=${NOA.idNumber}`, { key: otherKey })).toEqual([]);
    });

    it('keeps the range rules without a patient; 400 naming the field', async () => {
      expectInvalid(await call(frontDesk, 'GET', '/appointments'), 'from');
      expectInvalid(await call(frontDesk, 'GET', '/appointments?from=2027-03-01'), 'to');
      expectInvalid(
        await call(frontDesk, 'GET', '/appointments?from=2027-01-01&to=2027-12-31'),
        'to',
      );
      expectInvalid(
        await call(frontDesk, 'GET', `/appointments?patient_id_number=123456789`),
        'patient_id_number',
      );
      expectInvalid(
        await call(frontDesk, 'GET', `/appointments?patient_id_number=${NOA.idNumber}&limit=501`),
        'limit',
      );
      expectInvalid(
        await call(
          frontDesk,
          'GET',
          `/appointments?patient_id_number=${NOA.idNumber}&from=2027-03-02&to=2027-03-01`,
        ),
        'to',
      );
      expectInvalid(
        await call(frontDesk, 'GET', `/appointments?patient_id_number=${NOA.idNumber}&order=up`),
        'order',
      );
    });
  });
});
