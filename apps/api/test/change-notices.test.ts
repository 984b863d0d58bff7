// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  BookedAppointment,
  IntegrationAppointment,
  IntegrationClinic,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { clinics, reminderSettings } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow, insertCaregiver, insertTypes } from './fixtures.js';
import {
  buildTestApp,
  engines,
  testConfig,
  useSentMessages,
  useTestDatabase,
  xsrfPair,
} from './helper.js';
import {
  bearer,
  insertLoggedInPatients,
  insertStaffSession,
  type TestPatient,
} from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ORIGIN = 'https://marpe.example';

/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

/** Clinic wall time 'YYYY-MM-DD HH:mm' → ISO with the clinic's offset. */
const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);

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

describe.each(engines)('appointment change notices (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicId: number;
  let dana: number;
  let noa: number;
  let checkup: number;
  let key: string;
  let patient: TestPatient;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: ORIGIN }),
      clock: () => now,
      // The tests run the outbox themselves.
      outboxPollIntervalMs: HOUR,
    });
    await app.ready();
    db = database.current.handle.db;
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  beforeEach(async () => {
    now = NOW;
    await database.current.reset();
    const [clinic] = await db
      .insert(clinics)
      .values({ ...clinicRow('מרפאת השן'), cancelNoticeMinutes: 60 })
      .returning({ id: clinics.id });
    if (!clinic) throw new Error('fixture: clinic');
    clinicId = clinic.id;
    [checkup] = await insertTypes(db, [{ clinicId, name: 'בדיקה', durationMinutes: 30 }]);
    const hours = [0, 1, 2, 3, 4].map((weekDay) => ({
      weekDay,
      startTime: '08:00',
      endTime: '16:00',
    }));
    dana = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר דנה',
      licenseNumber: '1-1',
      typeIds: [checkup],
      hours,
    });
    noa = await insertCaregiver(db, {
      clinicId,
      name: 'ד"ר נועה',
      licenseNumber: '1-2',
      typeIds: [checkup],
      hours,
    });
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    const [one] = await insertLoggedInPatients(db, { clinicId, count: 1, now });
    if (!one) throw new Error('fixture: patient');
    patient = one;
  });

  const sentSinceStart = useSentMessages(() => app);
  let seen = 0;
  beforeEach(() => {
    seen = 0;
  });
  /** The messages sent since the last call (or the test's start), newest first. */
  const sent = async () => {
    const all = await sentSinceStart();
    const fresh = all.slice(0, all.length - seen);
    seen = all.length;
    return fresh;
  };
  const link = () => `${ORIGIN}/appointments/${clinicId}`;

  const write = (
    method: 'POST' | 'PUT',
    url: string,
    payload: object,
    language: 'he' | 'en' = 'he',
  ) =>
    app.inject({
      method,
      url,
      payload,
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(patient.token), 'accept-language': language },
    });
  const slot = (local: string, caregiverId = dana) => ({
    clinicId,
    caregiverId,
    appointmentTypeId: checkup,
    startDate: iso(local),
    endDate: formatZonedIso(zonedToEpoch(local, TZ) + 30 * MINUTE, TZ),
  });
  const book = async (local: string, language: 'he' | 'en' = 'he') => {
    const response = await write('POST', '/api/appointment', slot(local), language);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BookedAppointment>();
  };

  type Caller = { key: string } | { cookies: Record<string, string> };
  const call = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...('key' in caller
        ? { headers: bearer(caller.key) }
        : {
            cookies: { ...xsrf.cookies, ...caller.cookies },
            headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
          }),
    });
  const setNotices = async (notices: object) => {
    const response = await call({ key }, 'PATCH', '/clinic', {
      settings: { change_notices: notices },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationClinic>();
  };
  const clinicBook = async (
    local: string,
    extra: Record<string, unknown> = {},
    caller: Caller = { key },
  ) => {
    const response = await call(caller, 'POST', '/appointments', {
      caregiver_id: dana,
      appointment_type_id: checkup,
      start_date: iso(local),
      patient: {
        id_number: israeliId('12345678'),
        phone: '052-7654321',
        first_name: 'רות',
        last_name: 'כהן',
      },
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationAppointment>();
  };
  const auditOf = async (action: string) =>
    (await call({ key }, 'GET', '/audit-log'))
      .json<AuditLogEntry[]>()
      .filter((e) => e.action === action);

  describe('the clinic setting', () => {
    it('is on for moves and cancellations and off for bookings by default, and changes per kind', async () => {
      const clinic = (await call({ key }, 'GET', '/clinic')).json<IntegrationClinic>();
      expect(clinic.settings.change_notices).toEqual({
        booked: false,
        moved: true,
        cancelled: true,
      });
      const changed = await setNotices({ booked: true, cancelled: false });
      expect(changed.settings.change_notices).toEqual({
        booked: true,
        moved: true,
        cancelled: false,
      });
    });

    it('refuses anything but booleans of the three kinds, naming the field', async () => {
      for (const [notices, path] of [
        [{ booked: 'yes' }, 'settings.change_notices.booked'],
        [{ rescheduled: true }, 'settings.change_notices'],
      ] as const) {
        const response = await call({ key }, 'PATCH', '/clinic', {
          settings: { change_notices: notices },
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(
          response
            .json<{ details: { issues: { path: string }[] } }>()
            .details.issues.map((i) => i.path),
        ).toContain(path);
      }
    });
  });

  describe('the patient changes', () => {
    it('tells nothing of their own booking by default, and the booking when the clinic says so', async () => {
      await book('2027-03-25 09:00');
      expect(await sent()).toEqual([]);
      await setNotices({ booked: true });
      await book('2027-03-29 09:00');
      const messages = await sent();
      expect(messages.map((m) => [m.to, m.body])).toEqual([
        [
          patient.phone,
          `נקבע לך תור במרפאת השן אצל ד"ר דנה ל-29/03/2027 בשעה 09:00.\nהתורים שלי: ${link()}`,
        ],
      ]);
    });

    it('gets the details once, not the notice too, when the clinic sends details automatically', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true });
      await setNotices({ booked: true });
      const booked = await book('2027-03-25 09:00');
      expect(booked.sms_sent).toBe(true);
      const messages = await sent();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.body).toContain('פרטי התור שלך');
    });

    it('is told of their move with the old and the new time, in their language', async () => {
      const booked = await book('2027-03-25 09:00', 'en');
      const moved = await write(
        'POST',
        `/api/appointment/patient-appointments/${booked.id}/reschedule`,
        slot('2027-03-29 10:00', noa),
        'en',
      );
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await sent()).map((m) => [m.to, m.body])).toEqual([
        [
          patient.phone,
          `Your appointment at מרפאת השן was moved from 25/03/2027 09:00 with ד"ר דנה to 29/03/2027 10:00 with ד"ר נועה.\nMy appointments: ${link()}`,
        ],
      ]);
    });

    it('gets the move’s notice instead of the automatic details of the new time', async () => {
      await db.update(clinics).set({ isAutoSmsEnabled: true });
      const booked = await book('2027-03-25 09:00');
      await sent();
      const moved = await write(
        'POST',
        `/api/appointment/patient-appointments/${booked.id}/reschedule`,
        slot('2027-03-29 10:00'),
      );
      expect(moved.statusCode, moved.body).toBe(200);
      const messages = await sent();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.body).toContain('הועבר מ-25/03/2027 09:00 ל-29/03/2027 בשעה 10:00');
      // Moves not told: the details of the new time, as before.
      await setNotices({ moved: false });
      const again = await write(
        'POST',
        `/api/appointment/patient-appointments/${booked.id}/reschedule`,
        slot('2027-03-30 10:00'),
      );
      expect(again.statusCode, again.body).toBe(200);
      const details = await sent();
      expect(details).toHaveLength(1);
      expect(details[0]?.body).toContain('פרטי התור שלך');
    });

    it('is told of their cancellation, and not when the clinic turned it off', async () => {
      const first = await book('2027-03-25 09:00');
      const cancelled = await write('PUT', '/api/appointment/patient-appointments', {
        appointmentId: first.id,
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect((await sent()).map((m) => [m.to, m.body])).toEqual([
        [
          patient.phone,
          `התור שלך במרפאת השן אצל ד"ר דנה ב-25/03/2027 בשעה 09:00 בוטל.\nלקביעת תור אחר: ${link()}`,
        ],
      ]);
      await setNotices({ cancelled: false });
      const second = await book('2027-03-25 10:00');
      const quiet = await write('PUT', '/api/appointment/patient-appointments', {
        appointmentId: second.id,
      });
      expect(quiet.statusCode, quiet.body).toBe(200);
      expect(await sent()).toEqual([]);
    });
  });

  describe('the clinic changes, by key or at the desk', () => {
    it('tells of a booking only when the clinic turned booking notices on', async () => {
      await clinicBook('2027-03-25 09:00');
      expect(await sent()).toEqual([]);
      await setNotices({ booked: true });
      await clinicBook('2027-03-29 09:00', { language: 'en' });
      expect((await sent()).map((m) => [m.to, m.body])).toEqual([
        [
          '0527654321',
          `Your appointment at מרפאת השן with ד"ר דנה is booked for 29/03/2027 at 09:00.\nMy appointments: ${link()}`,
        ],
      ]);
    });

    it('sends the asked-for details alone, never a second message', async () => {
      await setNotices({ booked: true });
      await clinicBook('2027-03-25 09:00', { send_sms: true });
      const messages = await sent();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.body).toContain('פרטי התור שלך');
    });

    it('tells of a move by key without being asked, and of none when moves are off', async () => {
      const booked = await clinicBook('2027-03-25 09:00');
      const moved = await call({ key }, 'POST', `/appointments/${booked.id}/reschedule`, {
        start_date: iso('2027-03-25 13:30'),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await sent()).map((m) => [m.to, m.body])).toEqual([
        [
          '0527654321',
          `התור שלך במרפאת השן הועבר מ-25/03/2027 09:00 ל-25/03/2027 בשעה 13:30 אצל ד"ר דנה.\nהתורים שלי: ${link()}`,
        ],
      ]);
      await setNotices({ moved: false });
      const again = await call({ key }, 'POST', `/appointments/${booked.id}/reschedule`, {
        start_date: iso('2027-03-25 14:00'),
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(await sent()).toEqual([]);
    });

    it('tells of a cancellation at the desk without being asked, never with the reason', async () => {
      const staff = await insertStaffSession(db, { clinicId, role: 'front_desk', now });
      // The https origin's cookie name.
      const desk = { cookies: { '__Host-marpe_desk': staff.cookies.marpe_desk ?? '' } };
      const booked = await clinicBook('2027-03-25 09:00', {}, desk);
      const cancelled = await call(desk, 'POST', `/appointments/${booked.id}/cancel`, {
        reason: 'המטפלת חולה',
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const messages = await sent();
      expect(messages.map((m) => m.to)).toEqual(['0527654321']);
      expect(messages[0]?.body).toContain('בוטל');
      expect(messages[0]?.body).not.toContain('חולה');
    });

    it('tells of a cancellation asked for with send_sms even when cancellations are off, once', async () => {
      await setNotices({ cancelled: false });
      const booked = await clinicBook('2027-03-25 09:00');
      const cancelled = await call({ key }, 'POST', `/appointments/${booked.id}/cancel`, {
        send_sms: true,
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await sent()).toHaveLength(1);
    });
  });

  describe('send_sms: false (the desk unticked "text the patient")', () => {
    it('tells nothing of that one change, whatever the settings', async () => {
      await setNotices({ booked: true });
      const booked = await clinicBook('2027-03-25 09:00', { send_sms: false });
      const moved = await call({ key }, 'POST', `/appointments/${booked.id}/reschedule`, {
        start_date: iso('2027-03-25 13:30'),
        send_sms: false,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const cancelled = await call({ key }, 'POST', `/appointments/${booked.id}/cancel`, {
        send_sms: false,
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await sent()).toEqual([]);
      expect((await auditOf('appointment.cancel'))[0]?.details).toMatchObject({ send_sms: false });
    });
  });

  describe('message caps', () => {
    it('counts notices: a refused one is not sent, audited, and the change still happens', async () => {
      const lowered = await call({ key }, 'PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 1 }, change_notices: { booked: true } },
      });
      expect(lowered.statusCode, lowered.body).toBe(200);
      const booked = await clinicBook('2027-03-25 09:00');
      expect(await sent()).toHaveLength(1);
      const moved = await call({ key }, 'POST', `/appointments/${booked.id}/reschedule`, {
        start_date: iso('2027-03-25 13:30'),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<IntegrationAppointment>().start_date).toBe(iso('2027-03-25 13:30'));
      expect(await sent()).toEqual([]);
      expect(await auditOf('message.refused')).toEqual([
        expect.objectContaining({
          actor: expect.stringMatching(/^api_key:/),
          details: expect.objectContaining({ kind: 'appointment_moved', to_last_digits: '321' }),
        }),
      ]);
    });
  });

  describe('quiet hours', () => {
    beforeEach(async () => {
      await db.insert(reminderSettings).values({
        clinicId,
        enabled: false,
        leadMinutes: [1440],
        channel: 'sms',
        quietStart: '21:00',
        quietEnd: '08:00',
        observeRestDays: false,
      });
    });

    it('holds a change made at night until they end, when the appointment is later that day', async () => {
      const booked = await clinicBook('2027-03-25 13:00');
      now = Date.parse('2027-03-24T23:00:00+02:00');
      const cancelled = await call({ key }, 'POST', `/appointments/${booked.id}/cancel`, {});
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await sent()).toEqual([]);
      now = Date.parse('2027-03-25T07:59:00+02:00');
      expect(await sent()).toEqual([]);
      now = Date.parse('2027-03-25T08:00:00+02:00');
      const messages = await sent();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.body).toContain('בוטל');
    });

    it('tells at once at night when waiting would come too late: tomorrow 08:00 cancelled', async () => {
      const booked = await clinicBook('2027-03-25 08:00');
      now = Date.parse('2027-03-24T23:00:00+02:00');
      const cancelled = await call({ key }, 'POST', `/appointments/${booked.id}/cancel`, {});
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const messages = await sent();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.body).toContain('ב-25/03/2027 בשעה 08:00 בוטל');
    });

    it('counts the earlier of the two times of a move', async () => {
      // Moved at night from tomorrow 09:00 to next week: the patient must hear before leaving.
      const booked = await clinicBook('2027-03-25 09:00');
      now = Date.parse('2027-03-24T23:00:00+02:00');
      const moved = await call({ key }, 'POST', `/appointments/${booked.id}/reschedule`, {
        start_date: iso('2027-03-29 09:00'),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await sent()).toHaveLength(1);
    });
  });
});
