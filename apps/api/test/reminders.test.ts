// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultReminderSettings,
  type BookedAppointment,
  type IntegrationReminder,
  type ReminderSettings,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { restSpans } from '../src/modules/messaging/rest-days.js';
import type { Database } from '../src/platform/db/client.js';
import {
  appointmentReminders,
  auditLog,
  outbox,
  whatsappConnections,
} from '../src/platform/db/schema.js';
import { insertCaregiver, insertClinics, insertTypes } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  useSentMessages,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import { bearer, insertLoggedInPatients, type TestPatient } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = 'https://marpe.example';

/** Wednesday 2027-03-24, 10:00 in Israel. Clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

const at = (local: string) => zonedToEpoch(local, TZ);
const iso = (local: string) => formatZonedIso(at(local), TZ);

const remindersOn = (overrides: Partial<ReminderSettings> = {}): ReminderSettings => ({
  ...defaultReminderSettings,
  enabled: true,
  ...overrides,
});

/** Where a patient books: a clinic, its caregiver and its check-up. */
interface BookingPlace {
  clinicId: number;
  caregiverId: number;
  appointmentTypeId: number;
}

interface Fixture {
  clinicId: number;
  otherClinicId: number;
  caregiverId: number;
  typeId: number;
  /** The other clinic's caregiver and check-up, for batches that hold both clinics' reminders. */
  other: BookingPlace;
}

/** Two clinics whose caregivers work Sunday to Thursday 08:00–16:00 (30-minute check-ups). */
async function insertFixture(db: Database): Promise<Fixture> {
  const [clinicId, otherClinicId] = await insertClinics(db, ['מרפאת התזכורות', 'מרפאה אחרת']);
  const [typeId, otherTypeId] = await insertTypes(db, [
    { clinicId, name: 'בדיקה תקופתית', durationMinutes: 30 },
    { clinicId: otherClinicId, name: 'בדיקה', durationMinutes: 30 },
  ]);
  const hours = [0, 1, 2, 3, 4].map((weekDay) => ({
    weekDay,
    startTime: '08:00',
    endTime: '16:00',
  }));
  const caregiverId = await insertCaregiver(db, {
    clinicId,
    name: 'ד"ר דנה',
    licenseNumber: '1-1',
    typeIds: [typeId],
    hours,
  });
  const otherCaregiverId = await insertCaregiver(db, {
    clinicId: otherClinicId,
    name: 'ד"ר אחר',
    licenseNumber: '1-2',
    typeIds: [otherTypeId],
    hours,
  });
  return {
    clinicId,
    otherClinicId,
    caregiverId,
    typeId,
    other: {
      clinicId: otherClinicId,
      caregiverId: otherCaregiverId,
      appointmentTypeId: otherTypeId,
    },
  };
}

describe.each(engines)('reminders (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  /** A second instance on the same database: reminders go once whoever claims them. */
  let second: App;
  let db: Database;
  let now = NOW;
  let f: Fixture;
  let key: string;
  let otherKey: string;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    const options = {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
      clock: () => now,
      // The tests run the outbox and the reminders themselves.
      outboxPollIntervalMs: HOUR,
      reminderPollIntervalMs: HOUR,
    };
    app = await buildTestApp(database.current.handle, options);
    second = await buildTestApp(database.current.handle, options);
    await app.ready();
    await second.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });
  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    f = await insertFixture(db);
    key = (await app.apiKeys.create(f.clinicId, 'pms', 'cli')).key;
    otherKey = (await app.apiKeys.create(f.otherClinicId, 'pms', 'cli')).key;
  });

  const messages = useSentMessages(() => app);

  const api = (
    method: 'GET' | 'PUT' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
    apiKey = key,
  ) => app.inject({ method, url: `/api/integration${url}`, payload, headers: bearer(apiKey) });

  async function setReminders(settings: ReminderSettings, apiKey = key) {
    const response = await api('PUT', '/reminders/settings', settings, apiKey);
    expect(response.statusCode, response.body).toBe(200);
  }

  async function patients(count: number): Promise<TestPatient[]> {
    return insertLoggedInPatients(db, { clinicId: f.clinicId, count, now });
  }
  /** Two patients logged in now (sessions last 12 hours: make them after moving the clock). */
  async function twoPatients(): Promise<[TestPatient, TestPatient]> {
    const [first, second] = await patients(2);
    if (!first || !second) throw new Error('no patients');
    return [first, second];
  }
  async function onePatient(): Promise<TestPatient> {
    return (await twoPatients())[0];
  }

  const slot = (local: string) => ({
    startDate: iso(local),
    endDate: formatZonedIso(at(local) + 30 * MINUTE, TZ),
  });

  async function book(
    patient: TestPatient,
    local: string,
    language = 'he',
    place: BookingPlace = {
      clinicId: f.clinicId,
      caregiverId: f.caregiverId,
      appointmentTypeId: f.typeId,
    },
  ): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient.token), 'accept-language': language },
      payload: { ...place, ...slot(local) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BookedAppointment>().id;
  }

  async function reminders(appointmentId: number, apiKey = key) {
    const response = await api(
      'GET',
      `/appointments/${appointmentId}/reminders`,
      undefined,
      apiKey,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationReminder[]>();
  }

  const brief = async (appointmentId: number) =>
    (await reminders(appointmentId)).map((r) => [r.lead_minutes, r.status, r.due_at]);

  describe('settings', () => {
    it('are off until the clinic sets them, and are kept per clinic', async () => {
      const fresh = await api('GET', '/reminders/settings');
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json()).toEqual(defaultReminderSettings);

      const wanted = remindersOn({
        lead_minutes: [2880, 60],
        channel: 'whatsapp',
        quiet_hours: { start: '22:30', end: '07:15' },
        observe_shabbat_and_holidays: true,
      });
      const saved = await api('PUT', '/reminders/settings', wanted);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual(wanted);
      expect((await api('GET', '/reminders/settings')).json()).toEqual(wanted);
      expect((await api('GET', '/reminders/settings', undefined, otherKey)).json()).toEqual(
        defaultReminderSettings,
      );

      const [entry] = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clinicId, f.clinicId), eq(auditLog.action, 'reminders.update')));
      expect(entry?.details).toEqual({ settings: wanted });
    });

    it.each([
      ['lead_minutes.0', { lead_minutes: [10] }],
      ['lead_minutes.0', { lead_minutes: [20_000] }],
      ['lead_minutes', { lead_minutes: [] }],
      ['lead_minutes', { lead_minutes: [60, 120, 180, 240] }],
      ['lead_minutes', { lead_minutes: [60, 60] }],
      ['lead_minutes.0', { lead_minutes: [90.5] }],
      ['channel', { channel: 'email' }],
      ['quiet_hours.start', { quiet_hours: { start: '24:00', end: '08:00' } }],
      ['quiet_hours.end', { quiet_hours: { start: '21:00' } }],
      ['observe_shabbat_and_holidays', { observe_shabbat_and_holidays: 'yes' }],
      // An unknown field is named in the message of the body's issue.
      ['body', { reminders: true }],
    ])('refuse a bad %s with a 400 naming it', async (path, change) => {
      const response = await api('PUT', '/reminders/settings', { ...remindersOn(), ...change });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ code: string; details: { issues: { path: string }[] } }>();
      expect(body.code).toBe('validation_failed');
      expect(body.details.issues.map((i) => i.path)).toContain(path);
      if (path === 'body') expect(response.body).toContain('reminders');
      expect((await api('GET', '/reminders/settings')).json()).toEqual(defaultReminderSettings);
    });

    it('need an API key', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/integration/reminders/settings',
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('planning', () => {
    it('plans nothing while reminders are off', async () => {
      const patient = await onePatient();
      const id = await book(patient, '2027-03-29 10:00');
      expect(await reminders(id)).toEqual([]);
    });

    it('plans each lead time on booking, out of quiet hours and Shabbat', async () => {
      await setReminders(remindersOn({ observe_shabbat_and_holidays: true }));
      const patient = await onePatient();
      // Sunday 09:00, after the clocks went forward: the day before is Shabbat, so the reminder
      // goes on Friday before candle lighting; 07:00 is quiet, so the 2-hour one goes on Saturday
      // night at 20:59, after havdalah.
      const id = await book(patient, '2027-03-28 09:00');
      const [shabbat] = restSpans('2027-03-27', '2027-03-27');
      expect(shabbat).toBeDefined();
      expect(await reminders(id)).toEqual([
        {
          id: expect.any(Number),
          lead_minutes: 1440,
          status: 'scheduled',
          due_at: formatZonedIso((shabbat?.start ?? 0) - MINUTE, TZ),
          appointment_start_date: '2027-03-28T09:00:00+03:00',
          sent_at: null,
          channel: null,
        },
        {
          id: expect.any(Number),
          lead_minutes: 120,
          status: 'scheduled',
          due_at: '2027-03-27T20:59:00+03:00',
          appointment_start_date: '2027-03-28T09:00:00+03:00',
          sent_at: null,
          channel: null,
        },
      ]);
    });

    it('gives no late reminder for a lead time that has passed', async () => {
      await setReminders(remindersOn());
      const patient = await onePatient();
      // Thursday 09:00 booked on Wednesday at 10:00: the day-before reminder would have gone at
      // 09:00 today. The 2-hour one (07:00, quiet) goes on Wednesday evening.
      const id = await book(patient, '2027-03-25 09:00');
      expect(await brief(id)).toEqual([[120, 'scheduled', '2027-03-24T20:59:00+02:00']]);
    });

    it('withdraws them when the patient or the clinic cancels', async () => {
      await setReminders(remindersOn());
      const [first, other] = await twoPatients();
      const byPatient = await book(first, '2027-03-29 10:00');
      const byClinic = await book(other, '2027-03-29 11:00');
      const cancelled = await app.inject({
        method: 'PUT',
        url: '/api/appointment/patient-appointments',
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(first.token) },
        payload: { appointmentId: byPatient },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect((await api('POST', `/appointments/${byClinic}/cancel`)).statusCode).toBe(200);
      for (const id of [byPatient, byClinic]) {
        expect((await reminders(id)).map((r) => r.status)).toEqual(['withdrawn', 'withdrawn']);
      }
      now = at('2027-03-29 10:30');
      expect(await app.reminders.runOnce()).toBe(0);
      // The two cancellations' notices (change-notices.test.ts), no reminder.
      expect((await messages()).map((m) => m.body)).toEqual([
        expect.stringContaining('בוטל'),
        expect.stringContaining('בוטל'),
      ]);
    });

    it('re-plans a moved appointment: the old time is withdrawn, the new one planned', async () => {
      await setReminders(remindersOn());
      const patient = await onePatient();
      const id = await book(patient, '2027-03-29 10:00');
      const moved = await app.inject({
        method: 'POST',
        url: `/api/appointment/patient-appointments/${id}/reschedule`,
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, ...bearer(patient.token) },
        payload: {
          clinicId: f.clinicId,
          caregiverId: f.caregiverId,
          appointmentTypeId: f.typeId,
          ...slot('2027-03-30 12:00'),
        },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await brief(id)).toEqual([
        // The day before, just before online cancellation closes (24 hours' notice).
        [1440, 'withdrawn', '2027-03-28T09:45:00+03:00'],
        [120, 'withdrawn', '2027-03-29T08:00:00+03:00'],
        [1440, 'scheduled', '2027-03-29T11:45:00+03:00'],
        [120, 'scheduled', '2027-03-30T10:00:00+03:00'],
      ]);
      // The old times pass without a message.
      now = at('2027-03-29 08:00');
      expect(await app.reminders.runOnce()).toBe(0);
      now = at('2027-03-29 12:00');
      expect(await app.reminders.runOnce()).toBe(1);
    });

    it('re-plans every upcoming appointment when the settings change', async () => {
      const [first, other] = await twoPatients();
      const a = await book(first, '2027-03-29 10:00');
      const b = await book(other, '2027-03-30 10:00');
      expect(await reminders(a)).toEqual([]);

      await setReminders(remindersOn({ lead_minutes: [180] }));
      // 07:00 is quiet: the evening before.
      expect(await brief(a)).toEqual([[180, 'scheduled', '2027-03-28T20:59:00+03:00']]);
      expect(await brief(b)).toEqual([[180, 'scheduled', '2027-03-29T20:59:00+03:00']]);

      await setReminders({ ...remindersOn({ lead_minutes: [180] }), enabled: false });
      expect((await reminders(a)).map((r) => r.status)).toEqual(['withdrawn']);
      now = at('2027-03-29 20:59');
      expect(await app.reminders.runOnce()).toBe(0);
    });

    it('re-plans upcoming reminders in the new zone when the clinic changes its time zone', async () => {
      await setReminders(remindersOn({ lead_minutes: [120] }));
      const patient = await onePatient();
      // Monday 10:00 in Israel is 08:00 in London: two hours before is 06:00 there, quiet hours.
      const id = await book(patient, '2027-03-29 10:00');
      expect(await brief(id)).toEqual([[120, 'scheduled', '2027-03-29T08:00:00+03:00']]);

      const changed = await api('PATCH', '/clinic', { timezone: 'Europe/London' });
      expect(changed.statusCode, changed.body).toBe(200);
      // Listed by due time, in the clinic's new zone: the evening before, out of quiet hours.
      expect(await brief(id)).toEqual([
        [120, 'scheduled', '2027-03-28T20:59:00+01:00'],
        [120, 'withdrawn', '2027-03-29T06:00:00+01:00'],
      ]);
      now = Date.parse('2027-03-28T20:59:00+01:00');
      expect(await app.reminders.runOnce()).toBe(1);
    });

    it('re-plans upcoming reminders when the clinic changes its cancellation notice', async () => {
      await setReminders(remindersOn({ lead_minutes: [1440] }));
      const patient = await onePatient();
      const id = await book(patient, '2027-03-30 12:00');
      // The day before, just before online cancellation closes (24 hours' notice).
      expect(await brief(id)).toEqual([[1440, 'scheduled', '2027-03-29T11:45:00+03:00']]);

      const changed = await api('PATCH', '/clinic', { settings: { cancel_notice_minutes: 60 } });
      expect(changed.statusCode, changed.body).toBe(200);
      // Cancellation now closes an hour before: the reminder goes a day before, on the hour.
      expect(await brief(id)).toEqual([
        [1440, 'withdrawn', '2027-03-29T11:45:00+03:00'],
        [1440, 'scheduled', '2027-03-29T12:00:00+03:00'],
      ]);
      // Saving the same notice again plans nothing anew.
      await api('PATCH', '/clinic', { settings: { cancel_notice_minutes: 60 } });
      expect(await brief(id)).toHaveLength(2);
    });

    it('answers 404 for an appointment of another clinic or none', async () => {
      await setReminders(remindersOn());
      const patient = await onePatient();
      const id = await book(patient, '2027-03-29 10:00');
      expect(
        (await api('GET', `/appointments/${id}/reminders`, undefined, otherKey)).statusCode,
      ).toBe(404);
      expect((await api('GET', '/appointments/999999/reminders')).statusCode).toBe(404);
      expect((await api('GET', '/appointments/99999999999/reminders')).statusCode).toBe(404);
      expect((await api('GET', '/appointments/abc/reminders')).statusCode).toBe(400);
    });
  });

  describe('sending', () => {
    it('sends a due reminder once, in the language the patient booked in, with a link', async () => {
      await setReminders(remindersOn());
      const [hebrew, english] = await twoPatients();
      const he = await book(hebrew, '2027-03-29 10:00');
      const en = await book(english, '2027-03-29 11:00', 'en-US,en;q=0.9');

      now = at('2027-03-28 09:45') + 30 * 1000;
      expect(await app.reminders.runOnce()).toBe(1);
      now = at('2027-03-28 10:45');
      expect(await app.reminders.runOnce()).toBe(1);
      expect(await app.reminders.runOnce()).toBe(0);
      const sent = await messages();
      expect(sent.map((m) => [m.to, m.body])).toEqual([
        [
          english.phone,
          [
            'Reminder: your appointment at מרפאת התזכורות',
            'בדיקה תקופתית with ד"ר דנה',
            'On 29/03/2027 at 11:00',
            `To cancel or change the time: ${ORIGIN}/appointments/${f.clinicId}`,
          ].join('\n'),
        ],
        [
          hebrew.phone,
          [
            'תזכורת: התור שלך במרפאת התזכורות',
            'בדיקה תקופתית עם ד"ר דנה',
            'בתאריך 29/03/2027 בשעה 10:00',
            `לביטול או לשינוי המועד: ${ORIGIN}/appointments/${f.clinicId}`,
          ].join('\n'),
        ],
      ]);
      expect(await reminders(he)).toMatchObject([
        {
          lead_minutes: 1440,
          status: 'sent',
          channel: 'sms',
          sent_at: new Date(at('2027-03-28 09:45') + 30_000).toISOString(),
        },
        { lead_minutes: 120, status: 'scheduled' },
      ]);
      expect((await reminders(en))[0]).toMatchObject({ status: 'sent', channel: 'sms' });

      // Two hours before, online changes have closed: the clinic's phone instead.
      now = at('2027-03-29 08:00');
      expect(await app.reminders.runOnce()).toBe(1);
      expect((await messages())[0]?.body).toBe(
        [
          'תזכורת: התור שלך במרפאת התזכורות',
          'בדיקה תקופתית עם ד"ר דנה',
          'בתאריך 29/03/2027 בשעה 10:00',
          `לפרטים: ${ORIGIN}/appointments/${f.clinicId}`,
          'לשינוי יש לפנות למרפאה: 03-5550000',
        ].join('\n'),
      );
    });

    it('sends each reminder exactly once with two instances claiming at the same time', async () => {
      await setReminders(
        remindersOn({ lead_minutes: [360], quiet_hours: { start: '00:00', end: '00:00' } }),
      );
      const group = await patients(12);
      const ids: number[] = [];
      for (const [i, patient] of group.entries()) {
        // Monday 10:00 to 15:30 every half hour: the reminders are due from 04:00 to 09:30.
        const minutes = 10 * 60 + 30 * i;
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        ids.push(await book(patient, `2027-03-29 ${time}`));
      }
      now = at('2027-03-29 09:45');
      const runs = await Promise.all([
        app.reminders.runOnce(),
        second.reminders.runOnce(),
        app.reminders.runOnce(),
        second.reminders.runOnce(),
      ]);
      expect(runs.reduce((a, b) => a + b, 0)).toBe(12);
      const rows = await db.select().from(appointmentReminders);
      expect(rows.map((r) => r.status)).toEqual(Array(12).fill('sent'));
      expect(new Set(rows.map((r) => r.appointmentId))).toEqual(new Set(ids));
      const queued = await db.select().from(outbox).where(eq(outbox.topic, 'sms'));
      expect(queued).toHaveLength(12);
      expect(await second.reminders.runOnce()).toBe(0);
    });

    it('sends only the later of two reminders due together, and none once the start passed', async () => {
      await setReminders(remindersOn());
      const patient = await onePatient();
      const id = await book(patient, '2027-03-29 10:00');
      // The server was down from before Sunday 10:00 until Monday 08:30.
      now = at('2027-03-29 08:30');
      expect(await app.reminders.runOnce()).toBe(1);
      expect((await reminders(id)).map((r) => r.status)).toEqual(['missed', 'sent']);

      const late = await onePatient();
      const past = await book(late, '2027-03-30 10:00');
      now = at('2027-03-30 10:00');
      expect(await app.reminders.runOnce()).toBe(0);
      expect((await reminders(past)).map((r) => r.status)).toEqual(['missed', 'missed']);
    });

    it('holds an overdue reminder through quiet hours: sent when they end if before the start, else missed', async () => {
      await setReminders(remindersOn({ lead_minutes: [1440] }));
      const patient = await onePatient();
      // Monday 10:00: its reminder is planned for Sunday 10:00.
      const id = await book(patient, '2027-03-29 10:00');
      // The server was down from Sunday morning until 06:00 on Monday, in quiet hours (21:00–08:00).
      now = at('2027-03-29 06:00');
      expect(await app.reminders.runOnce()).toBe(0);
      expect(await messages()).toEqual([]);
      expect(await brief(id)).toEqual([[1440, 'scheduled', iso('2027-03-29 08:00')]]);
      now = at('2027-03-29 07:59');
      expect(await app.reminders.runOnce()).toBe(0);
      now = at('2027-03-29 08:00') + 20_000;
      expect(await app.reminders.runOnce()).toBe(1);
      expect((await messages())[0]?.to).toBe(patient.phone);
      expect(await reminders(id)).toMatchObject([{ status: 'sent' }]);

      // Tuesday 08:00: quiet time ends when it starts, so the overdue reminder is missed.
      now = NOW;
      const early = await onePatient();
      const missed = await book(early, '2027-03-30 08:00');
      now = at('2027-03-30 05:30');
      expect(await app.reminders.runOnce()).toBe(0);
      expect(await reminders(missed)).toMatchObject([{ status: 'missed' }]);
      now = at('2027-03-30 08:00') - MINUTE;
      expect(await app.reminders.runOnce()).toBe(0);
      expect(await messages()).toHaveLength(1);
    });

    it('goes by WhatsApp when the clinic asks for it and is connected, else by SMS', async () => {
      await setReminders(remindersOn({ channel: 'whatsapp', lead_minutes: [120] }));
      const first = await onePatient();
      const bySms = await book(first, '2027-03-29 10:00');
      now = at('2027-03-29 08:00');
      expect(await app.reminders.runOnce()).toBe(1);
      expect((await reminders(bySms))[0]?.channel).toBe('sms');

      await db.insert(whatsappConnections).values({
        clinicId: f.clinicId,
        wabaId: 'waba',
        phoneNumberId: 'phone',
        businessId: 'business',
        accessToken: 'sealed',
        connectedAt: new Date(now),
      });
      const other = await onePatient();
      const byWhatsApp = await book(other, '2027-03-29 12:00');
      now = at('2027-03-29 10:00');
      expect(await app.reminders.runOnce()).toBe(1);
      expect((await reminders(byWhatsApp))[0]?.channel).toBe('whatsapp');
      const topics = (await db.select({ topic: outbox.topic }).from(outbox)).map((r) => r.topic);
      expect(topics.filter((t) => t === 'whatsapp')).toHaveLength(1);
    });

    it("sends each clinic's reminders in one batch by that clinic's own settings", async () => {
      await setReminders(remindersOn({ lead_minutes: [120] }));
      await setReminders(remindersOn({ lead_minutes: [120], channel: 'whatsapp' }), otherKey);
      // Both connected: the channel is the settings' choice alone.
      for (const clinicId of [f.clinicId, f.otherClinicId]) {
        await db.insert(whatsappConnections).values({
          clinicId,
          wabaId: `waba-${clinicId}`,
          phoneNumberId: `phone-${clinicId}`,
          businessId: 'business',
          accessToken: 'sealed',
          connectedAt: new Date(now),
        });
      }
      const [first, second] = await twoPatients();
      const [elsewhere] = await insertLoggedInPatients(db, {
        clinicId: f.otherClinicId,
        count: 1,
        now,
      });
      if (!elsewhere) throw new Error('no patient');
      const early = await book(first, '2027-03-29 10:00');
      const other = await book(elsewhere, '2027-03-29 10:00', 'he', f.other);
      const late = await book(second, '2027-03-29 10:30');

      now = at('2027-03-29 08:30');
      expect(await app.reminders.runOnce()).toBe(3);
      expect((await reminders(early))[0]?.channel).toBe('sms');
      expect((await reminders(other, otherKey))[0]?.channel).toBe('whatsapp');
      expect((await reminders(late))[0]?.channel).toBe('sms');
    });
  });
});
