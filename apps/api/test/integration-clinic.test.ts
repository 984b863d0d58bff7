// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ApiKey,
  AuditLogEntry,
  ClinicData,
  IntegrationAppointment,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationClinic,
  Slot,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { createClinicRepository } from '../src/modules/clinics/setup-repository.js';
import { createClinic } from '../src/modules/clinics/create-clinic.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointments,
  auditLog,
  caregiverScheduleExceptions,
  clinics,
  whatsappConnections,
} from '../src/platform/db/schema.js';
import { clinicRow, closedWeek } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertLoggedInPatients, type TestPatient } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Wednesday 2027-03-24, 10:00 in Israel. Clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

const at = (local: string) => zonedToEpoch(local, TZ);

interface Clinic {
  id: number;
  key: string;
  keyId: number;
}

type Issues = { details?: { issues?: { path: string }[] } };

describe.each(engines)('integration API: clinic data and appointments (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let a: Clinic;
  let b: Clinic;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
  });
  afterAll(async () => {
    await app.close();
  });

  async function insertClinic(name: string): Promise<Clinic> {
    const [row] = await db
      .insert(clinics)
      .values({
        ...clinicRow(name),
      })
      .returning({ id: clinics.id });
    if (!row) throw new Error('fixture: clinic');
    const created = await app.apiKeys.create(row.id, 'pms', 'test');
    return { id: row.id, key: created.key, keyId: created.id };
  }

  beforeEach(async () => {
    await database.current.reset();
    a = await insertClinic('מרפאה א');
    b = await insertClinic('מרפאה ב');
  });

  // No XSRF cookie or header anywhere: a bearer key is all an integration call needs.
  const call = (
    key: string | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });

  const expectInvalid = (response: Awaited<ReturnType<typeof call>>, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string } & Issues>();
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  const publicClinic = async (clinicId: number) => {
    const response = await app.inject({ method: 'GET', url: `/api/clinic/${clinicId}` });
    expect(response.statusCode).toBe(200);
    return response.json<ClinicData>();
  };

  const slotsOn = async (clinicId: number, caregiverId: number, date: string, duration = 30) => {
    const query = new URLSearchParams({
      clinicId: String(clinicId),
      caregiverId: String(caregiverId),
      duration: String(duration),
      startDate: `${date} 00:00`,
      endDate: `${date} 23:59`,
    });
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-slots?${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Slot[]>().map((s) => s.start.slice(11, 16));
  };

  async function createType(clinic: Clinic, body: object = {}) {
    const response = await call(clinic.key, 'POST', '/appointment-types', {
      name: 'בדיקה',
      duration_minutes: 30,
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationAppointmentType>();
  }

  /** Thursdays 08:00–10:00, step 30, notice 60 unless `body` says otherwise. */
  async function createCaregiver(clinic: Clinic, body: Record<string, unknown> = {}) {
    const response = await call(clinic.key, 'POST', '/caregivers', {
      name: 'ד"ר דנה',
      license_number: '12345',
      marpe_rules: {
        slot_step_minutes: 30,
        min_notice_minutes: 60,
        weekly_hours: { thursday: [{ start: '08:00', end: '10:00' }] },
      },
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationCaregiver>();
  }

  async function onePatient(clinic: Clinic): Promise<TestPatient> {
    const [patient] = await insertLoggedInPatients(db, { clinicId: clinic.id, count: 1, now: NOW });
    if (!patient) throw new Error('fixture: patient');
    return patient;
  }

  /** An appointment written directly, as if booked earlier. */
  async function insertAppointment(
    clinicId: number,
    ids: { caregiverId: number; typeId: number; patientId: number },
    local: string,
    status: 'booked' | 'cancelled' = 'booked',
  ): Promise<number> {
    const start = at(local);
    const [row] = await db
      .insert(appointments)
      .values({
        clinicId,
        caregiverId: ids.caregiverId,
        appointmentTypeId: ids.typeId,
        patientId: ids.patientId,
        startAt: new Date(start),
        endAt: new Date(start + 30 * MINUTE),
        localDate: local.slice(0, 10),
        status,
        cancelledAt: status === 'cancelled' ? new Date(NOW - HOUR) : null,
      })
      .returning({ id: appointments.id });
    if (!row) throw new Error('fixture: appointment');
    return row.id;
  }

  const auditOf = async (clinic: Clinic, query = '') => {
    const response = await call(clinic.key, 'GET', `/audit-log${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditLogEntry[]>();
  };

  describe('API keys', () => {
    it('answers 401 without a key, with an unknown one and with a revoked one', async () => {
      const unauthorized = [
        await call(null, 'GET', '/clinic'),
        await call('mrp_not-a-key', 'GET', '/clinic'),
        await app.inject({
          method: 'GET',
          url: '/api/integration/clinic',
          headers: { authorization: `Basic ${a.key}` },
        }),
      ];
      for (const response of unauthorized) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ code: 'unauthorized' });
      }
      expect((await call(a.key, 'GET', '/clinic')).statusCode).toBe(200);

      const second = await app.apiKeys.create(a.id, 'second', 'test');
      expect((await call(second.key, 'DELETE', `/api-keys/${second.id}`)).statusCode).toBe(204);
      expect((await call(second.key, 'GET', '/clinic')).statusCode).toBe(401);
      expect((await call(a.key, 'DELETE', `/api-keys/${second.id}`)).statusCode).toBe(404);

      const list = await call(a.key, 'GET', '/api-keys');
      expect(list.statusCode).toBe(200);
      const keys = list.json<ApiKey[]>();
      expect(keys.map((k) => [k.id, k.name, k.revoked_at])).toEqual([
        [a.keyId, 'pms', null],
        [second.id, 'second', new Date(NOW).toISOString()],
      ]);
      expect(keys[0]?.prefix).toBe(a.key.slice(0, keys[0]?.prefix.length));
      expect(list.body).not.toContain(a.key);
      expect(list.body).not.toContain('hash');

      // A key revokes itself: the next call with it is refused.
      expect((await call(a.key, 'DELETE', `/api-keys/${a.keyId}`)).statusCode).toBe(204);
      expect((await call(a.key, 'GET', '/clinic')).statusCode).toBe(401);
      expect((await call(b.key, 'GET', '/clinic')).statusCode).toBe(200);
    });

    it('needs no XSRF header, where a patient write does', async () => {
      const patientWrite = await app.inject({
        method: 'POST',
        url: '/api/appointment/send-sms',
        payload: {},
      });
      expect(patientWrite.statusCode).toBe(403);
      const write = await call(a.key, 'PATCH', '/clinic', { name: 'בלי XSRF' });
      expect(write.statusCode, write.body).toBe(200);
    });

    it('documents every integration route in the OpenAPI under the integration tag', async () => {
      const spec = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
        paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
      }>();
      const routes = Object.entries(spec.paths)
        .filter(([path]) => path.startsWith('/api/integration/'))
        .flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, m, op })));
      for (const path of [
        '/api/integration/clinic',
        '/api/integration/caregivers/{id}',
        '/api/integration/appointment-types/{id}',
        '/api/integration/appointments/{id}/cancel',
        '/api/integration/api-keys/{id}',
        '/api/integration/audit-log',
      ]) {
        expect(routes.map((r) => r.path)).toContain(path);
      }
      for (const { op } of routes) {
        expect(op.tags).toEqual(['integration']);
        expect(op.security).toEqual([{ apiKey: [] }, { deskSession: [] }]);
      }
    });
  });

  describe('clinic profile and settings', () => {
    it('changes the fields given; the public clinic page follows at once', async () => {
      // Read once so the page is cached before the change.
      expect((await publicClinic(a.id)).clinic.name).toBe('מרפאה א');

      const response = await call(a.key, 'PATCH', '/clinic', {
        name: 'מרפאת השיניים',
        address: { city: 'חיפה' },
        email: 'office@clinic.example',
        logo_url: 'https://cdn.example/logo.png',
        timezone: 'asia/jerusalem',
        settings: {
          is_auto_sms_enabled: true,
          cancel_notice_minutes: 60,
          card_terminal: 't1',
          max_upcoming_appointments: 5,
        },
        default_marpe_rules: { slot_step_minutes: 30 },
      });
      expect(response.statusCode, response.body).toBe(200);
      const clinic = response.json<IntegrationClinic>();
      expect(clinic).toMatchObject({
        id: a.id,
        name: 'מרפאת השיניים',
        email: 'office@clinic.example',
        logo_url: 'https://cdn.example/logo.png',
        address: { street: 'הרצל', home_number: '12', city: 'חיפה' },
        timezone: 'Asia/Jerusalem',
        settings: {
          is_accept_new_patients: true,
          is_auto_sms_enabled: true,
          messaging_channel: 'sms',
          card_terminal: 't1',
          cancel_notice_minutes: 60,
          max_upcoming_appointments: 5,
        },
        default_marpe_rules: {
          slot_step_minutes: 30,
          min_notice_minutes: 120,
          booking_horizon_days: 60,
        },
      });
      expect((await call(a.key, 'GET', '/clinic')).json()).toEqual(clinic);

      const page = await publicClinic(a.id);
      expect(page.clinic).toMatchObject({
        name: 'מרפאת השיניים',
        address: { city: 'חיפה' },
        settings: { is_auto_sms_enabled: true },
      });
      expect((await call(b.key, 'GET', '/clinic')).json()).toMatchObject({ name: 'מרפאה ב' });
    });

    it('refuses bad values, naming the field, and changes nothing', async () => {
      const before = (await call(a.key, 'GET', '/clinic')).json<IntegrationClinic>();
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', { timezone: 'Mars/Olympus' }),
        'timezone',
      );
      expectInvalid(await call(a.key, 'PATCH', '/clinic', { timezone: '+03:00' }), 'timezone');
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', { default_marpe_rules: { slot_step_minutes: 3 } }),
        'default_marpe_rules.slot_step_minutes',
      );
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', { settings: { cancel_notice_minutes: -1 } }),
        'settings.cancel_notice_minutes',
      );
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', { settings: { max_upcoming_appointments: 0 } }),
        'settings.max_upcoming_appointments',
      );
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', {
          opening_hours: {
            title: null,
            days: { ...closedWeek, monday: { start: '19:00', end: '08:00' } },
          },
        }),
        'opening_hours.days.monday.end',
      );
      expectInvalid(await call(a.key, 'PATCH', '/clinic', { email: 'nope' }), 'email');
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', { image_url: 'javascript:alert(1)' }),
        'image_url',
      );
      // PostgreSQL cannot store U+0000 in text: refused before it gets there.
      expectInvalid(await call(a.key, 'PATCH', '/clinic', { name: 'a\u0000b' }), 'name');
      expectInvalid(
        await call(a.key, 'PATCH', '/clinic', {
          opening_hours: { title: '\u0000', days: closedWeek },
        }),
        'opening_hours.title',
      );
      // A setting outside `settings` is not silently dropped.
      const misplaced = await call(a.key, 'PATCH', '/clinic', { is_auto_sms_enabled: true });
      expect(misplaced.statusCode).toBe(400);
      expect(misplaced.body).toContain('is_auto_sms_enabled');
      expect((await call(a.key, 'GET', '/clinic')).json()).toEqual(before);
    });

    it('takes messaging_channel whatsapp only once WhatsApp is connected', async () => {
      const whatsapp = { settings: { messaging_channel: 'whatsapp' } };
      expectInvalid(await call(a.key, 'PATCH', '/clinic', whatsapp), 'settings.messaging_channel');
      await db.insert(whatsappConnections).values({
        clinicId: a.id,
        wabaId: 'waba',
        phoneNumberId: 'phone',
        businessId: 'business',
        accessToken: 'sealed',
        connectedAt: new Date(NOW),
      });
      const response = await call(a.key, 'PATCH', '/clinic', whatsapp);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<IntegrationClinic>().settings.messaging_channel).toBe('whatsapp');
      expectInvalid(await call(b.key, 'PATCH', '/clinic', whatsapp), 'settings.messaging_channel');
    });

    it("moves booked appointments' dates with a new time zone", async () => {
      const type = await createType(a);
      const caregiver = await createCaregiver(a);
      const patient = await onePatient(a);
      // 23:30 in Israel (+02:00) is 06:30 the next day in Tokyo (+09:00).
      const id = await insertAppointment(
        a.id,
        { caregiverId: caregiver.id, typeId: type.id, patientId: patient.id },
        '2027-03-25 23:30',
      );
      const response = await call(a.key, 'PATCH', '/clinic', { timezone: 'Asia/Tokyo' });
      expect(response.statusCode, response.body).toBe(200);
      const [row] = await db.select().from(appointments).where(eq(appointments.id, id));
      expect(row?.localDate).toBe('2027-03-26');
      const listed = await call(a.key, 'GET', '/appointments?from=2027-03-26&to=2027-03-26');
      expect(listed.json<IntegrationAppointment[]>().map((x) => x.start_date)).toEqual([
        '2027-03-26T06:30:00+09:00',
      ]);
    });
  });

  describe('caregivers', () => {
    it("books a caregiver made exactly as the integration guide's example shows (no synced calendar)", async () => {
      // The guide's JSON, read from the guide itself so the two cannot drift apart.
      const guide = readFileSync(new URL('../../../docs/integration.md', import.meta.url), 'utf8');
      const block = /### Caregivers[\s\S]*?```json\n([\s\S]*?)```/.exec(guide)?.[1];
      if (!block) throw new Error('the guide has no caregiver example');
      const example = JSON.parse(block) as Record<string, unknown>;
      expect(example.google_calendar_sync_calendar_id).toBeNull();
      const first = await createType(a);
      const third = await createType(a, { name: 'ניקוי' });
      const body = { ...example };
      delete body.id;
      const created = await call(a.key, 'POST', '/caregivers', {
        ...body,
        appointment_type_ids: [first.id, third.id],
      });
      expect(created.statusCode, created.body).toBe(201);
      const caregiverId = created.json<IntegrationCaregiver>().id;

      // The clinic page and the booking steps see a bookable caregiver with a calendar to read.
      const shown = (await publicClinic(a.id)).caregivers.find((c) => c.id === caregiverId);
      expect(shown?.first_available_slot).not.toBeNull();
      expect(shown?.google_calendar_sync_calendar_id).toEqual(expect.any(String));

      // …and the availability calls and the booking agree with it.
      const query = new URLSearchParams({
        clinicId: String(a.id),
        caregiverId: String(caregiverId),
        duration: '30',
      });
      const dates = await app.inject({
        method: 'GET',
        url: `/api/appointment/available-dates?${query}`,
      });
      expect(dates.statusCode, dates.body).toBe(200);
      const [date] = dates.json<string[]>();
      if (!date) throw new Error('no date offered');
      const [slot] = await slotsOn(a.id, caregiverId, date);
      const start = at(`${date} ${slot}`);
      const patient = await onePatient(a);
      const xsrf = await xsrfPair(app);
      const booked = await app.inject({
        method: 'POST',
        url: '/api/appointment',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId: a.id,
          caregiverId,
          appointmentTypeId: first.id,
          startDate: formatZonedIso(start, TZ),
          endDate: formatZonedIso(start + 30 * MINUTE, TZ),
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
    });

    it('publishes an opaque calendar id, synced or not: never the calendar a clinic names', async () => {
      const type = await createType(a);
      const synced = await createCaregiver(a, {
        appointment_type_ids: [type.id],
        google_calendar_sync_calendar_id: 'dana@clinic.example',
      });
      const own = await createCaregiver(a, { appointment_type_ids: [type.id] });
      const shown = (await publicClinic(a.id)).caregivers;
      const calendarOf = (id: number) =>
        shown.find((c) => c.id === id)?.google_calendar_sync_calendar_id;
      // The real id is often a person's email address (ADR 031).
      expect(calendarOf(synced.id)).toBe(`marpe:caregiver:${synced.id}`);
      expect(calendarOf(own.id)).toBe(`marpe:caregiver:${own.id}`);
      expect(JSON.stringify(shown)).not.toContain('dana@clinic.example');
      // The integration API shows what the clinic saved, not the stand-in.
      const named = await call(a.key, 'GET', `/caregivers/${synced.id}`);
      expect(named.json<IntegrationCaregiver>().google_calendar_sync_calendar_id).toBe(
        'dana@clinic.example',
      );
      const saved = await call(a.key, 'GET', `/caregivers/${own.id}`);
      expect(saved.json<IntegrationCaregiver>().google_calendar_sync_calendar_id).toBeNull();
    });

    it('creates a caregiver with hours: it shows on the clinic page and offers slots', async () => {
      expect((await publicClinic(a.id)).caregivers).toEqual([]);
      const type = await createType(a);
      const response = await call(a.key, 'POST', '/caregivers', {
        name: 'ד"ר נועה',
        license_number: '1-234',
        image: '/demo/noa.svg',
        appointment_type_ids: [type.id],
        marpe_rules: {
          slot_step_minutes: 30,
          min_notice_minutes: 60,
          weekly_hours: {
            thursday: [
              { start: '12:00', end: '14:00' },
              { start: '08:00', end: '10:00' },
            ],
          },
          breaks: [{ day: null, start: '13:00', end: '13:30' }],
          exceptions: [{ date: '2027-04-01', note: 'כנס', hours: [] }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      const caregiver = response.json<IntegrationCaregiver>();
      expect(caregiver).toMatchObject({
        name: 'ד"ר נועה',
        license_number: '1-234',
        image: '/demo/noa.svg',
        google_calendar_sync_calendar_id: null,
        is_active: true,
        appointment_type_ids: [type.id],
        marpe_rules: {
          slot_step_minutes: 30,
          min_notice_minutes: 60,
          booking_horizon_days: null,
          weekly_hours: {
            sunday: [],
            thursday: [
              { start: '08:00', end: '10:00' },
              { start: '12:00', end: '14:00' },
            ],
          },
          breaks: [{ day: null, start: '13:00', end: '13:30' }],
          exceptions: [{ date: '2027-04-01', note: 'כנס', hours: [] }],
        },
      });
      expect((await call(a.key, 'GET', `/caregivers/${caregiver.id}`)).json()).toEqual(caregiver);
      expect((await call(a.key, 'GET', '/caregivers')).json()).toEqual([caregiver]);

      const [shown] = (await publicClinic(a.id)).caregivers;
      expect(shown).toMatchObject({
        id: caregiver.id,
        default_appointment_types: [type.id],
        first_available_slot: { start: '2027-03-25T08:00:00+02:00' },
        marpe_rules: {
          slot_step_minutes: 30,
          booking_horizon_days: 60,
          weekly_hours: caregiver.marpe_rules.weekly_hours,
        },
      });
      expect(await slotsOn(a.id, caregiver.id, '2027-03-25')).toEqual([
        '08:00',
        '08:30',
        '09:00',
        '09:30',
        '12:00',
        '12:30',
        '13:30',
      ]);
      // The exception's day off.
      expect(await slotsOn(a.id, caregiver.id, '2027-04-01')).toEqual([]);
    });

    it('refuses overlapping hours and bad rules, naming the field, and writes nothing', async () => {
      const otherType = await createType(b);
      const rules = (marpe_rules: object) => ({ name: 'x', license_number: '1', marpe_rules });
      const cases: [object, string][] = [
        [
          rules({
            weekly_hours: {
              monday: [
                { start: '08:00', end: '12:00' },
                { start: '11:00', end: '13:00' },
              ],
            },
          }),
          'marpe_rules.weekly_hours.monday.1',
        ],
        [
          rules({ weekly_hours: { monday: [{ start: '8:00', end: '12:00' }] } }),
          'marpe_rules.weekly_hours.monday.0.start',
        ],
        [
          rules({ weekly_hours: { monday: [{ start: '12:00', end: '08:00' }] } }),
          'marpe_rules.weekly_hours.monday.0.end',
        ],
        [rules({ slot_step_minutes: 3 }), 'marpe_rules.slot_step_minutes'],
        [rules({ booking_horizon_days: 366 }), 'marpe_rules.booking_horizon_days'],
        [
          rules({ breaks: [{ day: 'monday', start: '13:00', end: '12:00' }] }),
          'marpe_rules.breaks.0.end',
        ],
        [
          rules({
            breaks: [
              { day: 'monday', start: '12:00', end: '13:00' },
              { day: 'tuesday', start: '12:00', end: '13:00' },
              { day: 'monday', start: '12:30', end: '12:45' },
            ],
          }),
          'marpe_rules.breaks.2',
        ],
        [
          rules({ exceptions: [{ date: '2027-03-23', hours: [] }] }),
          'marpe_rules.exceptions.0.date',
        ],
        [
          rules({ exceptions: [{ date: '2027-02-30', hours: [] }] }),
          'marpe_rules.exceptions.0.date',
        ],
        [
          rules({
            exceptions: [
              { date: '2027-04-01', hours: [] },
              { date: '2027-04-01', hours: [] },
            ],
          }),
          'marpe_rules.exceptions.1.date',
        ],
        [
          rules({
            exceptions: [
              {
                date: '2027-04-01',
                hours: [
                  { start: '09:00', end: '11:00' },
                  { start: '10:00', end: '12:00' },
                ],
              },
            ],
          }),
          'marpe_rules.exceptions.0.hours.1',
        ],
        [
          { name: 'x', license_number: '1', appointment_type_ids: [otherType.id] },
          'appointment_type_ids.0',
        ],
        [{ name: ' ', license_number: '1' }, 'name'],
        [{ name: 'x' }, 'license_number'],
      ];
      for (const [body, path] of cases) {
        expectInvalid(await call(a.key, 'POST', '/caregivers', body), path);
      }
      const typo = await call(a.key, 'POST', '/caregivers', rules({ weekly_hours: { sundy: [] } }));
      expect(typo.statusCode).toBe(400);
      expect(typo.body).toContain('sundy');

      expect((await call(a.key, 'GET', '/caregivers')).json()).toEqual([]);
      expect((await auditOf(a)).map((e) => e.action)).not.toContain('caregiver.create');
    });

    it('PATCH replaces the parts given and keeps past exceptions', async () => {
      const caregiver = await createCaregiver(a, {
        marpe_rules: {
          slot_step_minutes: 30,
          weekly_hours: { monday: [{ start: '08:00', end: '12:00' }] },
          breaks: [{ day: 'monday', start: '10:00', end: '10:30' }],
          exceptions: [{ date: '2027-03-29', hours: [{ start: '09:00', end: '10:00' }] }],
        },
      });
      await db
        .insert(caregiverScheduleExceptions)
        .values({ caregiverId: caregiver.id, date: '2027-03-01', note: 'past' });

      const response = await call(a.key, 'PATCH', `/caregivers/${caregiver.id}`, {
        name: 'ד"ר דנה לוי',
        marpe_rules: {
          weekly_hours: { sunday: [{ start: '09:00', end: '11:00' }] },
          exceptions: [{ date: '2027-04-01', hours: [{ start: '14:00', end: '15:00' }] }],
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      const changed = response.json<IntegrationCaregiver>();
      expect(changed.name).toBe('ד"ר דנה לוי');
      expect(changed.license_number).toBe('12345');
      expect(changed.marpe_rules).toMatchObject({
        slot_step_minutes: 30,
        weekly_hours: { sunday: [{ start: '09:00', end: '11:00' }], monday: [] },
        breaks: [{ day: 'monday', start: '10:00', end: '10:30' }],
        exceptions: [{ date: '2027-04-01', note: null, hours: [{ start: '14:00', end: '15:00' }] }],
      });
      const stored = await db
        .select({ date: caregiverScheduleExceptions.date })
        .from(caregiverScheduleExceptions)
        .where(eq(caregiverScheduleExceptions.caregiverId, caregiver.id))
        .orderBy(caregiverScheduleExceptions.date);
      expect(stored.map((e) => e.date)).toEqual(['2027-03-01', '2027-04-01']);

      // null inherits the clinic's rule again.
      const inherit = await call(a.key, 'PATCH', `/caregivers/${caregiver.id}`, {
        marpe_rules: { slot_step_minutes: null },
      });
      expect(inherit.json<IntegrationCaregiver>().marpe_rules.slot_step_minutes).toBeNull();
      expect((await publicClinic(a.id)).caregivers[0]?.marpe_rules.slot_step_minutes).toBe(15);

      expectInvalid(
        await call(a.key, 'PATCH', `/caregivers/${caregiver.id}`, {
          marpe_rules: { exceptions: [{ date: '2027-03-20', hours: [] }] },
        }),
        'marpe_rules.exceptions.0.date',
      );
      expect(
        (await call(a.key, 'GET', `/caregivers/${caregiver.id}`)).json<IntegrationCaregiver>()
          .marpe_rules.exceptions,
      ).toEqual(changed.marpe_rules.exceptions);
    });

    it('deactivating takes a caregiver off the page but keeps its appointments', async () => {
      const type = await createType(a);
      const caregiver = await createCaregiver(a, { appointment_type_ids: [type.id] });
      const patient = await onePatient(a);
      await insertAppointment(
        a.id,
        { caregiverId: caregiver.id, typeId: type.id, patientId: patient.id },
        '2027-03-25 08:00',
      );
      expect((await publicClinic(a.id)).caregivers.map((c) => c.id)).toEqual([caregiver.id]);

      expect((await call(a.key, 'DELETE', `/caregivers/${caregiver.id}`)).statusCode).toBe(204);
      expect((await publicClinic(a.id)).caregivers).toEqual([]);
      const gone = (await call(a.key, 'GET', `/caregivers/${caregiver.id}`)).json();
      expect(gone).toMatchObject({ is_active: false, appointment_type_ids: [type.id] });
      const listed = await call(a.key, 'GET', '/appointments?from=2027-03-25&to=2027-03-25');
      expect(listed.json<IntegrationAppointment[]>()).toMatchObject([
        { caregiver: { id: caregiver.id, name: caregiver.name }, status: 'booked' },
      ]);
      // Again: nothing left to do.
      expect((await call(a.key, 'DELETE', `/caregivers/${caregiver.id}`)).statusCode).toBe(204);

      const back = await call(a.key, 'PATCH', `/caregivers/${caregiver.id}`, { is_active: true });
      expect(back.json()).toMatchObject({ is_active: true });
      expect((await publicClinic(a.id)).caregivers.map((c) => c.id)).toEqual([caregiver.id]);
    });
  });

  describe('appointment types', () => {
    it('manages types and which caregivers offer them', async () => {
      const dana = await createCaregiver(a);
      const noa = await createCaregiver(a, { name: 'ד"ר נועה' });
      const type = await createType(a, { caregiver_ids: [noa.id, dana.id] });
      expect(type).toMatchObject({ name: 'בדיקה', duration_minutes: 30 });
      expect([...type.caregiver_ids].sort()).toEqual([dana.id, noa.id].sort());
      const offered = async (id: number) =>
        (await call(a.key, 'GET', `/caregivers/${id}`)).json<IntegrationCaregiver>()
          .appointment_type_ids;
      expect(await offered(dana.id)).toEqual([type.id]);

      const patched = await call(a.key, 'PATCH', `/appointment-types/${type.id}`, {
        duration_minutes: 45,
        caregiver_ids: [noa.id],
      });
      expect(patched.json()).toMatchObject({ duration_minutes: 45, caregiver_ids: [noa.id] });
      expect(await offered(dana.id)).toEqual([]);

      const second = await createType(a, { name: 'ניקוי' });
      await call(a.key, 'PATCH', `/caregivers/${dana.id}`, {
        appointment_type_ids: [second.id, type.id],
      });
      expect([...(await offered(dana.id))].sort()).toEqual([type.id, second.id].sort());
      const types = (await call(a.key, 'GET', '/appointment-types')).json<
        IntegrationAppointmentType[]
      >();
      expect(types.map((t) => [t.id, t.caregiver_ids.length])).toEqual([
        [type.id, 2],
        [second.id, 1],
      ]);
      expect((await publicClinic(a.id)).appointmentTypes).toContainEqual({
        id: type.id,
        name: 'בדיקה',
        duration_minutes: 45,
      });

      expect((await call(a.key, 'DELETE', `/appointment-types/${second.id}`)).statusCode).toBe(204);
      expect((await call(a.key, 'GET', `/appointment-types/${second.id}`)).statusCode).toBe(404);
      expect(await offered(dana.id)).toEqual([type.id]);
    });

    it('refuses deleting a type appointments have, and bad values', async () => {
      const type = await createType(a);
      const caregiver = await createCaregiver(a, { appointment_type_ids: [type.id] });
      const patient = await onePatient(a);
      await insertAppointment(
        a.id,
        { caregiverId: caregiver.id, typeId: type.id, patientId: patient.id },
        '2027-03-18 08:00',
        'cancelled',
      );
      const refused = await call(a.key, 'DELETE', `/appointment-types/${type.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'conflict' });
      expect((await call(a.key, 'GET', `/appointment-types/${type.id}`)).statusCode).toBe(200);

      const post = (body: object) => call(a.key, 'POST', '/appointment-types', body);
      expectInvalid(await post({ name: 'x', duration_minutes: 0 }), 'duration_minutes');
      expectInvalid(await post({ name: 'x', duration_minutes: 481 }), 'duration_minutes');
      expectInvalid(await post({ duration_minutes: 30 }), 'name');
      expectInvalid(
        await post({
          name: 'x',
          duration_minutes: 30,
          caregiver_ids: [caregiver.id, caregiver.id],
        }),
        'caregiver_ids',
      );
    });
  });

  describe('appointments', () => {
    it("lists the clinic's appointments by clinic dates, both ends included", async () => {
      const type = await createType(a);
      const caregiver = await createCaregiver(a);
      const patient = await onePatient(a);
      const ids = { caregiverId: caregiver.id, typeId: type.id, patientId: patient.id };
      const first = await insertAppointment(a.id, ids, '2027-03-25 09:00');
      const cancelled = await insertAppointment(a.id, ids, '2027-03-26 10:00', 'cancelled');
      const late = await insertAppointment(a.id, ids, '2027-03-26 23:30');
      await insertAppointment(a.id, ids, '2027-03-27 00:00');
      await insertAppointment(a.id, ids, '2027-03-24 23:30');
      const otherType = await createType(b);
      const otherCaregiver = await createCaregiver(b);
      const otherPatient = await onePatient(b);
      await insertAppointment(
        b.id,
        { caregiverId: otherCaregiver.id, typeId: otherType.id, patientId: otherPatient.id },
        '2027-03-25 09:00',
      );

      const response = await call(a.key, 'GET', '/appointments?from=2027-03-25&to=2027-03-26');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const listed = response.json<IntegrationAppointment[]>();
      expect(listed.map((x) => x.id)).toEqual([first, cancelled, late]);
      expect(listed[0]).toEqual({
        id: first,
        status: 'booked',
        start_date: '2027-03-25T09:00:00+02:00',
        end_date: '2027-03-25T09:30:00+02:00',
        caregiver: { id: caregiver.id, name: caregiver.name },
        appointment_type: { id: type.id, name: 'בדיקה' },
        patient: {
          id: patient.id,
          id_number: patient.idNumber,
          first_name: 'מטופל',
          last_name: expect.any(String),
          phone: patient.phone,
        },
        source: 'patient',
        created_at: expect.any(String),
        cancelled_at: null,
        cancel_reason: null,
      });
      // After the spring-forward night the offset is +03:00.
      expect(listed[1]).toMatchObject({
        status: 'cancelled',
        start_date: '2027-03-26T10:00:00+03:00',
        cancelled_at: new Date(NOW - HOUR).toISOString(),
      });

      const booked = await call(
        a.key,
        'GET',
        '/appointments?from=2027-03-25&to=2027-03-26&status=booked',
      );
      expect(booked.json<IntegrationAppointment[]>().map((x) => x.id)).toEqual([first, late]);
    });

    it('refuses bad dates and ranges, naming the parameter', async () => {
      const list = (query: string) => call(a.key, 'GET', `/appointments?${query}`);
      expectInvalid(await list('from=2027-02-30&to=2027-03-01'), 'from');
      expectInvalid(await list('from=25/03/2027&to=2027-03-01'), 'from');
      expectInvalid(await list('from=2027-03-01'), 'to');
      expectInvalid(await list('from=2027-03-02&to=2027-03-01'), 'to');
      // 94 days, then 93.
      expectInvalid(await list('from=2027-01-01&to=2027-04-04'), 'to');
      expect((await list('from=2027-01-01&to=2027-04-03')).statusCode).toBe(200);
      expectInvalid(await list('from=2027-03-01&to=2027-03-01&status=done'), 'status');
    });

    it("cancels on the clinic's behalf within the patient's notice: the slot is free again", async () => {
      const type = await createType(a);
      const caregiver = await createCaregiver(a, { appointment_type_ids: [type.id] });
      const patient = await onePatient(a);
      const xsrf = await xsrfPair(app);
      const start = at('2027-03-25 08:00');
      const booked = await app.inject({
        method: 'POST',
        url: '/api/appointment',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId: a.id,
          caregiverId: caregiver.id,
          appointmentTypeId: type.id,
          startDate: formatZonedIso(start, TZ),
          endDate: formatZonedIso(start + 30 * MINUTE, TZ),
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const { id } = booked.json<{ id: number }>();
      expect(await slotsOn(a.id, caregiver.id, '2027-03-25')).not.toContain('08:00');
      // 22 hours ahead: within the clinic's 24-hour notice, the patient cannot cancel online.
      const byPatient = await app.inject({
        method: 'PUT',
        url: '/api/appointment/patient-appointments',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: { appointmentId: id },
      });
      expect(byPatient.statusCode).toBe(409);

      expect((await call(b.key, 'POST', `/appointments/${id}/cancel`)).statusCode).toBe(404);
      const response = await call(a.key, 'POST', `/appointments/${id}/cancel`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<IntegrationAppointment>()).toMatchObject({
        id,
        status: 'cancelled',
        start_date: '2027-03-25T08:00:00+02:00',
        cancelled_at: new Date(NOW).toISOString(),
        patient: { id: patient.id },
      });
      expect(await slotsOn(a.id, caregiver.id, '2027-03-25')).toContain('08:00');

      const again = await call(a.key, 'POST', `/appointments/${id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'not_cancellable' });
      expect((await call(a.key, 'POST', '/appointments/999999/cancel')).statusCode).toBe(404);
      expect((await call(a.key, 'POST', '/appointments/99999999999/cancel')).statusCode).toBe(404);

      const [entry] = await auditOf(a);
      expect(entry).toMatchObject({
        actor: `api_key:${a.keyId}`,
        action: 'appointment.cancel',
        target_type: 'appointment',
        target_id: String(id),
      });
    });
  });

  it('keeps each key to its own clinic for every resource', async () => {
    const type = await createType(a);
    const caregiver = await createCaregiver(a, { appointment_type_ids: [type.id] });
    const patient = await onePatient(a);
    const appointmentId = await insertAppointment(
      a.id,
      { caregiverId: caregiver.id, typeId: type.id, patientId: patient.id },
      '2027-03-25 08:00',
    );
    const ownCaregiver = await createCaregiver(b);

    const notFound = [
      await call(b.key, 'GET', `/caregivers/${caregiver.id}`),
      await call(b.key, 'PATCH', `/caregivers/${caregiver.id}`, { name: 'x' }),
      await call(b.key, 'DELETE', `/caregivers/${caregiver.id}`),
      await call(b.key, 'GET', `/appointment-types/${type.id}`),
      await call(b.key, 'PATCH', `/appointment-types/${type.id}`, { name: 'x' }),
      await call(b.key, 'DELETE', `/appointment-types/${type.id}`),
      await call(b.key, 'POST', `/appointments/${appointmentId}/cancel`),
      await call(b.key, 'DELETE', `/api-keys/${a.keyId}`),
    ];
    for (const response of notFound) expect(response.statusCode, response.body).toBe(404);

    expectInvalid(
      await call(b.key, 'PATCH', `/caregivers/${ownCaregiver.id}`, {
        appointment_type_ids: [type.id],
      }),
      'appointment_type_ids.0',
    );
    expectInvalid(
      await call(b.key, 'POST', '/appointment-types', {
        name: 'x',
        duration_minutes: 30,
        caregiver_ids: [caregiver.id],
      }),
      'caregiver_ids.0',
    );

    const lists = {
      caregivers: (await call(b.key, 'GET', '/caregivers')).json<{ id: number }[]>(),
      types: (await call(b.key, 'GET', '/appointment-types')).json<{ id: number }[]>(),
      appointments: (await call(b.key, 'GET', '/appointments?from=2027-03-01&to=2027-03-31')).json<
        { id: number }[]
      >(),
      keys: (await call(b.key, 'GET', '/api-keys')).json<{ id: number }[]>(),
      audit: await auditOf(b),
    };
    expect(lists.caregivers.map((c) => c.id)).toEqual([ownCaregiver.id]);
    expect(lists.types).toEqual([]);
    expect(lists.appointments).toEqual([]);
    expect(lists.keys.map((k) => k.id)).toEqual([b.keyId]);
    expect(lists.audit.map((e) => e.action)).toEqual(['caregiver.create', 'api_key.create']);

    // A's data is as it was, and A's key still works.
    const own = await call(a.key, 'GET', `/caregivers/${caregiver.id}`);
    expect(own.json()).toMatchObject({ name: caregiver.name, is_active: true });
    const [row] = await db
      .select({ status: appointments.status })
      .from(appointments)
      .where(and(eq(appointments.id, appointmentId), eq(appointments.clinicId, a.id)));
    expect(row?.status).toBe('booked');
    expect((await call(a.key, 'GET', `/appointment-types/${type.id}`)).statusCode).toBe(200);
  });

  it('limits the calls of each key per minute, not those of other keys', async () => {
    const limited = await buildTestApp(database.current.handle, {
      clock: () => NOW,
      outboxPollIntervalMs: HOUR,
      integrationCallsPerMinute: 3,
    });
    try {
      const get = (key: string | null) =>
        limited.inject({
          method: 'GET',
          url: '/api/integration/clinic',
          headers: key === null ? {} : { authorization: `Bearer ${key}` },
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(a.key)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // Another key of another clinic has its own budget; no key is still 401, not 429.
      expect((await get(b.key)).statusCode).toBe(200);
      expect((await get(null)).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('audits every write with the key as actor; the log reads newest first', async () => {
    await call(a.key, 'PATCH', '/clinic', { name: 'חדש' });
    const type = await createType(a);
    const caregiver = await createCaregiver(a);
    await call(a.key, 'PATCH', `/caregivers/${caregiver.id}`, { sort_order: 2 });
    await call(a.key, 'PATCH', `/appointment-types/${type.id}`, { name: 'ייעוץ' });
    await call(a.key, 'DELETE', `/caregivers/${caregiver.id}`);
    await call(a.key, 'DELETE', `/appointment-types/${type.id}`);

    const entries = await auditOf(a);
    expect(entries.map((e) => e.action)).toEqual([
      'appointment_type.delete',
      'caregiver.deactivate',
      'appointment_type.update',
      'caregiver.update',
      'caregiver.create',
      'appointment_type.create',
      'clinic.update',
      'api_key.create',
    ]);
    for (const entry of entries.slice(0, -1)) {
      expect(entry.actor).toBe(`api_key:${a.keyId}`);
      expect(entry.created_at).toBe(new Date(NOW).toISOString());
    }
    expect(entries[3]).toMatchObject({
      target_type: 'caregiver',
      target_id: String(caregiver.id),
      details: { changes: { sort_order: 2 } },
    });

    const page = await auditOf(a, '?limit=2');
    expect(page.map((e) => e.action)).toEqual(['appointment_type.delete', 'caregiver.deactivate']);
    const next = await auditOf(a, `?limit=2&before=${page[1]?.id}`);
    expect(next.map((e) => e.action)).toEqual(['appointment_type.update', 'caregiver.update']);
    expectInvalid(await call(a.key, 'GET', '/audit-log?limit=0'), 'limit');
  });

  it("creates a clinic for the operator's CLI, audited as cli", async () => {
    const id = await createClinic(
      createClinicRepository(db),
      {
        name: 'מרפאה חדשה',
        phone: '04-8881234',
        street: 'הנביאים',
        homeNumber: '3',
        city: 'חיפה',
        timezone: 'europe/london',
      },
      'cli',
      NOW,
    );
    const page = await publicClinic(id);
    expect(page.clinic).toMatchObject({
      name: 'מרפאה חדשה',
      timezone: 'Europe/London',
      opening_hours: { title: null, days: closedWeek },
    });
    const entries = await db.select().from(auditLog).where(eq(auditLog.clinicId, id));
    expect(entries).toMatchObject([
      { actor: 'cli', action: 'clinic.create', targetId: String(id) },
    ]);
  });
});
