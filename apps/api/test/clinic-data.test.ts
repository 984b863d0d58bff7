// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clinicDataSchema, type Caregiver, type ClinicData } from '@marpe/shared';
import { buildApp, type App } from '../src/app.js';
import { DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import type { DatabaseHandle } from '../src/platform/db/client.js';
import { engines, testConfig, testDataKey, useTestDatabase } from './helper.js';

/** Monday 2027-03-22, 09:14:30 in Israel (+02:00): the seed and the app clock. */
const SEED_NOW = Date.parse('2027-03-22T09:14:30+02:00');

// Every way a repository reaches the database goes through one of these.
const DB_ENTRY_POINTS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'execute',
  'transaction',
  'insert',
  'update',
  'delete',
  'with',
  '$count',
  'query',
]);

/** The handle with its drizzle database wrapped to count the calls the app makes. */
function countingHandle(handle: DatabaseHandle): { handle: DatabaseHandle; calls: () => number } {
  let calls = 0;
  const db = new Proxy(handle.db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !DB_ENTRY_POINTS.has(property)) return value;
      calls += 1;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { handle: { ...handle, db }, calls: () => calls };
}

describe.each(engines)('GET /api/clinic/:id (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const db = () => database.current.handle.db;
  let now = SEED_NOW;
  let app: App;
  let dbCalls: () => number;

  beforeAll(async () => {
    const counting = countingHandle(database.current.handle);
    dbCalls = counting.calls;
    app = await buildApp({
      config: testConfig(),
      database: counting.handle,
      dataKey: testDataKey,
      webDistDir: null,
      clock: () => now,
      // The outbox worker's polls are database calls too: keep them out of the counts below.
      outboxPollIntervalMs: 3_600_000,
    });
    await app.ready();
  });
  beforeEach(async () => {
    now = SEED_NOW;
    await database.current.reset();
    await seedDemoClinic(db(), { now: SEED_NOW });
    await settleNotifications();
  });
  afterAll(async () => {
    await app.close();
  });

  /**
   * Waits until the app has heard every notification sent so far: a late one from the set-up must
   * not empty the cache in the middle of a test. A listener receives notifications in commit order,
   * so once a marker sent now has arrived (clinic 0's version moves), all earlier ones have too.
   */
  const settleNotifications = async () => {
    const before = app.clinicDataCache.version(0);
    await db().execute(sql`SELECT pg_notify('marpe_clinic_changed', '0')`);
    await expect.poll(() => app.clinicDataCache.version(0), { timeout: 3000 }).not.toBe(before);
  };

  const get = async (id: number | string = DEMO_CLINIC_ID) => {
    const response = await app.inject({ method: 'GET', url: `/api/clinic/${id}` });
    return response;
  };
  const getData = async (id: number = DEMO_CLINIC_ID) => {
    const response = await get(id);
    expect(response.statusCode).toBe(200);
    return response.json<ClinicData>();
  };
  const caregiverNamed = (data: ClinicData, name: string): Caregiver => {
    const caregiver = data.caregivers.find((c) => c.name === name);
    if (!caregiver) throw new Error(`no caregiver ${name}`);
    return caregiver;
  };
  const firstSlotOf = async (name: string) =>
    caregiverNamed(await getData(), name).first_available_slot?.start ?? null;

  /**
   * A write committed by another session reaches the app as a notification. PGlite delivers it
   * before the writing statement's promise resolves, so the next request must already see it; a
   * PostgreSQL server sends it over the app's LISTEN connection, which may be a moment behind the
   * writer's, hence the poll there.
   */
  const expectFirstSlot = async (name: string, expected: string | null) => {
    if (engine === 'pglite') expect(await firstSlotOf(name)).toBe(expected);
    else await expect.poll(() => firstSlotOf(name), { timeout: 3000, interval: 20 }).toBe(expected);
  };

  const insertBooking = async (caregiverName: string, start: string, end: string) => {
    await db().execute(sql`
      INSERT INTO appointments
        (clinic_id, caregiver_id, patient_id, appointment_type_id, start_at, end_at, local_date)
      SELECT c.clinic_id, c.id,
        (SELECT min(p.id) FROM patients p WHERE p.clinic_id = c.clinic_id),
        (SELECT min(t.appointment_type_id) FROM caregiver_appointment_types t WHERE t.caregiver_id = c.id),
        ${start}::timestamptz, ${end}::timestamptz,
        (${start}::timestamptz AT TIME ZONE 'Asia/Jerusalem')::date
      FROM caregivers c WHERE c.name = ${caregiverName}`);
  };

  describe('the answer', () => {
    it('has every field of docs/product/clinic-page.md, exactly, for demo clinic 1', async () => {
      const response = await get();
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const data = response.json<ClinicData>();
      // Nothing beyond the contract: parsing (which strips unknown keys) changes nothing.
      expect(clinicDataSchema.parse(data)).toEqual(data);
      expect(Object.keys(data).sort()).toEqual(['appointmentTypes', 'caregivers', 'clinic']);

      expect(data.clinic).toEqual({
        id: 1,
        name: 'מרפאת שיניים לב העיר',
        description: expect.stringContaining('\n'),
        image_url: '/demo/clinic-cover.svg',
        logo_url: '/demo/clinic-logo.svg',
        phone: '03-5551234',
        email: 'info@demo-clinic.example',
        address: { street: 'שדרות רוטשילד', home_number: '45', city: 'תל אביב-יפו' },
        opening_hours: {
          title: 'שעות פעילות',
          days: expect.objectContaining({
            sunday: { start: '08:00', end: '19:00' },
            friday: { start: '08:00', end: '13:00' },
            saturday: null,
          }),
        },
        settings: { is_accept_new_patients: true, is_auto_sms_enabled: false },
        timezone: 'Asia/Jerusalem',
      });

      expect(data.appointmentTypes.map((t) => [t.name, t.duration_minutes])).toEqual([
        ['בדיקה תקופתית', 20],
        ['ניקוי אבנית', 45],
        ['סתימה', 30],
        ['ייעוץ אורתודונטי', 30],
      ]);
      for (const type of data.appointmentTypes) {
        expect(Object.keys(type).sort()).toEqual(['duration_minutes', 'id', 'name']);
      }

      expect(data.caregivers.map((c) => c.name)).toEqual([
        'ד"ר יעל כהן',
        'ד"ר אבי לוי',
        'ד"ר מיכל אברהם',
        'ד"ר נועה פרץ',
      ]);
      const typeId = new Map(data.appointmentTypes.map((t) => [t.name, t.id]));
      for (const caregiver of data.caregivers) {
        expect(Object.keys(caregiver).sort()).toEqual([
          'default_appointment_types',
          'first_available_slot',
          'google_calendar_sync_calendar_id',
          'id',
          'image',
          'license_number',
          'marpe_rules',
          'name',
        ]);
        for (const id of caregiver.default_appointment_types) {
          expect([...typeId.values()]).toContain(id);
        }
      }
      const cohen = caregiverNamed(data, 'ד"ר יעל כהן');
      expect(cohen).toMatchObject({
        image: '/demo/caregiver-cohen.svg',
        license_number: '1-23456',
        // The opaque stand-in of the synced calendar, never its address (ADR 031).
        google_calendar_sync_calendar_id: `marpe:caregiver:${cohen?.id}`,
        default_appointment_types: [
          typeId.get('בדיקה תקופתית'),
          typeId.get('ניקוי אבנית'),
          typeId.get('סתימה'),
        ],
      });
      expect(caregiverNamed(data, 'ד"ר מיכל אברהם').image).toBeNull();
    });

    it("gives each caregiver's effective marpe_rules: own rules over the clinic's defaults", async () => {
      const data = await getData();
      const cohen = caregiverNamed(data, 'ד"ר יעל כהן').marpe_rules;
      const workday = [
        { start: '08:00', end: '14:00' },
        { start: '15:00', end: '19:00' },
      ];
      expect(cohen).toEqual({
        slot_step_minutes: 15,
        min_notice_minutes: 120,
        booking_horizon_days: 60,
        weekly_hours: {
          sunday: workday,
          monday: workday,
          tuesday: workday,
          wednesday: workday,
          thursday: workday,
          friday: [],
          saturday: [],
        },
        breaks: [],
        // A day off on her first working day a week or more after the seed.
        exceptions: [{ date: '2027-03-30', hours: [] }],
      });

      const levi = caregiverNamed(data, 'ד"ר אבי לוי').marpe_rules;
      expect(levi).toMatchObject({
        slot_step_minutes: 30,
        min_notice_minutes: 120,
        booking_horizon_days: 60,
        breaks: [{ day: null, start: '14:00', end: '14:30' }],
        exceptions: [
          { date: '2027-04-01', hours: [{ start: '08:00', end: '12:00' }] },
          { date: '2027-04-08', hours: [] },
        ],
      });
      expect(levi.weekly_hours.monday).toEqual([]);
      expect(levi.weekly_hours.tuesday).toEqual([{ start: '11:00', end: '19:00' }]);

      expect(caregiverNamed(data, 'ד"ר מיכל אברהם').marpe_rules).toMatchObject({
        slot_step_minutes: 15,
        min_notice_minutes: 1440,
        booking_horizon_days: 30,
        weekly_hours: expect.objectContaining({ friday: [{ start: '08:00', end: '12:00' }] }),
      });
      const peretz = caregiverNamed(data, 'ד"ר נועה פרץ').marpe_rules;
      expect(Object.values(peretz.weekly_hours).flat()).toEqual([]);
    });

    it('shows past exceptions no more: only those dated today or later', async () => {
      now = Date.parse('2027-03-31T09:00:00+03:00');
      const data = await getData();
      expect(caregiverNamed(data, 'ד"ר יעל כהן').marpe_rules.exceptions).toEqual([]);
      expect(caregiverNamed(data, 'ד"ר אבי לוי').marpe_rules.exceptions).toHaveLength(2);
    });

    it("gives the first available slot for the caregiver's shortest type, in clinic time", async () => {
      const data = await getData();
      expect(data.caregivers.map((c) => [c.name, c.first_available_slot])).toEqual([
        // 09:14:30 + 2 h notice → the next 15-minute step.
        ['ד"ר יעל כהן', { start: '2027-03-22T11:15:00+02:00' }],
        // Works Sun/Tue/Thu from 11:00; the seeded booking on Tuesday is at 12:00.
        ['ד"ר אבי לוי', { start: '2027-03-23T11:00:00+02:00' }],
        // 24 h notice: Tuesday 09:14 on, and she works Mon/Wed/Fri.
        ['ד"ר מיכל אברהם', { start: '2027-03-24T08:00:00+02:00' }],
        // No working hours.
        ['ד"ר נועה פרץ', null],
      ]);
    });

    it('is null for a caregiver who offers no appointment type', async () => {
      await db().execute(sql`
        DELETE FROM caregiver_appointment_types
        WHERE caregiver_id = (SELECT id FROM caregivers WHERE name = 'ד"ר יעל כהן')`);
      const cohen = caregiverNamed(await getData(), 'ד"ר יעל כהן');
      expect(cohen.default_appointment_types).toEqual([]);
      expect(cohen.first_available_slot).toBeNull();
    });

    it('lists active caregivers only', async () => {
      await db().execute(sql`UPDATE caregivers SET is_active = false WHERE name = 'ד"ר אבי לוי'`);
      const data = await getData();
      expect(data.caregivers.map((c) => c.name)).not.toContain('ד"ר אבי לוי');
      expect(data.caregivers).toHaveLength(3);
    });

    it('shows clinic 2, still setting up, with no slot for anyone', async () => {
      const data = await getData(DEMO_SETUP_CLINIC_ID);
      expect(data.clinic).toMatchObject({
        id: 2,
        name: 'מרפאת השיניים הכרמל',
        image_url: null,
        logo_url: null,
        address: { city: 'חיפה' },
      });
      expect(data.caregivers.length).toBeGreaterThan(0);
      expect(data.appointmentTypes.length).toBeGreaterThan(0);
      for (const caregiver of data.caregivers) {
        expect(caregiver.first_available_slot).toBeNull();
        expect(caregiver.default_appointment_types.length).toBeGreaterThan(0);
        expect(Object.values(caregiver.marpe_rules.weekly_hours).flat()).toEqual([]);
      }
    });
  });

  describe('errors', () => {
    it.each(['abc', '0', '-1', '1.5'])(
      'answers 400 validation_failed naming id for %j',
      async (id) => {
        const response = await get(id);
        expect(response.statusCode).toBe(400);
        const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
        expect(body.code).toBe('validation_failed');
        expect(body.details.issues.map((i) => i.path)).toEqual(['id']);
      },
    );

    it.each(['999', '2147483648', '99999999999999'])(
      'answers 404 clinic_not_found for clinic %s',
      async (id) => {
        const response = await get(id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'clinic_not_found', message: expect.any(String) });
      },
    );

    it('answers 404 once the clinic is gone, even right after serving it', async () => {
      expect((await get()).statusCode).toBe(200);
      await database.current.reset();
      // TRUNCATE fires no row trigger; its statement trigger notifies every clinic.
      if (engine === 'pglite') expect((await get()).statusCode).toBe(404);
      else await expect.poll(async () => (await get()).statusCode, { timeout: 3000 }).toBe(404);
    });
  });

  describe('the cache', () => {
    it('serves a repeated request without any database call, byte for byte', async () => {
      const first = await get();
      const before = dbCalls();
      const second = await get();
      expect(dbCalls()).toBe(before);
      expect(second.body).toBe(first.body);
      expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('computes once for concurrent misses', async () => {
      await get();
      app.clinicDataCache.invalidate(DEMO_CLINIC_ID);
      let before = dbCalls();
      await get();
      const oneComputation = dbCalls() - before;
      expect(oneComputation).toBeGreaterThan(0);

      app.clinicDataCache.invalidate(DEMO_CLINIC_ID);
      before = dbCalls();
      const answers = await Promise.all([get(), get(), get()]);
      expect(dbCalls() - before).toBe(oneComputation);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    });

    it('shows a booking inserted directly with SQL over the first slot, and its cancellation', async () => {
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:15:00+02:00');
      await insertBooking('ד"ר יעל כהן', '2027-03-22T11:15:00+02:00', '2027-03-22T12:00:00+02:00');
      await expectFirstSlot('ד"ר יעל כהן', '2027-03-22T12:00:00+02:00');

      await db().execute(sql`
        UPDATE appointments SET status = 'cancelled', cancelled_at = now()
        WHERE start_at = '2027-03-22T11:15:00+02:00'`);
      await expectFirstSlot('ד"ר יעל כהן', '2027-03-22T11:15:00+02:00');
    });

    it('shows schedule changes written elsewhere: a day off today', async () => {
      await db().execute(sql`
        INSERT INTO caregiver_schedule_exceptions (caregiver_id, date)
        SELECT id, '2027-03-22' FROM caregivers WHERE name = 'ד"ר יעל כהן'`);
      await expectFirstSlot('ד"ר יעל כהן', '2027-03-23T08:00:00+02:00');
    });

    it('serves stale data for a write that notifies nobody until invalidate() is called', async () => {
      await get();
      // Triggers off for this transaction: a write the cache cannot hear of, as if by a module
      // that forgot to invalidate. It shows the entry is really served from memory.
      await db().transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await tx.execute(sql`
          INSERT INTO appointments
            (clinic_id, caregiver_id, patient_id, appointment_type_id, start_at, end_at, local_date)
          SELECT c.clinic_id, c.id, (SELECT min(id) FROM patients), (SELECT min(id) FROM appointment_types),
            '2027-03-22T11:15:00+02:00', '2027-03-22T11:45:00+02:00', '2027-03-22'
          FROM caregivers c WHERE c.name = 'ד"ר יעל כהן'`);
      });
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:15:00+02:00');
      app.clinicDataCache.invalidate(DEMO_CLINIC_ID);
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:45:00+02:00');
    });

    it("expires when the earliest first slot's start minus its notice passes", async () => {
      // 09:14:30: Cohen's first slot is 11:15 (2 h notice), so the answer holds until 09:15.
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:15:00+02:00');
      now = Date.parse('2027-03-22T09:14:59.999+02:00');
      const before = dbCalls();
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:15:00+02:00');
      expect(dbCalls()).toBe(before);

      now = Date.parse('2027-03-22T09:15:00.001+02:00');
      expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:30:00+02:00');
      expect(dbCalls()).toBeGreaterThan(before);
    });

    it.runIf(engine === 'postgres')(
      'turns itself off while its LISTEN connection is down, and back on once reconnected',
      async () => {
        await get();
        await db().execute(sql`
          SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query = 'LISTEN marpe_clinic_changed'`);
        await expect
          .poll(() => app.clinicDataCache.enabled, { timeout: 3000, interval: 5 })
          .toBe(false);
        await expect.poll(() => app.clinicDataCache.enabled, { timeout: 5000 }).toBe(true);

        await settleNotifications();
        expect(await firstSlotOf('ד"ר יעל כהן')).toBe('2027-03-22T11:15:00+02:00');
        await insertBooking(
          'ד"ר יעל כהן',
          '2027-03-22T11:15:00+02:00',
          '2027-03-22T12:00:00+02:00',
        );
        await expectFirstSlot('ד"ר יעל כהן', '2027-03-22T12:00:00+02:00');
      },
    );

    it('expires after 60 seconds in any case', async () => {
      // Clinic 2 has no slot, so nothing but the age limit (and midnight) ends its entry.
      now = Date.parse('2027-03-22T09:00:00+02:00');
      await getData(DEMO_SETUP_CLINIC_ID);
      const before = dbCalls();
      now += 59_999;
      await getData(DEMO_SETUP_CLINIC_ID);
      expect(dbCalls()).toBe(before);
      now += 1;
      await getData(DEMO_SETUP_CLINIC_ID);
      expect(dbCalls()).toBeGreaterThan(before);
    });
  });

  it('documents the answer in the OpenAPI description', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = response.json<{
      paths: Record<
        string,
        Record<string, { tags?: string[]; responses: Record<string, unknown> }>
      >;
    }>();
    const operation = doc.paths['/api/clinic/{id}']?.get;
    expect(operation?.tags).toEqual(['clinics']);
    expect(JSON.stringify(operation?.responses['200'])).toContain('first_available_slot');
    expect(JSON.stringify(operation?.responses['200'])).toContain('marpe_rules');
    expect(doc.paths['/api/appointment/available-dates']?.get?.tags).toEqual(['availability']);
    expect(doc.paths['/api/appointment/available-slots']?.get?.tags).toEqual(['availability']);
  });
});
