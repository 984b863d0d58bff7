import type { ClinicData } from '@marpe/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { demoPatients, DEMO_CLINIC_ID } from '../src/demo/demo-clinic.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { withIdCheckDigit } from '@marpe/shared';
import { appointments, patients } from '../src/platform/db/schema.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';
import { bearer, insertSessions } from './sessions.js';

// A Sunday morning in Jerusalem.
const NOW = Date.parse('2027-03-21T09:00:00+02:00');

describe.each(engines)('the demo clinic as the README tells it (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle, { clock: () => NOW });
    await app.ready();
  });
  beforeEach(async () => {
    await database.current.reset();
    await seedDemoClinic(database.current.handle.db, { now: NOW });
  });
  afterAll(async () => {
    await app.close();
  });

  it('each demo patient holds one upcoming appointment, the rest of their history past', async () => {
    const db = database.current.handle.db;
    const rows = await db.select().from(appointments);
    const upcoming = new Map<number, number>();
    for (const row of rows.filter((r) => r.startAt.getTime() > NOW)) {
      upcoming.set(row.patientId, (upcoming.get(row.patientId) ?? 0) + 1);
    }
    expect([...upcoming.values()].every((count) => count === 1)).toBe(true);
    expect(rows.some((r) => r.startAt.getTime() < NOW)).toBe(true);
  });

  it('the demo patient דנה לוי (ID 039845128) books a free time', async () => {
    const db = database.current.handle.db;
    const dana = demoPatients[0];
    expect(withIdCheckDigit(dana.idNumberBase)).toBe('039845128');
    const [patient] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.idNumber, '039845128'));
    if (!patient) throw new Error('no demo patient');
    const [token = ''] = await insertSessions(db, [patient.id], NOW);
    const held = await db
      .select({ localDate: appointments.localDate })
      .from(appointments)
      .where(eq(appointments.patientId, patient.id));

    const clinic = (
      await app.inject({ method: 'GET', url: `/api/clinic/${DEMO_CLINIC_ID}` })
    ).json<ClinicData>();
    const caregiver = clinic.caregivers.find((c) => c.first_available_slot !== null);
    const typeId = caregiver?.default_appointment_types[0];
    const type = clinic.appointmentTypes.find((t) => t.id === typeId);
    if (!caregiver || !type) throw new Error('no bookable caregiver in the demo');
    const slots = await app.inject({
      method: 'GET',
      url: '/api/appointment/available-slots',
      query: {
        clinicId: String(DEMO_CLINIC_ID),
        caregiverId: String(caregiver.id),
        duration: String(type.duration_minutes),
        startDate: '2027-03-21 00:00',
        endDate: '2027-04-04 00:00',
      },
    });
    // A date she has nothing on (one appointment per date).
    const free = slots
      .json<{ start: string; end: string }[]>()
      .find((s) => !held.some((h) => h.localDate === s.start.slice(0, 10)));
    if (!free) throw new Error('no free time in the demo');

    const xsrf = await xsrfPair(app);
    const booked = await app.inject({
      method: 'POST',
      url: '/api/appointment',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...bearer(token) },
      payload: {
        clinicId: DEMO_CLINIC_ID,
        caregiverId: caregiver.id,
        appointmentTypeId: type.id,
        startDate: free.start,
        endDate: free.end,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
  });
});
