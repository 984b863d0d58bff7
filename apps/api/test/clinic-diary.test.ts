// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  BusyTimesResult,
  BusyTimeView,
  IntegrationAppointment,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  PatientAppointment,
  Slot,
  WebhookEvent,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { clinics, patients } from '../src/platform/db/schema.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, useSentMessages, useTestDatabase, xsrfPair } from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';
import { bearer, insertLoggedInPatients, insertSessions } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Wednesday 2027-03-24, 10:00 in Israel. Clocks go forward on Friday 2027-03-26 at 02:00. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');

/** Clinic wall time 'YYYY-MM-DD HH:mm' → ISO with the clinic's offset. */
const iso = (local: string) => formatZonedIso(zonedToEpoch(local, TZ), TZ);

type Issues = { code: string; details?: { issues?: { path: string }[] } };

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

describe.each(engines)("the clinic's diary: busy times and clinic bookings (%s)", (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let receiver: Loopback;
  let clinicId: number;
  let key: string;
  let otherKey: string;
  /** Sunday to Thursday 08:00–16:00, step 30, notice 60. */
  let dana: IntegrationCaregiver;
  /** 30 minutes. */
  let checkup: IntegrationAppointmentType;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    receiver = await startLoopback(() => ({ status: 200, body: 'ok' }));
    app = await buildTestApp(database.current.handle, {
      clock: () => NOW,
      // The tests run the outbox themselves.
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

  const call = (
    apiKey: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object | string,
  ) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      headers: { authorization: `Bearer ${apiKey}` },
    });

  beforeEach(async () => {
    receiver.reset();
    await database.current.reset();
    const [main, other] = await db
      .insert(clinics)
      .values([clinicRow('מרפאת היומן'), clinicRow('מרפאה אחרת')])
      .returning({ id: clinics.id });
    if (!main || !other) throw new Error('fixture: clinics');
    clinicId = main.id;
    key = (await app.apiKeys.create(main.id, 'pms', 'test')).key;
    otherKey = (await app.apiKeys.create(other.id, 'pms', 'test')).key;
    const type = await call(key, 'POST', '/appointment-types', {
      name: 'בדיקה תקופתית',
      duration_minutes: 30,
    });
    expect(type.statusCode, type.body).toBe(201);
    checkup = type.json();
    const workday = [{ start: '08:00', end: '16:00' }];
    const caregiver = await call(key, 'POST', '/caregivers', {
      name: 'ד"ר דנה',
      license_number: '12345',
      appointment_type_ids: [checkup.id],
      marpe_rules: {
        slot_step_minutes: 30,
        min_notice_minutes: 60,
        booking_horizon_days: 30,
        weekly_hours: {
          sunday: workday,
          monday: workday,
          tuesday: workday,
          wednesday: workday,
          thursday: workday,
        },
      },
    });
    expect(caregiver.statusCode, caregiver.body).toBe(201);
    dana = caregiver.json();
  });

  const putBusy = (body: object | string, caregiverId = dana.id, apiKey = key) =>
    call(apiKey, 'PUT', `/caregivers/${caregiverId}/busy-times`, body);

  const listBusy = async (from: string, to: string) => {
    const query = new URLSearchParams({ from: iso(from), to: iso(to) });
    const response = await call(key, 'GET', `/caregivers/${dana.id}/busy-times?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BusyTimeView[]>();
  };

  const slotsOn = async (date: string) => {
    const query = new URLSearchParams({
      clinicId: String(clinicId),
      caregiverId: String(dana.id),
      duration: '30',
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

  const datesFor = async () => {
    const query = new URLSearchParams({
      clinicId: String(clinicId),
      caregiverId: String(dana.id),
      duration: '30',
    });
    const response = await app.inject({
      method: 'GET',
      url: `/api/appointment/available-dates?${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<string[]>();
  };

  const expectInvalid = (response: Awaited<ReturnType<typeof call>>, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<Issues>();
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  /** Thursday 2027-03-25, the working day after NOW. */
  const THURSDAY = '2027-03-25';
  const thursdayWindow = { from: iso(`${THURSDAY} 00:00`), to: iso('2027-03-26 00:00') };
  const item = (externalId: string, from: string, to: string, label?: string) => ({
    external_id: externalId,
    start: iso(`${THURSDAY} ${from}`),
    end: iso(`${THURSDAY} ${to}`),
    ...(label === undefined ? {} : { label }),
  });

  describe('PUT /api/integration/caregivers/:id/busy-times', () => {
    it("replaces the window's set: adds, updates by external_id, removes what is missing", async () => {
      const first = await putBusy({
        ...thursdayWindow,
        items: [
          item('a', '09:00', '10:00', 'ניקוי'),
          item('b', '11:00', '11:30'),
          item('c', '13:00', '14:00'),
        ],
      });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json<BusyTimesResult>()).toEqual({
        caregiver_id: dana.id,
        from: '2027-03-25T00:00:00+02:00',
        to: '2027-03-26T00:00:00+02:00',
        count: 3,
        created: 3,
        updated: 0,
        removed: 0,
      });
      expect(await listBusy(`${THURSDAY} 00:00`, '2027-03-26 00:00')).toEqual([
        {
          external_id: 'a',
          start: '2027-03-25T09:00:00+02:00',
          end: '2027-03-25T10:00:00+02:00',
          label: 'ניקוי',
        },
        {
          external_id: 'b',
          start: '2027-03-25T11:00:00+02:00',
          end: '2027-03-25T11:30:00+02:00',
          label: null,
        },
        {
          external_id: 'c',
          start: '2027-03-25T13:00:00+02:00',
          end: '2027-03-25T14:00:00+02:00',
          label: null,
        },
      ]);

      // The same call again changes nothing.
      const again = await putBusy({
        ...thursdayWindow,
        items: [
          item('a', '09:00', '10:00', 'ניקוי'),
          item('b', '11:00', '11:30'),
          item('c', '13:00', '14:00'),
        ],
      });
      expect(again.json<BusyTimesResult>()).toMatchObject({ created: 0, updated: 0, removed: 0 });

      // a moves, d is new, b and c are gone.
      const next = await putBusy({
        ...thursdayWindow,
        items: [item('a', '09:30', '10:30', 'ניקוי'), item('d', '15:00', '15:30')],
      });
      expect(next.json<BusyTimesResult>()).toMatchObject({
        count: 2,
        created: 1,
        updated: 1,
        removed: 2,
      });
      expect(
        (await listBusy(`${THURSDAY} 00:00`, '2027-03-26 00:00')).map((b) => [
          b.external_id,
          b.start.slice(11, 16),
        ]),
      ).toEqual([
        ['a', '09:30'],
        ['d', '15:00'],
      ]);

      // The audit log says who changed what.
      const audit = (await call(key, 'GET', '/audit-log')).json<AuditLogEntry[]>();
      expect(audit.filter((e) => e.action === 'busy_times.replace')).toHaveLength(2);
    });

    it('leaves other windows alone, and moves an item into the window by its external_id', async () => {
      const monday = { from: iso('2027-03-29 00:00'), to: iso('2027-03-30 00:00') };
      await putBusy({
        ...monday,
        items: [
          { external_id: 'x', start: iso('2027-03-29 09:00'), end: iso('2027-03-29 10:00') },
          { external_id: 'y', start: iso('2027-03-29 12:00'), end: iso('2027-03-29 13:00') },
        ],
      });
      // Thursday's window, empty: Monday's items stay.
      const empty = await putBusy({ ...thursdayWindow, items: [] });
      expect(empty.json<BusyTimesResult>()).toMatchObject({ count: 0, removed: 0 });
      // y moves to Thursday: still one item, now in this window.
      const moved = await putBusy({ ...thursdayWindow, items: [item('y', '09:00', '09:30')] });
      expect(moved.json<BusyTimesResult>()).toMatchObject({ created: 0, updated: 1 });
      expect(
        (await listBusy('2027-03-29 00:00', '2027-03-30 00:00')).map((b) => b.external_id),
      ).toEqual(['x']);
      // An item straddling the window's edge belongs to it: a call without it removes it.
      await putBusy({
        ...thursdayWindow,
        items: [
          { external_id: 'z', start: iso(`${THURSDAY} 23:00`), end: iso('2027-03-26 01:00') },
        ],
      });
      const friday = { from: iso('2027-03-26 00:00'), to: iso('2027-03-27 00:00') };
      expect((await putBusy({ ...friday, items: [] })).json<BusyTimesResult>()).toMatchObject({
        removed: 1,
      });
    });

    it('takes the busy times off available-slots and available-dates', async () => {
      expect(await slotsOn(THURSDAY)).toContain('09:00');
      expect(await datesFor()).toContain(THURSDAY);
      await putBusy({ ...thursdayWindow, items: [item('a', '09:10', '10:00')] });
      const slots = await slotsOn(THURSDAY);
      expect(slots).not.toContain('09:00');
      expect(slots).not.toContain('09:30');
      expect(slots).toContain('08:30');
      expect(slots).toContain('10:00');

      // The whole working day busy: the date is no longer offered.
      await putBusy({ ...thursdayWindow, items: [item('day', '07:00', '17:00')] });
      expect(await slotsOn(THURSDAY)).toEqual([]);
      expect(await datesFor()).not.toContain(THURSDAY);
      // The clinic page's first available slot (cached) moves on to Sunday once today is busy too.
      const firstSlot = async () =>
        (await app.inject({ method: 'GET', url: `/api/clinic/${clinicId}` })).json<{
          caregivers: { first_available_slot: { start: string } | null }[];
        }>().caregivers[0]?.first_available_slot?.start;
      expect(await firstSlot()).toBe('2027-03-24T11:00:00+02:00');
      await putBusy({
        from: iso('2027-03-24 00:00'),
        to: iso('2027-03-25 00:00'),
        items: [
          { external_id: 'wed', start: iso('2027-03-24 10:00'), end: iso('2027-03-24 17:00') },
        ],
      });
      expect(await firstSlot()).toBe('2027-03-28T08:00:00+03:00');

      await putBusy({ ...thursdayWindow, items: [] });
      expect(await slotsOn(THURSDAY)).toContain('09:00');
    });

    it('blocks booking and rescheduling into a busy time with 409 slot_taken', async () => {
      const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now: NOW });
      if (!patient) throw new Error('fixture: patient');
      const write = (url: string, payload: object) =>
        app.inject({
          method: 'POST',
          url,
          payload,
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(patient.token) },
        });
      const body = (local: string) => ({
        clinicId,
        caregiverId: dana.id,
        appointmentTypeId: checkup.id,
        startDate: iso(local),
        endDate: iso(`${local.slice(0, 11)}${local.slice(11, 13)}:30`),
      });
      const booked = await write('/api/appointment', body('2027-03-29 12:00'));
      expect(booked.statusCode, booked.body).toBe(201);
      await putBusy({ ...thursdayWindow, items: [item('a', '09:00', '10:00')] });

      const refused = await write('/api/appointment', body(`${THURSDAY} 09:00`));
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'slot_taken' });

      const moved = await write(
        `/api/appointment/patient-appointments/${booked.json<{ id: number }>().id}/reschedule`,
        body(`${THURSDAY} 09:00`),
      );
      expect(moved.statusCode, moved.body).toBe(409);
      expect(moved.json()).toMatchObject({ code: 'slot_taken' });
    });

    it('answers 400 naming the field for malformed input', async () => {
      const valid = { ...thursdayWindow, items: [item('a', '09:00', '10:00')] };
      expectInvalid(await putBusy({ ...valid, from: '2027-03-25 00:00' }), 'from');
      expectInvalid(await putBusy({ ...valid, to: thursdayWindow.from }), 'to');
      expectInvalid(
        await putBusy({ ...valid, to: formatZonedIso(Date.parse(valid.from) + 181 * DAY, TZ) }),
        'to',
      );
      expectInvalid(await putBusy({ from: valid.from, to: valid.to }), 'items');
      expectInvalid(
        await putBusy({ ...valid, items: [item('a', '10:00', '09:00')] }),
        'items.0.end',
      );
      expectInvalid(
        await putBusy({
          ...valid,
          items: [
            { external_id: 'a', start: iso('2027-03-28 09:00'), end: iso('2027-03-28 10:00') },
          ],
        }),
        'items.0.start',
      );
      expectInvalid(
        await putBusy({
          ...valid,
          items: [item('a', '09:00', '10:00'), item('a', '11:00', '12:00')],
        }),
        'items.1.external_id',
      );
      expectInvalid(
        await putBusy({ ...valid, items: [item('x'.repeat(201), '09:00', '10:00')] }),
        'items.0.external_id',
      );
      expectInvalid(
        await putBusy({ ...valid, items: [item('', '09:00', '10:00')] }),
        'items.0.external_id',
      );
      expectInvalid(
        await putBusy({ ...valid, items: [item('a', '09:00', '10:00', 'ל'.repeat(201))] }),
        'items.0.label',
      );
      expectInvalid(
        await putBusy({ ...valid, items: [{ ...item('a', '09:00', '10:00'), colour: 'red' }] }),
        'items.0',
      );
      expectInvalid(
        await putBusy({ ...valid, items: [{ ...item('a', '09:00', '10:00'), start: 'tomorrow' }] }),
        'items.0.start',
      );
      // An instant whose year passes 9999 in UTC was a PostgreSQL error (22009) and a 500.
      expectInvalid(
        await putBusy({
          ...valid,
          items: [
            {
              ...item('a', '09:00', '10:00'),
              start: '9999-12-31T22:00:00-05:00',
              end: '9999-12-31T23:00:00-05:00',
            },
          ],
        }),
        'items.0.start',
      );
      expectInvalid(
        await putBusy({ ...valid, from: '1999-12-31T00:00:00Z', to: valid.to }),
        'from',
      );
      const tooMany = Array.from({ length: 5001 }, (_, i) => item(`i${i}`, '09:00', '10:00'));
      expectInvalid(await putBusy({ ...valid, items: tooMany }), 'items');
      // Another clinic's caregiver is unknown to this key.
      const foreign = await putBusy(valid, dana.id, otherKey);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'caregiver_not_found' });
      expect(await listBusy(`${THURSDAY} 00:00`, '2027-03-26 00:00')).toEqual([]);
    });

    it('takes 5,000 items in one call, and the same call again', async () => {
      const bare = performance.now();
      for (let i = 0; i < 5; i++) await datesFor();
      console.info(
        `available-dates over 30 days without busy times (${engine}): ${((performance.now() - bare) / 5).toFixed(1)} ms a call`,
      );
      const window = { from: iso('2027-03-25 00:00'), to: iso('2027-07-25 00:00') };
      const start = Date.parse(window.from);
      const items = Array.from({ length: 5000 }, (_, i) => ({
        external_id: `pms-${i}`,
        start: new Date(start + i * 30 * MINUTE).toISOString(),
        end: new Date(start + i * 30 * MINUTE + 20 * MINUTE).toISOString(),
        label: `item ${i}`,
      }));
      const began = performance.now();
      const first = await putBusy({ ...window, items });
      const firstMs = performance.now() - began;
      expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
      expect(first.json<BusyTimesResult>()).toMatchObject({ count: 5000, created: 5000 });
      const again = performance.now();
      const second = await putBusy({ ...window, items });
      const secondMs = performance.now() - again;
      expect(second.json<BusyTimesResult>()).toMatchObject({ created: 0, updated: 0, removed: 0 });
      console.info(
        `busy-times 5000 items (${engine}): first ${firstMs.toFixed(0)} ms, again ${secondMs.toFixed(0)} ms`,
      );
      // Slots read the busy times of a 30-day horizon (about 1,400 of them) without trouble.
      expect(await slotsOn(THURSDAY)).toEqual([]);
      const timed = performance.now();
      for (let i = 0; i < 5; i++) await datesFor();
      console.info(
        `available-dates over 30 days with ~1,400 busy times (${engine}): ${((performance.now() - timed) / 5).toFixed(1)} ms a call`,
      );
    });
  });

  describe('POST /api/integration/appointments', () => {
    const newPatient = {
      id_number: israeliId('31234567'),
      phone: '052-7654321',
      first_name: 'יעל',
      last_name: 'כהן',
    };
    const booking = (overrides: Record<string, unknown> = {}) => ({
      caregiver_id: dana.id,
      appointment_type_id: checkup.id,
      start_date: iso(`${THURSDAY} 09:00`),
      patient: newPatient,
      ...overrides,
    });
    const book = (body: object, apiKey = key) => call(apiKey, 'POST', '/appointments', body);

    async function sessionOf(idNumber: string) {
      const [row] = await db.select().from(patients).where(eq(patients.idNumber, idNumber));
      if (!row) throw new Error('no patient');
      const [token] = await insertSessions(db, [row.id], NOW);
      return { row, token: token as string };
    }

    it("signs up an unknown patient and books; it is in the patient's appointments", async () => {
      const response = await book(booking());
      expect(response.statusCode, response.body).toBe(201);
      const appointment = response.json<IntegrationAppointment>();
      expect(appointment).toMatchObject({
        status: 'booked',
        source: 'clinic',
        start_date: '2027-03-25T09:00:00+02:00',
        end_date: '2027-03-25T09:30:00+02:00',
        caregiver: { id: dana.id },
        appointment_type: { id: checkup.id },
        patient: {
          id_number: newPatient.id_number,
          first_name: 'יעל',
          last_name: 'כהן',
          phone: '0527654321',
        },
      });
      const { token } = await sessionOf(newPatient.id_number);
      const mine = await app.inject({
        method: 'GET',
        url: '/api/appointment/patient-appointments',
        headers: bearer(token),
      });
      expect(mine.json<PatientAppointment[]>().map((a) => [a.id, a.start_date])).toEqual([
        [appointment.id, '2027-03-25T09:00:00+02:00'],
      ]);
      // The slot is gone for everyone.
      expect(await slotsOn(THURSDAY)).not.toContain('09:00');
      const audit = (await call(key, 'GET', '/audit-log')).json<AuditLogEntry[]>();
      expect(audit.find((e) => e.action === 'appointment.book')).toMatchObject({
        target_id: String(appointment.id),
        details: { patient_created: true, outside_working_hours: false },
      });
    });

    it('books a known patient by ID number and phone; another phone is 400 naming patient.phone', async () => {
      const [known] = await db
        .insert(patients)
        .values({
          clinicId,
          idNumber: israeliId('41234567'),
          firstName: 'מטופל',
          lastName: 'ותיק',
          phone: '0501234567',
        })
        .returning();
      if (!known) throw new Error('fixture: patient');
      const wrongPhone = await book(
        booking({ patient: { ...newPatient, id_number: known.idNumber } }),
      );
      expectInvalid(wrongPhone, 'patient.phone');
      const ok = await book(
        booking({
          patient: { ...newPatient, id_number: known.idNumber, phone: known.phone },
        }),
      );
      expect(ok.statusCode, ok.body).toBe(201);
      // The names on file stay.
      expect(ok.json<IntegrationAppointment>().patient).toMatchObject({
        id: known.id,
        first_name: 'מטופל',
      });
      // Nobody was signed up by the refused call.
      expect(
        await db.select().from(patients).where(eq(patients.idNumber, newPatient.id_number)),
      ).toEqual([]);
    });

    it('never books over another appointment, the same date twice, or a busy time unless told', async () => {
      expect((await book(booking())).statusCode).toBe(201);
      const other = { ...newPatient, id_number: israeliId('21234567'), phone: '0541112233' };
      const overlap = await book(booking({ patient: other, start_date: iso(`${THURSDAY} 09:00`) }));
      expect(overlap.statusCode, overlap.body).toBe(409);
      expect(overlap.json()).toMatchObject({ code: 'slot_taken' });
      const sameDate = await book(booking({ start_date: iso(`${THURSDAY} 11:00`) }));
      expect(sameDate.statusCode).toBe(409);
      expect(sameDate.json()).toMatchObject({ code: 'existingAppointment' });

      await putBusy({ ...thursdayWindow, items: [item('meeting', '12:00', '13:00')] });
      const busy = await book(booking({ patient: other, start_date: iso(`${THURSDAY} 12:00`) }));
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toMatchObject({ code: 'slot_taken' });
      const over = await book(
        booking({ patient: other, start_date: iso(`${THURSDAY} 12:00`), ignore_busy_times: true }),
      );
      expect(over.statusCode, over.body).toBe(201);
    });

    it('books outside working hours only when the clinic says so, and never in the past', async () => {
      const evening = booking({ start_date: iso(`${THURSDAY} 19:10`) });
      expectInvalid(await book(evening), 'start_date');
      const ok = await book({ ...evening, outside_working_hours: true });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json<IntegrationAppointment>().end_date).toBe('2027-03-25T19:40:00+02:00');
      expectInvalid(
        await book(booking({ start_date: iso('2027-03-24 08:00'), outside_working_hours: true })),
        'start_date',
      );
    });

    it('answers 400 naming the field, and 404 for what is not the clinic’s', async () => {
      expectInvalid(
        await book(booking({ patient: { ...newPatient, id_number: '123456789' } })),
        'patient.id_number',
      );
      expectInvalid(
        await book(booking({ patient: { ...newPatient, phone: '03-5551234' } })),
        'patient.phone',
      );
      expectInvalid(
        await book(booking({ patient: { ...newPatient, first_name: '' } })),
        'patient.first_name',
      );
      expectInvalid(await book(booking({ start_date: '2027-03-25 09:00' })), 'start_date');
      expectInvalid(await book(booking({ start_date: '9999-12-31T23:00:00-05:00' })), 'start_date');
      expectInvalid(await book(booking({ start_date: '2100-01-01T00:00:00Z' })), 'start_date');
      expectInvalid(await book(booking({ send_sms: 'yes' })), 'send_sms');
      expectInvalid(await book(booking({ surprise: 1 })), 'body');
      const foreign = await book(booking(), otherKey);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'caregiver_not_found' });
    });

    describe('messages and events', () => {
      const sent = useSentMessages(() => app);

      it('sends the details only with send_sms: true', async () => {
        expect((await book(booking())).statusCode).toBe(201);
        expect(await sent()).toEqual([]);
        const other = { ...newPatient, id_number: israeliId('21234567'), phone: '0541112233' };
        const withSms = await book(
          booking({ patient: other, start_date: iso(`${THURSDAY} 10:00`), send_sms: true }),
        );
        expect(withSms.statusCode, withSms.body).toBe(201);
        const messages = await sent();
        expect(messages.map((m) => m.to)).toEqual(['0541112233']);
        expect(messages[0]?.body).toContain('25/03/2027');
        expect(messages[0]?.body).toContain('10:00');
      });

      it('counts the details message against the clinic’s message caps: refused, nothing is booked', async () => {
        const capped = await call(key, 'PATCH', '/clinic', {
          settings: { message_caps: { per_recipient_per_hour: 1 } },
        });
        expect(capped.statusCode, capped.body).toBe(200);
        const other = { ...newPatient, id_number: israeliId('21234567'), phone: '0541112233' };
        const first = await book(
          booking({ patient: other, start_date: iso(`${THURSDAY} 10:00`), send_sms: true }),
        );
        expect(first.statusCode, first.body).toBe(201);
        const second = await book(
          booking({ patient: other, start_date: iso(`${THURSDAY} 11:00`), send_sms: true }),
        );
        expect(second.statusCode, second.body).toBe(429);
        expect(second.json()).toMatchObject({
          code: 'too_many_requests',
          details: { cap: 'per_recipient_per_hour', max: 1, retry_after: expect.any(Number) },
        });
        expect((await sent()).map((m) => m.to)).toEqual(['0541112233']);
        // Nothing was booked: another patient may have that time, and without the message the
        // clinic may book this one again (on another date: one appointment a date).
        expect((await book(booking({ start_date: iso(`${THURSDAY} 11:00`) }))).statusCode).toBe(
          201,
        );
        const quiet = await book(booking({ patient: other, start_date: iso('2027-03-28 10:00') }));
        expect(quiet.statusCode, quiet.body).toBe(201);
      });

      it('offers a time a removed busy time frees; a clinic booking settles the entry', async () => {
        const [waiting] = await db
          .insert(patients)
          .values({
            clinicId,
            idNumber: israeliId('51234567'),
            firstName: 'ממתין',
            lastName: 'בתור',
            phone: '0509876543',
          })
          .returning();
        if (!waiting) throw new Error('fixture: patient');
        const [token] = await insertSessions(db, [waiting.id], NOW);
        await putBusy({ ...thursdayWindow, items: [item('day', '07:00', '17:00')] });
        const joined = await app.inject({
          method: 'POST',
          url: '/api/waitlist',
          payload: {
            clinicId,
            caregiverId: dana.id,
            appointmentTypeId: checkup.id,
            fromDate: THURSDAY,
            toDate: THURSDAY,
            partOfDay: 'any',
          },
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(token as string) },
        });
        expect(joined.statusCode, joined.body).toBe(201);
        const drain = async () => {
          while ((await app.messaging.runOutbox()) > 0);
        };
        await drain();
        expect(await sent()).toEqual([]);

        // The clinic's diary frees the day: the waiting patient is offered its first time.
        expect((await putBusy({ ...thursdayWindow, items: [] })).json()).toMatchObject({
          removed: 1,
        });
        await drain();
        const offers = await sent();
        expect(offers.map((m) => m.to)).toEqual(['0509876543']);
        expect(offers[0]?.body).toContain('בתאריך 25/03/2027 בשעה 08:00');

        const booked = await book(
          booking({
            patient: {
              id_number: waiting.idNumber,
              phone: waiting.phone,
              first_name: 'ממתין',
              last_name: 'בתור',
            },
          }),
        );
        expect(booked.statusCode, booked.body).toBe(201);
        const entries = await app.inject({
          method: 'GET',
          url: '/api/waitlist',
          headers: bearer(token as string),
        });
        expect(entries.json()).toEqual([]);
      });

      it('plans reminders like any booking', async () => {
        const settings = await call(key, 'PUT', '/reminders/settings', {
          enabled: true,
          lead_minutes: [1440, 120],
          channel: 'sms',
          quiet_hours: { start: '21:00', end: '08:00' },
          observe_shabbat_and_holidays: false,
        });
        expect(settings.statusCode, settings.body).toBe(200);
        const appointment = (
          await book(booking({ start_date: iso('2027-03-29 12:00') }))
        ).json<IntegrationAppointment>();
        const reminders = await call(key, 'GET', `/appointments/${appointment.id}/reminders`);
        expect(reminders.statusCode, reminders.body).toBe(200);
        expect(reminders.json<{ status: string; lead_minutes: number }[]>()).toEqual([
          expect.objectContaining({ status: 'scheduled', lead_minutes: 1440 }),
          expect.objectContaining({ status: 'scheduled', lead_minutes: 120 }),
        ]);
      });

      it("raises appointment.booked with source 'clinic', and 'patient' for a patient's booking", async () => {
        const endpoint = await call(key, 'POST', '/webhooks', {
          url: receiver.url('/hook'),
          events: ['appointment.booked'],
        });
        expect(endpoint.statusCode, endpoint.body).toBe(201);
        const clinicBooking = (await book(booking())).json<IntegrationAppointment>();
        const [patient] = await insertLoggedInPatients(db, { clinicId, count: 1, now: NOW });
        if (!patient) throw new Error('fixture: patient');
        const own = await app.inject({
          method: 'POST',
          url: '/api/appointment',
          payload: {
            clinicId,
            caregiverId: dana.id,
            appointmentTypeId: checkup.id,
            startDate: iso(`${THURSDAY} 11:00`),
            endDate: iso(`${THURSDAY} 11:30`),
          },
          cookies: xsrf.cookies,
          headers: { ...xsrf.headers, ...bearer(patient.token) },
        });
        expect(own.statusCode, own.body).toBe(201);
        await app.messaging.runOutbox('webhooks');
        const events = receiver.requests.map((r) => JSON.parse(r.body) as WebhookEvent);
        expect(
          events.map((e) => [
            e.type,
            (e.data as IntegrationAppointment).id,
            (e.data as IntegrationAppointment).source,
          ]),
        ).toEqual([
          ['appointment.booked', clinicBooking.id, 'clinic'],
          ['appointment.booked', own.json<{ id: number }>().id, 'patient'],
        ]);
      });
    });
  });
});
