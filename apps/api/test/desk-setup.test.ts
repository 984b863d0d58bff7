// Over 400 lines: its tests share one app and one database per engine (a file's set-up costs
// seconds an engine), so an API area stays one file.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuditLogEntry,
  ClinicData,
  Closure,
  DevMessage,
  HolidaySuggestion,
  IntegrationAppointment,
  IntegrationAppointmentType,
  IntegrationCaregiver,
  SetupChecklist,
  SetupStep,
} from '@marpe/shared';
import type { App } from '../src/app.js';
import type { Database } from '../src/platform/db/client.js';
import { formatZonedIso, zonedToEpoch } from '../src/platform/zoned-time.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
import { insertLoggedInPatients, insertStaffSession } from './sessions.js';

const TZ = 'Asia/Jerusalem';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wednesday 2027-03-24, 10:00 in Israel. */
const NOW = Date.parse('2027-03-24T10:00:00+02:00');
const THURSDAY = '2027-03-25';
const NEXT_THURSDAY = '2027-04-01';

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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Who calls: an API key, or a desk session's cookies. */
type Caller = { key: string } | { cookies: Record<string, string> };

describe.each(engines)('the desk’s set-up checklist and closures (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let db: Database;
  let now = NOW;
  let clinicA: number;
  let clinicB: number;
  let keyA: Caller;
  let keyB: Caller;
  let ownerA: Awaited<ReturnType<typeof insertStaffSession>>;
  let frontDeskA: Caller;
  let ownerB: Caller;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, {
      clock: () => now,
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
    await database.current.reset();
    now = NOW;
    [clinicA, clinicB] = await insertClinics(db, ['מרפאת אלון', 'מרפאת ברוש']);
    keyA = { key: (await app.apiKeys.create(clinicA, 'pms', 'test')).key };
    keyB = { key: (await app.apiKeys.create(clinicB, 'pms', 'test')).key };
    ownerA = await insertStaffSession(db, { clinicId: clinicA, role: 'owner', now });
    frontDeskA = await insertStaffSession(db, { clinicId: clinicA, role: 'front_desk', now });
    ownerB = await insertStaffSession(db, { clinicId: clinicB, role: 'owner', now });
  });

  const call = (caller: Caller, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/integration${url}`,
      payload,
      ...('key' in caller
        ? { headers: { authorization: `Bearer ${caller.key}` } }
        : {
            cookies: { ...caller.cookies, ...xsrf.cookies },
            headers: { ...xsrf.headers, 'sec-fetch-site': 'same-origin' },
          }),
    });

  const checklist = async (caller: Caller = ownerA): Promise<SetupChecklist> => {
    const response = await call(caller, 'GET', '/setup');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const stateOf = (list: SetupChecklist, step: SetupStep) =>
    list.steps.find((s) => s.step === step);
  const completeSteps = (list: SetupChecklist) =>
    list.steps.filter((s) => s.complete).map((s) => s.step);

  const expectInvalid = (response: { statusCode: number; body: string }, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = JSON.parse(response.body) as {
      code: string;
      details?: { issues?: { path: string }[] };
    };
    expect(body.code).toBe('validation_failed');
    expect(body.details?.issues?.map((i) => i.path)).toContain(path);
  };

  const workday = [{ start: '08:00', end: '16:00' }];
  async function addType(caller: Caller = keyA): Promise<IntegrationAppointmentType> {
    const response = await call(caller, 'POST', '/appointment-types', {
      name: 'בדיקה',
      duration_minutes: 30,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }
  async function addCaregiver(
    typeIds: number[],
    weekly: Record<string, { start: string; end: string }[]> = {
      sunday: workday,
      monday: workday,
      tuesday: workday,
      wednesday: workday,
      thursday: workday,
    },
    caller: Caller = keyA,
  ): Promise<IntegrationCaregiver> {
    const response = await call(caller, 'POST', '/caregivers', {
      name: 'ד"ר דנה',
      license_number: '12345',
      appointment_type_ids: typeIds,
      marpe_rules: {
        slot_step_minutes: 30,
        min_notice_minutes: 60,
        booking_horizon_days: 30,
        weekly_hours: weekly,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  describe('the checklist', () => {
    it('lists the nine steps in order; a new clinic has its profile and nothing else', async () => {
      const list = await checklist();
      expect(list.steps.map((s) => s.step)).toEqual([
        'profile',
        'hours',
        'closures',
        'caregivers',
        'types',
        'rules',
        'reminders',
        'channel',
        'terminal',
      ]);
      expect(list.steps.filter((s) => s.required).map((s) => s.step)).toEqual([
        'profile',
        'caregivers',
        'types',
      ]);
      expect(completeSteps(list)).toEqual(['profile']);
      expect(list.steps.every((s) => !s.done && s.done_at === null)).toBe(true);
      expect(list.ready_for_patients).toBe(false);
      expect(list.clinic_page_path).toBe(`/clinic/${clinicA}/${encodeURIComponent('מרפאת-אלון')}`);
    });

    it("reads hours, caregivers and types from the clinic's data; ready once patients can book", async () => {
      const hours = await call(ownerA, 'PATCH', '/clinic', {
        opening_hours: {
          title: null,
          days: {
            sunday: { start: '08:00', end: '16:00' },
            monday: null,
            tuesday: null,
            wednesday: null,
            thursday: null,
            friday: null,
            saturday: null,
          },
        },
      });
      expect(hours.statusCode, hours.body).toBe(200);
      expect(completeSteps(await checklist())).toEqual(['profile', 'hours']);

      const type = await addType();
      // A caregiver offering no type, and one without weekly hours, cannot be booked.
      await addCaregiver([]);
      await addCaregiver([type.id], {});
      let list = await checklist();
      expect(completeSteps(list)).toEqual(['profile', 'hours', 'types']);
      expect(list.ready_for_patients).toBe(false);

      const dana = await addCaregiver([type.id]);
      list = await checklist();
      expect(completeSteps(list)).toEqual(['profile', 'hours', 'caregivers', 'types']);
      expect(list.ready_for_patients).toBe(true);

      // An inactive caregiver takes no bookings.
      expect((await call(keyA, 'DELETE', `/caregivers/${dana.id}`)).statusCode).toBe(204);
      expect((await checklist()).ready_for_patients).toBe(false);
    });

    it('an owner marks steps done and undone, audited with who; the marks last', async () => {
      const marked = await call(ownerA, 'PUT', '/setup/steps/rules', { done: true });
      expect(marked.statusCode, marked.body).toBe(200);
      const rules = stateOf(marked.json<SetupChecklist>(), 'rules');
      expect(rules).toEqual({
        step: 'rules',
        done: true,
        done_at: new Date(NOW).toISOString(),
        complete: true,
        required: false,
      });
      // Marking again keeps the first mark.
      now += 10 * MINUTE;
      await call(ownerA, 'PUT', '/setup/steps/rules', { done: true });
      expect(stateOf(await checklist(), 'rules')?.done_at).toBe(new Date(NOW).toISOString());

      // A derived step keeps its own completeness whatever the mark.
      const hours = await call(ownerA, 'PUT', '/setup/steps/hours', { done: true });
      expect(stateOf(hours.json<SetupChecklist>(), 'hours')).toMatchObject({
        done: true,
        complete: false,
      });

      const undone = await call(ownerA, 'PUT', '/setup/steps/rules', { done: false });
      expect(stateOf(undone.json<SetupChecklist>(), 'rules')).toMatchObject({
        done: false,
        done_at: null,
        complete: false,
      });

      const log = await call(keyA, 'GET', '/audit-log');
      const entries = log
        .json<AuditLogEntry[]>()
        .filter((e) => e.action.startsWith('setup_step.'))
        .map((e) => [e.action, e.target_id, e.actor]);
      const actor = `staff:${ownerA.accountId}`;
      expect(entries).toEqual([
        ['setup_step.undone', 'rules', actor],
        ['setup_step.done', 'hours', actor],
        ['setup_step.done', 'rules', actor],
      ]);
    });

    it('front desk reads the checklist but marks nothing; a key may; a bad step is a 400', async () => {
      expect((await checklist(frontDeskA)).steps).toHaveLength(9);
      const refused = await call(frontDeskA, 'PUT', '/setup/steps/profile', { done: true });
      expect(refused.statusCode).toBe(403);
      const byKey = await call(keyA, 'PUT', '/setup/steps/terminal', { done: true });
      expect(byKey.statusCode, byKey.body).toBe(200);
      expectInvalid(await call(ownerA, 'PUT', '/setup/steps/payroll', { done: true }), 'step');
      expectInvalid(await call(ownerA, 'PUT', '/setup/steps/profile', { done: 'yes' }), 'done');
      expectInvalid(
        await call(ownerA, 'PUT', '/setup/steps/profile', { done: true, extra: 1 }),
        'body',
      );
      const noSession = await app.inject({ method: 'GET', url: '/api/integration/setup' });
      expect(noSession.statusCode).toBe(401);
    });

    it("one clinic's marks and data are not another's", async () => {
      await call(ownerA, 'PUT', '/setup/steps/channel', { done: true });
      await addType();
      const other = await checklist(ownerB);
      expect(completeSteps(other)).toEqual(['profile']);
      expect(other.clinic_page_path).toContain(`/clinic/${clinicB}/`);
      expect(stateOf(await checklist(keyB), 'channel')?.done).toBe(false);
    });
  });

  describe('closures', () => {
    const close = (date: string, note?: string | null, caller: Caller = ownerA) =>
      call(caller, 'POST', '/closures', note === undefined ? { date } : { date, note });
    const closures = async (caller: Caller = ownerA, query = ''): Promise<Closure[]> => {
      const response = await call(caller, 'GET', `/closures${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    it('are listed from today by date, and one date is closed once', async () => {
      const created = await close('2027-04-22', '  פסח  ');
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<Closure>()).toEqual({
        id: expect.any(Number),
        date: '2027-04-22',
        note: 'פסח',
        booked_appointments: 0,
        created_at: new Date(NOW).toISOString(),
      });
      expect((await close(THURSDAY, null)).statusCode).toBe(201);
      expect((await close('2027-03-24')).statusCode).toBe(201);

      expect((await closures()).map((c) => [c.date, c.note])).toEqual([
        ['2027-03-24', null],
        [THURSDAY, null],
        ['2027-04-22', 'פסח'],
      ]);
      expect((await closures(ownerA, '?from=2027-03-25&to=2027-04-01')).map((c) => c.date)).toEqual(
        [THURSDAY],
      );
      // Two days on (a key: the desk sessions have ended by then).
      now += 2 * 24 * HOUR;
      expect((await closures(keyA)).map((c) => c.date)).toEqual(['2027-04-22']);

      const again = await close('2027-04-22', 'שוב', keyA);
      expect(again.statusCode).toBe(409);
      expect(again.json<{ code: string }>().code).toBe('conflict');
    });

    it('refuse past and impossible dates and long notes, naming the field', async () => {
      expectInvalid(await close('2027-03-23'), 'date');
      expectInvalid(await close('2027-02-30'), 'date');
      expectInvalid(await close('25/03/2027'), 'date');
      expectInvalid(await close(THURSDAY, 'x'.repeat(201)), 'note');
      expectInvalid(await call(ownerA, 'GET', '/closures?from=2027-05-01&to=2027-04-01'), 'to');
      expect(await closures()).toEqual([]);
    });

    it('are owners’ to change; front desk reads; other clinics see none and touch none', async () => {
      expect((await close(THURSDAY, null, frontDeskA)).statusCode).toBe(403);
      const created = (await close(THURSDAY, 'כנס')).json<Closure>();
      expect(await closures(frontDeskA)).toHaveLength(1);
      expect(await closures(ownerB)).toEqual([]);
      expect(await closures(keyB)).toEqual([]);
      // The same date is free to close in another clinic.
      expect((await close(THURSDAY, null, keyB)).statusCode).toBe(201);

      expect((await call(ownerB, 'DELETE', `/closures/${created.id}`)).statusCode).toBe(404);
      expect((await call(frontDeskA, 'DELETE', `/closures/${created.id}`)).statusCode).toBe(403);
      expect((await call(ownerA, 'DELETE', '/closures/99999999999')).statusCode).toBe(404);
      expect((await call(ownerA, 'DELETE', `/closures/${created.id}`)).statusCode).toBe(204);
      expect((await call(ownerA, 'DELETE', `/closures/${created.id}`)).statusCode).toBe(404);
      expect(await closures()).toEqual([]);
      expect((await closures(keyB)).map((c) => c.date)).toEqual([THURSDAY]);

      const log = (await call(keyA, 'GET', '/audit-log')).json<AuditLogEntry[]>();
      expect(
        log.filter((e) => e.action.startsWith('closure.')).map((e) => [e.action, e.target_id]),
      ).toEqual([
        ['closure.delete', String(created.id)],
        ['closure.create', String(created.id)],
      ]);
    });

    describe('and the availability engine', () => {
      let type: IntegrationAppointmentType;
      let dana: IntegrationCaregiver;

      beforeEach(async () => {
        type = await addType();
        dana = await addCaregiver([type.id]);
      });

      const dates = async (clinicId = clinicA, caregiverId = dana.id) => {
        const response = await app.inject({
          method: 'GET',
          url: '/api/appointment/available-dates',
          query: {
            clinicId: String(clinicId),
            caregiverId: String(caregiverId),
            duration: '30',
          },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<string[]>();
      };
      const slots = async (date: string) => {
        const response = await app.inject({
          method: 'GET',
          url: '/api/appointment/available-slots',
          query: {
            clinicId: String(clinicA),
            caregiverId: String(dana.id),
            duration: '30',
            startDate: `${date} 00:00`,
            endDate: `${date} 23:59`,
          },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ start: string }[]>();
      };
      const firstSlot = async () => {
        const response = await app.inject({ method: 'GET', url: `/api/clinic/${clinicA}` });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<ClinicData>().caregivers[0]?.first_available_slot?.start ?? null;
      };
      const book = (start: string, extra: object = {}) =>
        call(keyA, 'POST', '/appointments', {
          caregiver_id: dana.id,
          appointment_type_id: type.id,
          start_date: iso(start),
          patient: {
            id_number: israeliId('31234567'),
            phone: '052-7654321',
            first_name: 'יעל',
            last_name: 'כהן',
          },
          ...extra,
        });

      it('offer no date, slot or first free time on a closed date, and all again once open', async () => {
        expect(await dates()).toContain(THURSDAY);
        expect(await slots(THURSDAY)).toHaveLength(16);
        // Today (Wednesday) from 11:00 on, an hour's notice.
        expect(await firstSlot()).toBe(iso('2027-03-24 11:00'));

        const today = (await close('2027-03-24', 'חופשה')).json<Closure>();
        const thursday = (await close(THURSDAY)).json<Closure>();
        const available = await dates();
        expect(available).not.toContain('2027-03-24');
        expect(available).not.toContain(THURSDAY);
        expect(available).toContain('2027-03-28');
        expect(await slots(THURSDAY)).toEqual([]);
        expect(await firstSlot()).toBe(iso('2027-03-28 08:00'));

        // Another clinic's caregiver is not closed by it.
        await addType(keyB);
        const other = await addCaregiver([], undefined, keyB);
        expect(await dates(clinicB, other.id)).toContain(THURSDAY);

        await call(ownerA, 'DELETE', `/closures/${today.id}`);
        await call(ownerA, 'DELETE', `/closures/${thursday.id}`);
        expect(await dates()).toContain(THURSDAY);
        expect(await slots(THURSDAY)).toHaveLength(16);
        expect(await firstSlot()).toBe(iso('2027-03-24 11:00'));
      });

      it("closes a date whatever the caregiver's own exception for it says", async () => {
        const exception = await call(keyA, 'PATCH', `/caregivers/${dana.id}`, {
          marpe_rules: {
            exceptions: [{ date: '2027-03-27', note: 'שבת מיוחדת', hours: workday }],
          },
        });
        expect(exception.statusCode, exception.body).toBe(200);
        expect(await dates()).toContain('2027-03-27');
        await close('2027-03-27');
        expect(await dates()).not.toContain('2027-03-27');
        expect(await slots('2027-03-27')).toEqual([]);
        // The caregiver's own exceptions, as the clinic set them, are unchanged.
        const read = await call(keyA, 'GET', `/caregivers/${dana.id}`);
        expect(read.json<IntegrationCaregiver>().marpe_rules.exceptions).toEqual([
          { date: '2027-03-27', note: 'שבת מיוחדת', hours: workday },
        ]);
      });

      it('refuses a clinic booking on a closed date unless outside working hours is said', async () => {
        await close(NEXT_THURSDAY);
        expectInvalid(await book(`${NEXT_THURSDAY} 09:00`), 'start_date');
        const booked = await book(`${NEXT_THURSDAY} 09:00`, { outside_working_hours: true });
        expect(booked.statusCode, booked.body).toBe(201);
        expect(booked.json<IntegrationAppointment>().start_date).toBe(
          iso(`${NEXT_THURSDAY} 09:00`),
        );
        // The closure says how many appointments are still booked on it.
        expect((await closures()).map((c) => [c.date, c.booked_appointments])).toEqual([
          [NEXT_THURSDAY, 1],
        ]);
      });
    });
  });

  describe('closures and the waitlist', () => {
    /** Sunday 2027-03-28, 09:00 in the clinic, as the patient booking calls write it. */
    const sundayNine = {
      startDate: iso('2027-03-28 09:00'),
      endDate: iso('2027-03-28 09:30'),
    };

    async function messages(): Promise<DevMessage[]> {
      while ((await app.messaging.runOutbox()) > 0);
      return (await app.inject({ method: 'GET', url: '/api/dev/messages' })).json();
    }
    const patientWrite = (method: 'POST' | 'PUT', url: string, token: string, payload: object) =>
      app.inject({
        method,
        url,
        payload,
        cookies: xsrf.cookies,
        headers: { ...xsrf.headers, authorization: `Bearer ${token}` },
      });

    it('offers waiting patients no time on a closed date, and the day once it opens again', async () => {
      const type = await addType();
      // One 30-minute slot a week: Sundays at 09:00.
      const caregiver = await addCaregiver([type.id], {
        sunday: [{ start: '09:00', end: '09:30' }],
      });
      const [booker, waiter] = await insertLoggedInPatients(db, {
        clinicId: clinicA,
        count: 2,
        now,
      });
      if (!booker || !waiter) throw new Error('no patients');
      const booked = await patientWrite('POST', '/api/appointment', booker.token, {
        clinicId: clinicA,
        caregiverId: caregiver.id,
        appointmentTypeId: type.id,
        ...sundayNine,
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const joined = await patientWrite('POST', '/api/waitlist', waiter.token, {
        clinicId: clinicA,
        caregiverId: caregiver.id,
        appointmentTypeId: type.id,
        fromDate: '2027-03-28',
        toDate: '2027-03-28',
        partOfDay: 'any',
      });
      expect(joined.statusCode, joined.body).toBe(201);
      const before = (await messages()).length;
      const toWaiter = async () =>
        (await messages()).slice(0, -before || undefined).filter((m) => m.to === waiter.phone);

      const closure = (await close('2027-03-28', 'אירוע')).json<Closure>();
      // The freed time lies on a closed date: nobody is offered it.
      const cancelled = await patientWrite(
        'PUT',
        '/api/appointment/patient-appointments',
        booker.token,
        { appointmentId: booked.json<{ id: number }>().id },
      );
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await toWaiter()).toEqual([]);

      // Open again: the waiting patient hears of the Sunday time.
      expect((await call(ownerA, 'DELETE', `/closures/${closure.id}`)).statusCode).toBe(204);
      const offers = await toWaiter();
      expect(offers).toHaveLength(1);
      expect(offers[0]?.body).toContain('28/03/2027');
      expect(offers[0]?.body).toContain('09:00');
    });

    const close = (date: string, note: string) => call(ownerA, 'POST', '/closures', { date, note });
  });

  describe('holiday suggestions', () => {
    it("list the year's Yom Tov days and Independence Day, in Hebrew and English", async () => {
      const response = await call(frontDeskA, 'GET', '/closures/holiday-suggestions?year=2026');
      expect(response.statusCode, response.body).toBe(200);
      expect(
        response.json<HolidaySuggestion[]>().map((h) => [h.date, h.holiday, h.name_he]),
      ).toEqual([
        ['2026-04-02', 'pesach_1', 'פסח'],
        ['2026-04-08', 'pesach_7', 'שביעי של פסח'],
        ['2026-04-22', 'yom_haatzmaut', 'יום העצמאות'],
        ['2026-05-22', 'shavuot', 'שבועות'],
        ['2026-09-12', 'rosh_hashana_1', 'ראש השנה (יום א׳)'],
        ['2026-09-13', 'rosh_hashana_2', 'ראש השנה (יום ב׳)'],
        ['2026-09-21', 'yom_kippur', 'יום כיפור'],
        ['2026-09-26', 'sukkot', 'סוכות'],
        ['2026-10-03', 'shmini_atzeret', 'שמיני עצרת ושמחת תורה'],
      ]);
      const english = (await call(keyA, 'GET', '/closures/holiday-suggestions?year=2027')).json<
        HolidaySuggestion[]
      >();
      expect(english.map((h) => h.name_en)).toEqual([
        'Passover',
        'Passover (seventh day)',
        'Independence Day',
        'Shavuot',
        'Rosh Hashanah (day 1)',
        'Rosh Hashanah (day 2)',
        'Yom Kippur',
        'Sukkot',
        'Shemini Atzeret and Simchat Torah',
      ]);
      expect(english.find((h) => h.holiday === 'yom_haatzmaut')?.date).toBe('2027-05-12');
    });

    it('want a year', async () => {
      expectInvalid(await call(ownerA, 'GET', '/closures/holiday-suggestions'), 'year');
      expectInvalid(await call(ownerA, 'GET', '/closures/holiday-suggestions?year=27'), 'year');
      expectInvalid(await call(ownerA, 'GET', '/closures/holiday-suggestions?year=x'), 'year');
    });
  });
});
