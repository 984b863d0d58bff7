// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultReminderSettings,
  type DevMessage,
  type IntegrationClinic,
  type IntegrationReminder,
  type ReminderSettings,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { setMessageCapCeilings } from '../src/modules/integration/message-caps.js';
import { DEFAULT_MESSAGE_CAP_CEILINGS } from '../src/platform/config.js';
import type { Database } from '../src/platform/db/client.js';
import { auditLog, outbox, patients } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { insertCaregiver, insertClinics, insertTypes } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer, insertLoggedInPatients, insertSessions, type TestPatient } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = 'https://marpe.example';

/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const THURSDAY = '2027-03-25';

const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);

/** A valid Israeli ID number (check digit) from 8 digits. */
function israeliId(eight: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    let d = Number(eight[i]) * (i % 2 === 0 ? 1 : 2);
    if (d > 9) d -= 9;
    sum += d;
  }
  return `${eight}${(10 - (sum % 10)) % 10}`;
}

const remindersOn = (overrides: Partial<ReminderSettings> = {}): ReminderSettings => ({
  ...defaultReminderSettings,
  enabled: true,
  ...overrides,
});

interface Fixture {
  clinicId: number;
  caregiverId: number;
  typeId: number;
  key: string;
}

type Issues = {
  code: string;
  message: string;
  details?: { issues?: { path: string; message: string }[] };
};

describe.each(engines)('message limits (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = NOW;
  let f: Fixture;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
      clock: () => now,
      // The tests run the outbox and the reminders themselves.
      outboxPollIntervalMs: HOUR,
      reminderPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  let sentBefore = 0;
  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    const [clinicId] = await insertClinics(db, ['מרפאת המכסות']);
    const [typeId] = await insertTypes(db, [
      { clinicId, name: 'בדיקה תקופתית', durationMinutes: 30 },
    ]);
    const caregiverId = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      typeIds: [typeId],
      hours: [0, 1, 2, 3, 4].map((weekDay) => ({ weekDay, startTime: '08:00', endTime: '16:00' })),
    });
    const key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    f = { clinicId, caregiverId, typeId, key };
    sentBefore = (await allMessages()).length;
  });

  async function runOutbox() {
    while ((await app.messaging.runOutbox()) > 0);
  }
  async function allMessages(): Promise<DevMessage[]> {
    await runOutbox();
    return (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json();
  }
  /** Messages sent since the last call (or the test's start), oldest first. */
  async function newMessages(): Promise<DevMessage[]> {
    const all = await allMessages();
    const fresh = all.slice(0, all.length - sentBefore).reverse();
    sentBefore = all.length;
    return fresh;
  }

  const api = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url: `/api/integration${url}`, payload, headers: bearer(f.key) });

  async function refusals() {
    return db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, f.clinicId), eq(auditLog.action, 'message.refused')));
  }

  describe("the operator's ceilings", () => {
    it('refuses caps above the ceilings with 400 naming the field and the ceiling', async () => {
      // The finding: a key raised its own caps to the columns' bounds.
      for (const [name, value, ceiling] of [
        ['per_recipient_per_hour', 100, 5],
        ['per_recipient_per_day', 1000, 20],
        ['per_clinic_per_day', 100_000, 2000],
      ] as const) {
        const response = await api('PATCH', '/clinic', {
          settings: { message_caps: { [name]: value } },
        });
        expect(response.statusCode, response.body).toBe(400);
        const body = response.json<Issues>();
        expect(body.code).toBe('validation_failed');
        expect(body.details?.issues).toEqual([
          {
            path: `settings.message_caps.${name}`,
            message: expect.stringContaining(`At most ${ceiling}`),
          },
        ]);
      }
      // Nothing was changed, the whole PATCH refused with it.
      const both = await api('PATCH', '/clinic', {
        name: 'שם חדש',
        settings: { message_caps: { per_recipient_per_hour: 4, per_recipient_per_day: 21 } },
      });
      expect(both.statusCode, both.body).toBe(400);
      const clinic = (await api('GET', '/clinic')).json<IntegrationClinic>();
      expect(clinic.name).toBe('מרפאת המכסות');
      expect(clinic.settings.message_caps).toEqual({
        per_recipient_per_hour: 3,
        per_recipient_per_day: 10,
        per_clinic_per_day: 500,
      });
      expect(clinic.message_cap_ceilings).toEqual({
        per_recipient_per_hour: 5,
        per_recipient_per_day: 20,
        per_clinic_per_day: 2000,
      });
    });

    it('accepts caps at or below the ceilings, lower ones too', async () => {
      const atCeiling = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 5, per_clinic_per_day: 2000 } },
      });
      expect(atCeiling.statusCode, atCeiling.body).toBe(200);
      expect(atCeiling.json<IntegrationClinic>().settings.message_caps).toEqual({
        per_recipient_per_hour: 5,
        per_recipient_per_day: 10,
        per_clinic_per_day: 2000,
      });
      const lower = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_day: 4 } },
      });
      expect(lower.statusCode, lower.body).toBe(200);
      expect(lower.json<IntegrationClinic>().settings.message_caps.per_recipient_per_day).toBe(4);
    });

    it('applies a lowered ceiling at once to caps saved above it', async () => {
      const saved = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 5 } },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // The operator restarts with a lower ceiling: the clinic's row is not rewritten.
      const lowered = await buildTestApp(database.current.handle, {
        config: testConfig({ PUBLIC_ORIGIN: ORIGIN, MESSAGE_CAP_RECIPIENT_HOUR_MAX: '2' }),
        clock: () => now,
        outboxPollIntervalMs: HOUR,
        reminderPollIntervalMs: HOUR,
      });
      try {
        await lowered.ready();
        const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
          lowered.inject({
            method,
            url: `/api/integration${url}`,
            payload,
            headers: bearer(f.key),
          });
        const clinic = (await call('GET', '/clinic')).json<IntegrationClinic>();
        expect(clinic.settings.message_caps.per_recipient_per_hour).toBe(2);
        expect(clinic.message_cap_ceilings.per_recipient_per_hour).toBe(2);
        expectInvalidCap(
          await call('PATCH', '/clinic', {
            settings: { message_caps: { per_recipient_per_hour: 3 } },
          }),
          'settings.message_caps.per_recipient_per_hour',
          'At most 2',
        );
        // Two clinic bookings with the details to one number; the third is refused.
        const patient = { phone: '0541112233', first_name: 'יעל', last_name: 'כהן' };
        const codes: number[] = [];
        for (const [i, time] of ['09:00', '10:00', '11:00'].entries()) {
          const response = await call('POST', '/appointments', {
            caregiver_id: f.caregiverId,
            appointment_type_id: f.typeId,
            start_date: iso(`2027-03-${25 + i * 3} ${time}`),
            patient: { ...patient, id_number: israeliId(`3123456${i}`) },
            send_sms: true,
          });
          codes.push(response.statusCode);
          if (i === 2) {
            expect(response.json()).toMatchObject({
              code: 'too_many_requests',
              details: { cap: 'per_recipient_per_hour', max: 2 },
            });
          }
        }
        expect(codes).toEqual([201, 201, 429]);
      } finally {
        await lowered.close();
        // The ceilings are the process's: give the other tests back this file's app's.
        setMessageCapCeilings(DEFAULT_MESSAGE_CAP_CEILINGS);
      }
    });

    it('refuses a bad ceiling in the configuration, naming it', () => {
      expect(() => testConfig({ MESSAGE_CAP_CLINIC_DAY_MAX: '0' })).toThrow(
        /MESSAGE_CAP_CLINIC_DAY_MAX must be a whole number from 1 to 100000/,
      );
      expect(() => testConfig({ MESSAGE_CAP_RECIPIENT_HOUR_MAX: '101' })).toThrow(
        /MESSAGE_CAP_RECIPIENT_HOUR_MAX/,
      );
      expect(testConfig({ MESSAGE_CAP_RECIPIENT_DAY_MAX: '7' }).messageCapCeilings).toEqual({
        perRecipientPerHour: 5,
        perRecipientPerDay: 7,
        perClinicPerDay: 2000,
      });
    });
  });

  function expectInvalidCap(response: Awaited<ReturnType<typeof api>>, path: string, text: string) {
    expect(response.statusCode, response.body).toBe(400);
    const issues = response.json<Issues>().details?.issues ?? [];
    expect(issues.map((i) => i.path)).toEqual([path]);
    expect(issues[0]?.message).toContain(text);
  }

  describe('reminders', () => {
    it('counts them: clinic bookings for several IDs on one phone send at most the cap, the rest refused and audited', async () => {
      const settings = await api(
        'PUT',
        '/reminders/settings',
        // 12 hours before: from 21:00 on, moved out of quiet hours to 20:59 the evening before.
        remindersOn({ lead_minutes: [720] }),
      );
      expect(settings.statusCode, settings.body).toBe(200);
      const phone = '0527654321';
      const ids: number[] = [];
      // The finding had 8 IDs on one phone; sign-ups now stop sooner (identities per phone).
      for (let i = 0; i < 5; i++) {
        const minutes = 8 * 60 + 30 * i;
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        const response = await api('POST', '/appointments', {
          caregiver_id: f.caregiverId,
          appointment_type_id: f.typeId,
          start_date: iso(`${THURSDAY} ${time}`),
          patient: {
            id_number: israeliId(`4123456${i}`),
            phone,
            first_name: 'מטופל',
            last_name: `מספר ${i}`,
          },
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json<{ id: number }>().id);
      }
      const dueAt = async (id: number) => {
        const response = await api('GET', `/appointments/${id}/reminders`);
        expect(response.statusCode, response.body).toBe(200);
        return response.json<IntegrationReminder[]>();
      };
      expect((await dueAt(ids[4] as number))[0]?.due_at).toBe(iso('2027-03-24 20:59'));

      now = at('2027-03-24 20:59');
      expect(await app.reminders.runOnce()).toBe(3);
      const statuses = [];
      for (const id of ids) statuses.push((await dueAt(id))[0]?.status);
      expect(statuses.filter((s) => s === 'sent')).toHaveLength(3);
      expect(statuses.filter((s) => s === 'refused')).toHaveLength(2);
      expect((await newMessages()).map((m) => m.to)).toEqual([phone, phone, phone]);
      const refused = await refusals();
      expect(refused).toHaveLength(2);
      expect(refused[0]).toMatchObject({
        actor: 'reminders',
        details: { kind: 'reminder', cap: 'per_recipient_per_hour', max: 3, to_last_digits: '321' },
      });
      // Settled: none is sent later.
      now = at('2027-03-24 22:30');
      expect(await app.reminders.runOnce()).toBe(0);
      expect(await newMessages()).toEqual([]);
    });

    it("counts reminders against the clinic's cap in all", async () => {
      const capped = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_clinic_per_day: 2 } },
      });
      expect(capped.statusCode, capped.body).toBe(200);
      expect(
        (await api('PUT', '/reminders/settings', remindersOn({ lead_minutes: [180] }))).statusCode,
      ).toBe(200);
      const group = await insertLoggedInPatients(db, { clinicId: f.clinicId, count: 3, now });
      for (const [i, patient] of group.entries()) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/appointment',
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(patient.token) },
          payload: {
            clinicId: f.clinicId,
            caregiverId: f.caregiverId,
            appointmentTypeId: f.typeId,
            startDate: iso(`${THURSDAY} 1${i + 1}:00`),
            endDate: iso(`${THURSDAY} 1${i + 1}:30`),
          },
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      // Three hours before each: all three due, none started.
      now = at(`${THURSDAY} 10:00`);
      expect(await app.reminders.runOnce()).toBe(2);
      // The outbox sends several at once: in any order.
      expect((await newMessages()).map((m) => m.to).sort()).toEqual(
        group.slice(0, 2).map((p: TestPatient) => p.phone),
      );
      expect((await refusals()).map((r) => r.details)).toEqual([
        expect.objectContaining({ kind: 'reminder', cap: 'per_clinic_per_day', max: 2 }),
      ]);
    });
  });

  describe('details the patient asks for', () => {
    it('counts them: past the cap, 429 with the cap and an audit entry', async () => {
      const capped = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 2 } },
      });
      expect(capped.statusCode, capped.body).toBe(200);
      const [patient] = await insertLoggedInPatients(db, { clinicId: f.clinicId, count: 1, now });
      if (!patient) throw new Error('no patient');
      const place = {
        clinicId: f.clinicId,
        caregiverId: f.caregiverId,
        appointmentTypeId: f.typeId,
        startDate: iso(`${THURSDAY} 10:00`),
        endDate: iso(`${THURSDAY} 10:30`),
      };
      const write = (url: string) =>
        app.inject({
          method: 'POST',
          url,
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(patient.token) },
          payload: place,
        });
      expect((await write('/api/appointment')).statusCode).toBe(201);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await write('/api/appointment/send-sms'));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
      expect(answers[2]?.json()).toMatchObject({
        code: 'too_many_requests',
        details: { cap: 'per_recipient_per_hour', max: 2 },
      });
      expect((await newMessages()).map((m) => m.to)).toEqual([patient.phone, patient.phone]);
      expect((await refusals()).map((r) => [r.actor, r.details])).toEqual([
        [
          `patient:${patient.id}`,
          expect.objectContaining({ kind: 'appointment_details', cap: 'per_recipient_per_hour' }),
        ],
      ]);
    });
  });

  describe('waitlist offers', () => {
    const join = (patient: TestPatient) =>
      app.inject({
        method: 'POST',
        url: '/api/waitlist',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId: f.clinicId,
          caregiverId: f.caregiverId,
          appointmentTypeId: f.typeId,
          fromDate: THURSDAY,
          toDate: THURSDAY,
          partOfDay: 'any',
        },
      });

    it('skips a patient whose number is at its cap: the time goes to the next in line, the first is told once the cap frees', async () => {
      const capped = await api('PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 1 } },
      });
      expect(capped.statusCode, capped.body).toBe(200);
      // The clinic books the first patient for another day with the details: their number is
      // at its cap for an hour.
      const firstPhone = '0541112233';
      const other = await api('POST', '/appointments', {
        caregiver_id: f.caregiverId,
        appointment_type_id: f.typeId,
        start_date: iso('2027-03-28 09:00'),
        patient: {
          id_number: israeliId('61234567'),
          phone: firstPhone,
          first_name: 'מטופל',
          last_name: 'ראשון',
        },
        send_sms: true,
      });
      expect(other.statusCode, other.body).toBe(201);
      expect((await newMessages()).map((m) => m.to)).toEqual([firstPhone]);
      const [firstRow] = await db.select().from(patients).where(eq(patients.phone, firstPhone));
      if (!firstRow) throw new Error('no patient');
      const [firstToken] = await insertSessions(db, [firstRow.id], now);
      const first = { ...firstRow, token: firstToken as string } as unknown as TestPatient;
      // Three behind them: as many as one freed time is offered to at once.
      const behind = await insertLoggedInPatients(db, { clinicId: f.clinicId, count: 3, now });
      for (const patient of [first, ...behind]) {
        now += MINUTE;
        const joined = await join(patient);
        expect(joined.statusCode, joined.body).toBe(201);
      }

      // A booking of Thursday 09:00 is cancelled: the freed time is offered.
      const booked = await api('POST', '/appointments', {
        caregiver_id: f.caregiverId,
        appointment_type_id: f.typeId,
        start_date: iso(`${THURSDAY} 09:00`),
        patient: {
          id_number: israeliId('51234567'),
          phone: '0501231234',
          first_name: 'מטופל',
          last_name: 'מבטל',
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const id = booked.json<{ id: number }>().id;
      const cancelled = await api('POST', `/appointments/${id}/cancel`, {});
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      now += MINUTE;
      // The cancelled patient may be told of the cancellation: only the waiting ones count here.
      const waitingPhones = (messages: DevMessage[]) =>
        messages.filter((m) => [first, ...behind].some((p) => p.phone === m.to));
      const offers = waitingPhones(await newMessages());
      expect(offers.map((m) => m.to).sort()).toEqual(behind.map((p) => p.phone).sort());
      expect(offers[0]?.body).toContain('09:00');
      expect((await refusals()).map((r) => [r.actor, r.details])).toEqual([
        [
          'waitlist',
          expect.objectContaining({ kind: 'waitlist_offer', cap: 'per_recipient_per_hour' }),
        ],
      ]);

      // Once the hour has passed, the first in line is told of the time still free.
      now += HOUR;
      const later = waitingPhones(await newMessages());
      expect(later.map((m) => m.to)).toEqual([first.phone]);
      expect(later[0]?.body).toContain('09:00');
    });
  });

  describe('quiet hours at send time', () => {
    let gateway: Loopback;
    let failing = true;
    let smsApp: App;

    beforeAll(async () => {
      gateway = await startLoopback(() => (failing ? { status: 503 } : { status: 200, body: {} }));
      smsApp = await buildTestApp(database.current.handle, {
        config: testConfig({
          PUBLIC_ORIGIN: ORIGIN,
          SMS_PROVIDER: 'http',
          SMS_HTTP_URL: gateway.url('/send'),
          SMS_HTTP_TOKEN: 'token',
          SMS_SENDER: 'Marpe',
        }),
        clock: () => now,
        outboxPollIntervalMs: HOUR,
        reminderPollIntervalMs: HOUR,
      });
      await smsApp.ready();
    });
    afterAll(async () => {
      await smsApp.close();
      await gateway.close();
    });
    beforeEach(() => {
      gateway.reset();
      failing = true;
    });

    const rowOf = async (kind: string) => {
      const rows = await db.select().from(outbox).where(eq(outbox.topic, 'sms'));
      return rows.find((r) => r.clinicId === f.clinicId && r.id === ids.get(kind));
    };
    const ids = new Map<string, number>();
    async function queue(
      kind: 'reminder' | 'form_link' | 'appointment_cancelled' | 'waitlist_offer',
      expiresAt?: number,
    ) {
      await db.transaction(async (tx) => {
        await smsApp.messaging.queueMessage(tx, {
          clinicId: f.clinicId,
          to: '0521231234',
          body: `a ${kind}`,
          kind,
          ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
        });
      });
      const rows = await db.select({ id: outbox.id }).from(outbox).where(eq(outbox.topic, 'sms'));
      ids.set(kind, Math.max(...rows.map((r) => r.id)));
    }
    const sentTexts = () =>
      gateway.requests.map((r) => (JSON.parse(r.body) as { text: string }).text);

    it('defers a reminder whose retry falls in quiet hours to their end, and sends it then', async () => {
      now = at('2027-03-24 20:50');
      await queue('reminder', at(`${THURSDAY} 10:00`));
      await smsApp.messaging.runOutbox();
      expect(gateway.requests).toHaveLength(1);
      const failed = await rowOf('reminder');
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });

      // The gateway is down until after 21:00: the next try falls in quiet hours.
      now = at('2027-03-24 21:10');
      failing = false;
      expect(await smsApp.messaging.runOutbox()).toBe(1);
      expect(gateway.requests).toHaveLength(1);
      const deferred = await rowOf('reminder');
      expect(deferred).toMatchObject({ status: 'pending', attempts: 1 });
      expect(deferred?.nextAttemptAt.getTime()).toBe(at(`${THURSDAY} 08:00`));

      now = at(`${THURSDAY} 07:59`);
      expect(await smsApp.messaging.runOutbox()).toBe(0);
      now = at(`${THURSDAY} 08:00`);
      expect(await smsApp.messaging.runOutbox()).toBe(1);
      expect(sentTexts()).toEqual(['a reminder', 'a reminder']);
      expect(await rowOf('reminder')).toMatchObject({ status: 'sent', attempts: 2 });
    });

    it('expires a reminder or offer no longer of use when quiet hours end; tells a change at once; sends what a person sends', async () => {
      failing = false;
      now = at('2027-03-24 22:00');
      // Appointments at 07:30, before quiet hours end.
      await queue('reminder', at(`${THURSDAY} 07:30`));
      await queue('waitlist_offer', at(`${THURSDAY} 07:30`));
      await queue('appointment_cancelled', at(`${THURSDAY} 07:30`));
      await queue('form_link');
      await smsApp.messaging.runOutbox();
      expect(sentTexts().sort()).toEqual(['a appointment_cancelled', 'a form_link']);
      for (const kind of ['reminder', 'waitlist_offer']) {
        const row = await rowOf(kind);
        expect(row).toMatchObject({ status: 'pending', attempts: 0 });
        expect(row?.nextAttemptAt.getTime()).toBe(at(`${THURSDAY} 07:30`));
      }
      now = at(`${THURSDAY} 07:30`);
      await smsApp.messaging.runOutbox();
      expect(gateway.requests).toHaveLength(2);
      expect(await rowOf('reminder')).toMatchObject({ status: 'expired' });
      expect(await rowOf('waitlist_offer')).toMatchObject({ status: 'expired' });
    });

    it('holds a change notice whose retry falls at night, unless its appointment is too soon after', async () => {
      now = at('2027-03-24 20:50');
      // One about Thursday 12:00, one about Thursday 09:00: the gateway fails them both.
      await queue('appointment_cancelled', at(`${THURSDAY} 12:00`));
      const far = ids.get('appointment_cancelled');
      await queue('appointment_cancelled', at(`${THURSDAY} 09:00`));
      const soon = ids.get('appointment_cancelled');
      await smsApp.messaging.runOutbox();
      expect(gateway.requests).toHaveLength(2);

      now = at('2027-03-24 21:10');
      failing = false;
      await smsApp.messaging.runOutbox();
      // Told at 08:00, an hour before 09:00, would be too late: it goes now. The other waits.
      expect(gateway.requests).toHaveLength(3);
      const rows = await db.select().from(outbox).where(eq(outbox.topic, 'sms'));
      expect(rows.find((r) => r.id === soon)).toMatchObject({ status: 'sent' });
      const held = rows.find((r) => r.id === far);
      expect(held).toMatchObject({ status: 'pending', attempts: 1 });
      expect(held?.nextAttemptAt.getTime()).toBe(at(`${THURSDAY} 08:00`));
    });

    it("keeps the clinic's own quiet hours and Shabbat, as its reminders do", async () => {
      failing = false;
      const saved = await api(
        'PUT',
        '/reminders/settings',
        remindersOn({
          quiet_hours: { start: '22:00', end: '07:00' },
          observe_shabbat_and_holidays: true,
        }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      now = at('2027-03-24 21:30');
      await queue('reminder');
      await smsApp.messaging.runOutbox();
      expect(gateway.requests).toHaveLength(1);
      // Friday 2027-03-26 at noon, then Shabbat: a reminder queued during it waits for its end.
      gateway.reset();
      now = at('2027-03-27 12:00');
      await queue('reminder');
      await smsApp.messaging.runOutbox();
      expect(gateway.requests).toHaveLength(0);
      const row = await rowOf('reminder');
      expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(at('2027-03-27 19:00'));
      expect(row?.nextAttemptAt.getTime()).toBeLessThan(at('2027-03-27 20:00'));
    });
  });
});
