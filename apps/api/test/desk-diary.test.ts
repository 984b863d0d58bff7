// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  ClinicBusyTime,
  IntegrationAppointment,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  IntegrationPatient,
  IntegrationWaitlistEntry,
  IntegrationWaitlistRow,
  Slot,
  WebhookEvent,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { calendarEvents, clinics, patients } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer, insertSessions, insertStaffSession } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
/** Thursday 2027-03-25, the working day after NOW. */
const THURSDAY = '2027-03-25';

/** Clinic wall time 'YYYY-MM-DD HH:mm' → ISO with the clinic's offset. */
const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);

type Issues = { code: string; details?: { issues?: { path: string }[] } };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Caller = { key: string } | { desk: { cookies: Record<string, string>; accountId: number } };

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

describe.each(engines)("the desk's diary: the clinic API it calls (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let receiver: Loopback;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;
  let clinicId: number;
  let otherClinicId: number;
  let key: string;
  let otherKey: string;
  let owner: Caller;
  let frontDesk: Caller;
  let otherFrontDesk: Caller;
  /** Sunday to Thursday 08:00–16:00, step 30, notice 60; offers checkup. */
  let dana: IntegrationCaregiver;
  /** The same hours; offers checkup and cleaning. */
  let ron: IntegrationCaregiver;
  /** The other clinic's. */
  let foreignCaregiver: IntegrationCaregiver;
  /** 30 minutes. */
  let checkup: IntegrationAppointmentType;
  /** 45 minutes, Ron's only. */
  let cleaning: IntegrationAppointmentType;

  beforeAll(async () => {
    receiver = await startLoopback(() => ({ status: 200, body: 'ok' }));
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
    await receiver.close();
  });

  /** A call to `/api/integration…` by a key or by a desk session (as the desk's browser sends it). */
  const call = (caller: Caller, method: Method, url: string, payload?: object | string) =>
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

  const workday = [{ start: '08:00', end: '16:00' }];
  const week = {
    sunday: workday,
    monday: workday,
    tuesday: workday,
    wednesday: workday,
    thursday: workday,
  };

  async function createCaregiver(caller: Caller, name: string, typeIds: number[]) {
    const response = await call(caller, 'POST', '/caregivers', {
      name,
      license_number: '12345',
      appointment_type_ids: typeIds,
      marpe_rules: {
        slot_step_minutes: 30,
        min_notice_minutes: 60,
        booking_horizon_days: 30,
        weekly_hours: week,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationCaregiver>();
  }

  async function createType(caller: Caller, name: string, minutes: number) {
    const response = await call(caller, 'POST', '/appointment-types', {
      name,
      duration_minutes: minutes,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationAppointmentType>();
  }

  beforeEach(async () => {
    receiver.reset();
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת היומן'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    otherClinicId = other.id;
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(otherClinicId, 'pms', 'test')).key;
    owner = { desk: await insertStaffSession(db, { clinicId, role: 'owner', now: NOW }) };
    frontDesk = { desk: await insertStaffSession(db, { clinicId, role: 'front_desk', now: NOW }) };
    otherFrontDesk = {
      desk: await insertStaffSession(db, {
        clinicId: otherClinicId,
        role: 'front_desk',
        now: NOW,
      }),
    };
    checkup = await createType({ key }, 'בדיקה תקופתית', 30);
    cleaning = await createType({ key }, 'ניקוי אבנית', 45);
    dana = await createCaregiver({ key }, 'ד"ר דנה', [checkup.id]);
    ron = await createCaregiver({ key }, 'ד"ר רון', [checkup.id, cleaning.id]);
    const foreignType = await createType({ key: otherKey }, 'בדיקה', 30);
    foreignCaregiver = await createCaregiver({ key: otherKey }, 'ד"ר זר', [foreignType.id]);
  });

  const newPatient = {
    id_number: israeliId('31234567'),
    phone: '052-7654321',
    first_name: 'יעל',
    last_name: 'כהן',
  };
  const otherPatient = {
    id_number: israeliId('21234567'),
    phone: '0541112233',
    first_name: 'משה',
    last_name: 'לוי',
  };

  async function book(
    caller: Caller,
    overrides: Record<string, unknown> = {},
  ): Promise<IntegrationAppointment> {
    const response = await call(caller, 'POST', '/appointments', {
      caregiver_id: dana.id,
      appointment_type_id: checkup.id,
      start_date: iso(`${THURSDAY} 09:00`),
      patient: newPatient,
      ...overrides,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<IntegrationAppointment>();
  }

  const slotsOn = async (caregiverId: number, date: string, duration = 30) => {
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

  const putBusy = (caregiverId: number, items: object[]) =>
    call({ key }, 'PUT', `/caregivers/${caregiverId}/busy-times`, {
      from: iso(`${THURSDAY} 00:00`),
      to: iso('2027-03-26 00:00'),
      items,
    });

  const listAppointments = async (caller: Caller = { key }) => {
    const response = await call(caller, 'GET', `/appointments?from=${THURSDAY}&to=${THURSDAY}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationAppointment[]>();
  };

  describe('GET /api/integration/busy-times', () => {
    const window = `from=${encodeURIComponent(iso(`${THURSDAY} 00:00`))}&to=${encodeURIComponent(iso('2027-03-26 00:00'))}`;

    beforeEach(async () => {
      const pushed = await putBusy(dana.id, [
        {
          external_id: 'meeting',
          start: iso(`${THURSDAY} 12:00`),
          end: iso(`${THURSDAY} 13:00`),
          label: 'ישיבת צוות',
        },
      ]);
      expect(pushed.statusCode, pushed.body).toBe(200);
      const at = (local: string) => new Date(zonedToEpoch(local, TZ));
      await db.insert(calendarEvents).values([
        // A busy event of Ron's synced calendar.
        {
          caregiverId: ron.id,
          eventId: 'g1',
          startAt: at(`${THURSDAY} 09:00`),
          endAt: at(`${THURSDAY} 10:00`),
          busy: true,
        },
        // Free time in the calendar, and Marpe's own event of an appointment: not busy times.
        {
          caregiverId: ron.id,
          eventId: 'g2',
          startAt: at(`${THURSDAY} 11:00`),
          endAt: at(`${THURSDAY} 12:00`),
          busy: false,
        },
        {
          caregiverId: ron.id,
          eventId: 'marpe',
          startAt: at(`${THURSDAY} 14:00`),
          endAt: at(`${THURSDAY} 14:30`),
          busy: true,
          appointmentId: 1,
        },
        // Another day.
        {
          caregiverId: ron.id,
          eventId: 'g3',
          startAt: at('2027-03-28 09:00'),
          endAt: at('2027-03-28 10:00'),
          busy: true,
        },
        // The other clinic's caregiver.
        {
          caregiverId: foreignCaregiver.id,
          eventId: 'f1',
          startAt: at(`${THURSDAY} 09:00`),
          endAt: at(`${THURSDAY} 10:00`),
          busy: true,
        },
      ]);
    });

    it("lists both sources for both roles, by start, in the clinic's time", async () => {
      const expected: ClinicBusyTime[] = [
        {
          caregiver_id: ron.id,
          start: '2027-03-25T09:00:00+02:00',
          end: '2027-03-25T10:00:00+02:00',
          source: 'calendar',
          label: null,
        },
        {
          caregiver_id: dana.id,
          start: '2027-03-25T12:00:00+02:00',
          end: '2027-03-25T13:00:00+02:00',
          source: 'api',
          label: 'ישיבת צוות',
        },
      ];
      for (const caller of [{ key }, owner, frontDesk]) {
        const response = await call(caller, 'GET', `/busy-times?${window}`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json<ClinicBusyTime[]>()).toEqual(expected);
      }
      const danas = await call(frontDesk, 'GET', `/busy-times?${window}&caregiver_id=${dana.id}`);
      expect(danas.json<ClinicBusyTime[]>().map((b) => b.source)).toEqual(['api']);
    });

    it("never shows another clinic's: its caregiver is 404, its list its own", async () => {
      const foreign = await call(
        frontDesk,
        'GET',
        `/busy-times?${window}&caregiver_id=${foreignCaregiver.id}`,
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'caregiver_not_found' });
      const theirs = await call(otherFrontDesk, 'GET', `/busy-times?${window}`);
      expect(theirs.json<ClinicBusyTime[]>().map((b) => b.caregiver_id)).toEqual([
        foreignCaregiver.id,
      ]);
    });

    it('answers 400 naming the field', async () => {
      expectInvalid(await call(frontDesk, 'GET', '/busy-times'), 'from');
      expectInvalid(
        await call(
          frontDesk,
          'GET',
          `/busy-times?from=2027-03-25&to=${encodeURIComponent(iso('2027-03-26 00:00'))}`,
        ),
        'from',
      );
      const long = `from=${encodeURIComponent(iso('2027-03-01 00:00'))}&to=${encodeURIComponent(iso('2027-04-02 00:00'))}`;
      expectInvalid(await call(frontDesk, 'GET', `/busy-times?${long}`), 'to');
      expectInvalid(
        await call(frontDesk, 'GET', `/busy-times?${window}&caregiver_id=x`),
        'caregiver_id',
      );
    });
  });

  describe('POST /api/integration/appointments/:id/reschedule', () => {
    const reschedule = (caller: Caller, id: number, body: object | string) =>
      call(caller, 'POST', `/appointments/${id}/reschedule`, body);

    it('moves an appointment for both roles: the old time is free, the new one taken, audited', async () => {
      const appointment = await book(frontDesk);
      const moved = await reschedule(frontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 11:00`),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<IntegrationAppointment>()).toMatchObject({
        id: appointment.id,
        status: 'booked',
        start_date: '2027-03-25T11:00:00+02:00',
        end_date: '2027-03-25T11:30:00+02:00',
        caregiver: { id: dana.id },
        appointment_type: { id: checkup.id },
        patient: { id: appointment.patient.id },
      });
      const slots = await slotsOn(dana.id, THURSDAY);
      expect(slots).toContain('09:00');
      expect(slots).not.toContain('11:00');

      // To another caregiver, by the owner.
      const toRon = await reschedule(owner, appointment.id, {
        start_date: iso(`${THURSDAY} 13:00`),
        caregiver_id: ron.id,
      });
      expect(toRon.statusCode, toRon.body).toBe(200);
      expect(toRon.json<IntegrationAppointment>().caregiver).toEqual({
        id: ron.id,
        name: 'ד"ר רון',
      });
      expect(await slotsOn(dana.id, THURSDAY)).toContain('11:00');
      expect(await slotsOn(ron.id, THURSDAY)).not.toContain('13:00');

      const audit = (await call({ key }, 'GET', '/audit-log')).json<AuditLogEntry[]>();
      const moves = audit.filter((e) => e.action === 'appointment.reschedule');
      expect(moves).toHaveLength(2);
      expect(moves.map((e) => e.actor)).toEqual([
        `staff:${'desk' in owner ? owner.desk.accountId : 0}`,
        `staff:${'desk' in frontDesk ? frontDesk.desk.accountId : 0}`,
      ]);
      expect(moves[1]).toMatchObject({
        target_id: String(appointment.id),
        details: {
          from: {
            caregiver_id: dana.id,
            start_at: new Date(zonedToEpoch(`${THURSDAY} 09:00`, TZ)).toISOString(),
          },
          to: {
            caregiver_id: dana.id,
            start_at: new Date(zonedToEpoch(`${THURSDAY} 11:00`, TZ)).toISOString(),
          },
        },
      });
    });

    it('raises appointment.rescheduled with where it was, and plans the reminders again', async () => {
      const settings = await call({ key }, 'PUT', '/reminders/settings', {
        enabled: true,
        lead_minutes: [120],
        channel: 'sms',
        quiet_hours: { start: '21:00', end: '08:00' },
        observe_shabbat_and_holidays: false,
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const endpoint = await call({ key }, 'POST', '/webhooks', {
        url: receiver.url('/hook'),
        events: ['appointment.rescheduled'],
      });
      expect(endpoint.statusCode, endpoint.body).toBe(201);
      const appointment = await book({ key });
      const moved = await reschedule(frontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 14:00`),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await app.messaging.runOutbox('webhooks');
      const events = receiver.requests.map((r) => JSON.parse(r.body) as WebhookEvent);
      expect(events.map((e) => e.type)).toEqual(['appointment.rescheduled']);
      expect(events[0]?.data).toMatchObject({
        id: appointment.id,
        start_date: '2027-03-25T14:00:00+02:00',
        previous: {
          caregiver_id: dana.id,
          appointment_type_id: checkup.id,
          start_date: '2027-03-25T09:00:00+02:00',
          end_date: '2027-03-25T09:30:00+02:00',
        },
      });
      const reminders = await call({ key }, 'GET', `/appointments/${appointment.id}/reminders`);
      expect(reminders.statusCode, reminders.body).toBe(200);
      const scheduled = reminders
        .json<{ status: string; due_at: string }[]>()
        .filter((r) => r.status === 'scheduled');
      expect(scheduled).toHaveLength(1);
      expect(Date.parse(scheduled[0]?.due_at ?? '')).toBe(zonedToEpoch(`${THURSDAY} 12:00`, TZ));
    });

    it('never moves over another appointment, the patient’s other one that date, or a busy time unless told', async () => {
      const first = await book(frontDesk);
      await book(frontDesk, { patient: otherPatient, start_date: iso(`${THURSDAY} 10:00`) });
      const overlap = await reschedule(frontDesk, first.id, {
        start_date: iso(`${THURSDAY} 10:00`),
      });
      expect(overlap.statusCode, overlap.body).toBe(409);
      expect(overlap.json()).toMatchObject({ code: 'slot_taken' });
      // Half an hour later overlaps itself only: fine.
      const itself = await reschedule(frontDesk, first.id, {
        start_date: iso(`${THURSDAY} 09:30`),
        outside_working_hours: true,
      });
      expect(itself.statusCode, itself.body).toBe(200);

      // The same patient on another date, then moved onto the first one's date.
      const friday = await book(frontDesk, { start_date: iso('2027-03-28 09:00') });
      const sameDate = await reschedule(frontDesk, friday.id, {
        start_date: iso(`${THURSDAY} 13:00`),
      });
      expect(sameDate.statusCode).toBe(409);
      expect(sameDate.json()).toMatchObject({ code: 'existingAppointment' });

      expect(
        (
          await putBusy(dana.id, [
            { external_id: 'm', start: iso(`${THURSDAY} 12:00`), end: iso(`${THURSDAY} 13:00`) },
          ])
        ).statusCode,
      ).toBe(200);
      const busy = await reschedule(frontDesk, first.id, { start_date: iso(`${THURSDAY} 12:00`) });
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toMatchObject({ code: 'slot_taken' });
      const over = await reschedule(frontDesk, first.id, {
        start_date: iso(`${THURSDAY} 12:00`),
        ignore_busy_times: true,
      });
      expect(over.statusCode, over.body).toBe(200);
      // What the refused calls left, and the moves that went through.
      expect(
        (await listAppointments()).map((a) => [a.patient.id_number, a.start_date.slice(11, 16)]),
      ).toEqual([
        [otherPatient.id_number, '10:00'],
        [newPatient.id_number, '12:00'],
      ]);
    });

    it('moves outside working hours only when told, never into the past, never a cancelled one', async () => {
      const appointment = await book(frontDesk);
      expectInvalid(
        await reschedule(frontDesk, appointment.id, { start_date: iso(`${THURSDAY} 19:00`) }),
        'start_date',
      );
      const evening = await reschedule(frontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 19:00`),
        outside_working_hours: true,
      });
      expect(evening.statusCode, evening.body).toBe(200);
      expectInvalid(
        await reschedule(frontDesk, appointment.id, {
          start_date: iso('2027-03-24 08:00'),
          outside_working_hours: true,
        }),
        'start_date',
      );
      expectInvalid(
        await reschedule(frontDesk, appointment.id, {
          start_date: iso(`${THURSDAY} 19:00`),
          outside_working_hours: true,
        }),
        'start_date',
      );
      // A caregiver who does not offer the type.
      const cleaningBooking = await book(frontDesk, {
        caregiver_id: ron.id,
        appointment_type_id: cleaning.id,
        patient: otherPatient,
        start_date: iso(`${THURSDAY} 09:00`),
      });
      expectInvalid(
        await reschedule(frontDesk, cleaningBooking.id, {
          start_date: iso(`${THURSDAY} 11:00`),
          caregiver_id: dana.id,
        }),
        'caregiver_id',
      );
      expect(
        (await call(frontDesk, 'POST', `/appointments/${appointment.id}/cancel`)).statusCode,
      ).toBe(200);
      const cancelled = await reschedule(frontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 11:00`),
      });
      expect(cancelled.statusCode).toBe(409);
      expect(cancelled.json()).toMatchObject({ code: 'not_cancellable' });
    });

    it("answers 400 naming the field, and 404 for another clinic's appointment or caregiver", async () => {
      const appointment = await book(frontDesk);
      expectInvalid(await reschedule(frontDesk, appointment.id, {}), 'start_date');
      expectInvalid(
        await reschedule(frontDesk, appointment.id, { start_date: '2027-03-25 11:00' }),
        'start_date',
      );
      expectInvalid(
        await reschedule(frontDesk, appointment.id, {
          start_date: iso(`${THURSDAY} 11:00`),
          caregiver_id: 'two',
        }),
        'caregiver_id',
      );
      expectInvalid(
        await reschedule(frontDesk, appointment.id, {
          start_date: iso(`${THURSDAY} 11:00`),
          send_sms: 'yes',
        }),
        'send_sms',
      );
      expectInvalid(
        await reschedule(frontDesk, appointment.id, {
          start_date: iso(`${THURSDAY} 11:00`),
          surprise: 1,
        }),
        'body',
      );
      const foreign = await reschedule(otherFrontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 11:00`),
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'appointment_not_found' });
      const foreignCaregiverMove = await reschedule(frontDesk, appointment.id, {
        start_date: iso(`${THURSDAY} 11:00`),
        caregiver_id: foreignCaregiver.id,
      });
      expect(foreignCaregiverMove.statusCode).toBe(404);
      expect(foreignCaregiverMove.json()).toMatchObject({ code: 'caregiver_not_found' });
      expect(
        (await reschedule(frontDesk, 999_999, { start_date: iso(`${THURSDAY} 11:00`) })).statusCode,
      ).toBe(404);
      // Nothing moved.
      expect((await listAppointments())[0]?.start_date).toBe('2027-03-25T09:00:00+02:00');
    });

    it('is race-safe: two moves into one time, or a move and a booking, give it to one', async () => {
      const a = await book(frontDesk);
      const b = await book(frontDesk, {
        patient: otherPatient,
        start_date: iso(`${THURSDAY} 10:00`),
      });
      const target = { start_date: iso(`${THURSDAY} 13:00`) };
      const [first, second] = await Promise.all([
        reschedule(frontDesk, a.id, target),
        reschedule(owner, b.id, target),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
      expect([first, second].find((r) => r.statusCode === 409)?.json()).toMatchObject({
        code: 'slot_taken',
      });
      const atOne = (await listAppointments()).filter((x) =>
        x.start_date.startsWith('2027-03-25T13:00'),
      );
      expect(atOne).toHaveLength(1);

      // A patient's own booking against the clinic's move into the same time.
      const third = { ...otherPatient, id_number: israeliId('61234567'), phone: '0547778899' };
      const mover = atOne[0]?.id === a.id ? b : a;
      const [move, booking] = await Promise.all([
        reschedule(frontDesk, mover.id, { start_date: iso(`${THURSDAY} 14:00`) }),
        call({ key }, 'POST', '/appointments', {
          caregiver_id: dana.id,
          appointment_type_id: checkup.id,
          start_date: iso(`${THURSDAY} 14:00`),
          patient: third,
        }),
      ]);
      expect([move.statusCode, booking.statusCode].filter((status) => status === 409)).toHaveLength(
        1,
      );
      expect([move.statusCode, booking.statusCode].filter((status) => status < 300)).toHaveLength(
        1,
      );
      expect(
        (await listAppointments()).filter((x) => x.start_date.startsWith('2027-03-25T14:00')),
      ).toHaveLength(1);
    });

    describe('messages', () => {
      const sent = useSentMessages(() => app);

      it('tells the patient of the move with send_sms: true when moves are not told', async () => {
        // Told by default (change-notices.test.ts); this is a clinic that turned that off.
        await db.update(clinics).set({ notifyMoved: false });
        const appointment = await book(frontDesk);
        await reschedule(frontDesk, appointment.id, { start_date: iso(`${THURSDAY} 11:00`) });
        expect(await sent()).toEqual([]);
        const told = await reschedule(frontDesk, appointment.id, {
          start_date: iso(`${THURSDAY} 13:30`),
          send_sms: true,
        });
        expect(told.statusCode, told.body).toBe(200);
        const messages = await sent();
        expect(messages.map((m) => m.to)).toEqual(['0527654321']);
        expect(messages[0]?.body).toContain('ל-25/03/2027 בשעה 13:30');
      });
    });
  });

  describe('POST /api/integration/appointments/:id/cancel', () => {
    const sent = useSentMessages(() => app);
    const cancel = (caller: Caller, id: number, body?: object) =>
      call(caller, 'POST', `/appointments/${id}/cancel`, body);

    it('keeps the reason on the appointment, audits it, and tells the patient when asked', async () => {
      const appointment = await book(frontDesk, { language: 'en' });
      const response = await cancel(frontDesk, appointment.id, {
        reason: '  המטופל ביקש  ',
        send_sms: true,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<IntegrationAppointment>()).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'המטופל ביקש',
        cancelled_at: new Date(NOW).toISOString(),
      });
      expect((await listAppointments())[0]?.cancel_reason).toBe('המטופל ביקש');
      const messages = await sent();
      expect(messages.map((m) => m.to)).toEqual(['0527654321']);
      // In the patient's language, and never the reason.
      expect(messages[0]?.body).toContain('was cancelled');
      expect(messages[0]?.body).toContain('on 25/03/2027 at 09:00');
      expect(messages[0]?.body).not.toContain('ביקש');
      const audit = (await call({ key }, 'GET', '/audit-log')).json<AuditLogEntry[]>();
      expect(audit.find((e) => e.action === 'appointment.cancel')).toMatchObject({
        actor: `staff:${'desk' in frontDesk ? frontDesk.desk.accountId : 0}`,
        target_id: String(appointment.id),
        details: { reason: 'המטופל ביקש', send_sms: true },
      });
      // The time is free again.
      expect(await slotsOn(dana.id, THURSDAY)).toContain('09:00');
    });

    it('changes nothing for a key caller with no body: no reason, the clinic’s own notice', async () => {
      const appointment = await book({ key });
      const response = await cancel({ key }, appointment.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<IntegrationAppointment>()).toMatchObject({
        status: 'cancelled',
        cancel_reason: null,
      });
      // Cancellations are told by default, asked or not (change-notices.test.ts).
      expect((await sent()).map((m) => m.body)).toEqual([expect.stringContaining('בוטל')]);
      const again = await cancel({ key }, appointment.id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'not_cancellable' });
    });

    it("answers 400 naming the field, 404 for another clinic's, and 429 with nothing cancelled when capped", async () => {
      const appointment = await book(frontDesk);
      expectInvalid(await cancel(frontDesk, appointment.id, { reason: 'x'.repeat(501) }), 'reason');
      expectInvalid(await cancel(frontDesk, appointment.id, { send_sms: 'yes' }), 'send_sms');
      expectInvalid(await cancel(frontDesk, appointment.id, { why: 'x' }), 'body');
      const foreign = await cancel(otherFrontDesk, appointment.id, { reason: 'x' });
      expect(foreign.statusCode).toBe(404);
      const capped = await call({ key }, 'PATCH', '/clinic', {
        settings: { message_caps: { per_recipient_per_hour: 1 } },
      });
      expect(capped.statusCode, capped.body).toBe(200);
      const moved = await call(frontDesk, 'POST', `/appointments/${appointment.id}/reschedule`, {
        start_date: iso(`${THURSDAY} 11:00`),
        send_sms: true,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const refused = await cancel(frontDesk, appointment.id, { send_sms: true });
      expect(refused.statusCode, refused.body).toBe(429);
      expect((await listAppointments())[0]?.status).toBe('booked');
      expect((await cancel(frontDesk, appointment.id, { reason: 'x' })).statusCode).toBe(200);
    });
  });

  describe('GET /api/integration/patients', () => {
    beforeEach(async () => {
      await db.insert(patients).values([
        {
          clinicId,
          idNumber: israeliId('03984512'),
          firstName: 'דנה',
          lastName: 'לוי',
          phone: '0501234567',
        },
        {
          clinicId,
          idNumber: israeliId('20000001'),
          firstName: 'דניאל',
          lastName: 'כהן',
          phone: '0527000001',
        },
        {
          clinicId,
          idNumber: israeliId('30000002'),
          firstName: 'רון',
          lastName: 'דנון',
          phone: '0547000002',
        },
        {
          clinicId,
          idNumber: israeliId('40000003'),
          firstName: 'Dana',
          lastName: 'Levi_x',
          phone: '0587000003',
        },
        // The other clinic's patient, with a name and phone that would match.
        {
          clinicId: otherClinicId,
          idNumber: israeliId('50000004'),
          firstName: 'דנה',
          lastName: 'לוי',
          phone: '0501234568',
        },
      ]);
    });

    const search = async (q: string, caller: Caller = frontDesk, limit?: number) => {
      const query = new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) });
      const response = await call(caller, 'GET', `/patients?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<IntegrationPatient[]>().map((p) => `${p.first_name} ${p.last_name}`);
    };

    it('finds by name prefixes in any order, whole words first', async () => {
      // By last name; a whole word first.
      expect(await search('דנ')).toEqual(['רון דנון', 'דניאל כהן', 'דנה לוי']);
      expect(await search('דנה')).toEqual(['דנה לוי']);
      expect(await search('לוי')).toEqual(['דנה לוי']);
      expect(await search('לוי דנה')).toEqual(['דנה לוי']);
      expect(await search('ל ד')).toEqual(['דנה לוי']);
      expect(await search('dana')).toEqual(['Dana Levi_x']);
      // LIKE's own characters mean themselves.
      expect(await search('%')).toEqual([]);
      expect(await search('Levi_')).toEqual(['Dana Levi_x']);
      expect(await search('Lev_')).toEqual([]);
    });

    it('finds by ID number and phone prefixes, in any spelling', async () => {
      const dana = israeliId('03984512');
      expect(await search(dana)).toEqual(['דנה לוי']);
      expect(await search(dana.slice(0, 5))).toEqual(['דנה לוי']);
      // Without its leading zero, whole.
      expect(await search(dana.slice(1))).toEqual(['דנה לוי']);
      expect(await search('050-1234567')).toEqual(['דנה לוי']);
      expect(await search('+972 50 123')).toEqual(['דנה לוי']);
      expect(await search('972501234567')).toEqual(['דנה לוי']);
      expect(await search('52-7000')).toEqual(['דניאל כהן']);
      expect(await search('05')).toHaveLength(4);
      // A name and a number together.
      expect(await search('דנ 054')).toEqual(['רון דנון']);
    });

    it("is bounded by limit and by the clinic: another clinic's patients never", async () => {
      expect(await search('0', frontDesk, 2)).toHaveLength(2);
      expect(await search('לוי', otherFrontDesk)).toEqual(['דנה לוי']);
      const theirs = await call(otherFrontDesk, 'GET', '/patients?q=0501234567');
      expect(theirs.json<IntegrationPatient[]>()).toEqual([]);
      expect(await search('לוי', { key })).toEqual(['דנה לוי']);
    });

    it('answers 400 naming the field', async () => {
      // No q (or a blank one) is no error: every patient, by name.
      for (const url of ['/patients', '/patients?q=%20']) {
        const all = await call(frontDesk, 'GET', url);
        expect(all.statusCode, all.body).toBe(200);
        expect(all.json<IntegrationPatient[]>()).toHaveLength(4);
      }
      expectInvalid(await call(frontDesk, 'GET', '/patients?q=a&offset=-1'), 'offset');
      expectInvalid(await call(frontDesk, 'GET', '/patients?q=a&limit=51'), 'limit');
      expectInvalid(await call(frontDesk, 'GET', '/patients?q=a&limit=0'), 'limit');
    });
  });

  describe('GET /api/integration/waitlist/entries', () => {
    beforeEach(async () => {
      const rows = await db
        .insert(patients)
        .values([
          {
            clinicId,
            idNumber: israeliId('71234567'),
            firstName: 'ממתינה',
            lastName: 'ראשונה',
            phone: '0501110001',
          },
          {
            clinicId,
            idNumber: israeliId('81234567'),
            firstName: 'ממתין',
            lastName: 'שני',
            phone: '0501110002',
          },
        ])
        .returning();
      const tokens = await insertSessions(
        db,
        rows.map((r) => r.id),
        NOW,
      );
      const join = async (token: string, caregiverId: number, fromDate: string, toDate: string) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/waitlist',
          payload: {
            clinicId,
            caregiverId,
            appointmentTypeId: checkup.id,
            fromDate,
            toDate,
            partOfDay: 'morning',
          },
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(token) },
        });
        expect(response.statusCode, response.body).toBe(201);
      };
      await join(tokens[0] as string, dana.id, THURSDAY, '2027-03-29');
      await join(tokens[1] as string, ron.id, '2027-03-28', '2027-03-29');
    });

    it('says who waits on a day, and with which caregiver', async () => {
      const all = await call(frontDesk, 'GET', '/waitlist/entries');
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json<IntegrationWaitlistEntry[]>().map((e) => e.patient.last_name)).toEqual([
        'ראשונה',
        'שני',
      ]);
      const thursday = await call(frontDesk, 'GET', `/waitlist/entries?date=${THURSDAY}`);
      expect(thursday.json<IntegrationWaitlistEntry[]>()).toEqual([
        {
          id: expect.any(Number),
          patient: {
            id: expect.any(Number),
            id_number: israeliId('71234567'),
            first_name: 'ממתינה',
            last_name: 'ראשונה',
            phone: '0501110001',
          },
          caregiver: { id: dana.id, name: 'ד"ר דנה' },
          appointment_type: { id: checkup.id, name: 'בדיקה תקופתית' },
          from_date: THURSDAY,
          to_date: '2027-03-29',
          part_of_day: 'morning',
          joined_at: new Date(NOW).toISOString(),
        },
      ]);
      const sunday = await call(
        owner,
        'GET',
        `/waitlist/entries?date=2027-03-28&caregiver_id=${ron.id}`,
      );
      expect(sunday.json<IntegrationWaitlistEntry[]>().map((e) => e.patient.last_name)).toEqual([
        'שני',
      ]);
      const summary = await call({ key }, 'GET', `/waitlist?date=${THURSDAY}`);
      expect(
        summary.json<IntegrationWaitlistRow[]>().map((r) => [r.caregiver_id, r.waiting]),
      ).toEqual([[dana.id, 1]]);
      const unfiltered = await call({ key }, 'GET', '/waitlist');
      expect(unfiltered.json<IntegrationWaitlistRow[]>()).toHaveLength(2);
    });

    it("never shows another clinic's, and answers 400 naming the field", async () => {
      const theirs = await call(otherFrontDesk, 'GET', `/waitlist/entries?date=${THURSDAY}`);
      expect(theirs.json()).toEqual([]);
      const foreign = await call(
        frontDesk,
        'GET',
        `/waitlist/entries?caregiver_id=${foreignCaregiver.id}`,
      );
      expect(foreign.statusCode).toBe(404);
      expectInvalid(await call(frontDesk, 'GET', '/waitlist/entries?date=2027-02-30'), 'date');
      expectInvalid(await call(frontDesk, 'GET', '/waitlist?caregiver_id=-1'), 'caregiver_id');
    });
  });

  it('a front-desk session needs the anti-forgery token to write', async () => {
    const appointment = await book(frontDesk);
    const forged = await app.inject({
      method: 'POST',
      url: `/api/integration/appointments/${appointment.id}/cancel`,
      cookies: 'desk' in frontDesk ? frontDesk.desk.cookies : {},
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(forged.statusCode).toBe(403);
    const [row] = await db.select().from(patients).where(eq(patients.id, appointment.patient.id));
    expect(row).toBeDefined();
    expect((await listAppointments())[0]?.status).toBe('booked');
  });
});
