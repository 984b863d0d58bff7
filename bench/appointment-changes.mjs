// What a patient waits for when they book and cancel, now that every change also writes its
// notice (an outbox row and a count toward the clinic's message caps, under the clinic's caps
// lock) in the same transaction: ROUNDS sequential book-then-cancel round trips by as many
// patients against the production build (apps/api/dist) on PGlite, a slot a week ahead each time,
// so the cancellation is always allowed. Reports the median and p90 of each answer. Alone (after
// `npm run build -w @marpe/api`): `node --import tsx bench/appointment-changes.mjs`.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { seedDemoClinic } from '../apps/api/src/demo/seed-demo-clinic.js';
import { DEMO_CLINIC_ID } from '../apps/api/src/demo/demo-clinic.js';
import { randomToken, sha256Hex } from '../apps/api/src/platform/crypto.js';
import { openDatabase } from '../apps/api/src/platform/db/client.js';
import { patients, patientSessions } from '../apps/api/src/platform/db/schema.js';
import { startMarpe } from './servers.mjs';

const ROUNDS = 40;
const HOUR = 3_600_000;

async function seedPatients({ dataDir, databaseUrl }) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.migrate();
    await seedDemoClinic(database.db);
    const rows = Array.from({ length: ROUNDS }, (_, i) => {
      const digits = String(i + 1).padStart(8, '0');
      return {
        clinicId: DEMO_CLINIC_ID,
        idNumber: `8${digits}`,
        firstName: 'מטופל',
        lastName: `שינוי ${i + 1}`,
        phone: `05${digits}`,
      };
    });
    const inserted = await database.db.insert(patients).values(rows).returning({ id: patients.id });
    const now = Date.now();
    const tokens = inserted.map(() => randomToken());
    await database.db.insert(patientSessions).values(
      inserted.map((patient, i) => ({
        tokenHash: sha256Hex(tokens[i]),
        patientId: patient.id,
        createdAt: new Date(now),
        lastSeenAt: new Date(now),
        expiresAt: new Date(now + 12 * HOUR),
      })),
    );
    return tokens;
  } finally {
    await database.close();
  }
}

async function xsrfOf(url) {
  const response = await fetch(`${url}/api/health`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
  const token = cookie?.split(';')[0]?.slice('XSRF-TOKEN='.length);
  if (!token) throw new Error('no XSRF-TOKEN cookie on /api/health');
  return { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token };
}

/** A free slot of the demo clinic's first caregiver on the first open date a week or more ahead. */
async function slotAWeekAhead(url) {
  const data = await (await fetch(`${url}/api/clinic/${DEMO_CLINIC_ID}`)).json();
  const caregiver = data.caregivers.find((c) => c.first_available_slot);
  const type = data.appointmentTypes
    .filter((t) => caregiver.default_appointment_types.includes(t.id))
    .sort((a, b) => a.duration_minutes - b.duration_minutes)[0];
  const query = `clinicId=${DEMO_CLINIC_ID}&caregiverId=${caregiver.id}&duration=${type.duration_minutes}`;
  const dates = await (await fetch(`${url}/api/appointment/available-dates?${query}`)).json();
  const weekAhead = new Date(Date.now() + 7 * 24 * HOUR).toISOString().slice(0, 10);
  const date = dates.find((d) => d >= weekAhead) ?? dates.at(-1);
  const slots = await (
    await fetch(
      `${url}/api/appointment/available-slots?${query}&startDate=${date} 00:00&endDate=${date} 23:59`,
    )
  ).json();
  const start = slots[0].start;
  return {
    clinicId: DEMO_CLINIC_ID,
    caregiverId: caregiver.id,
    appointmentTypeId: type.id,
    startDate: start,
    endDate: new Date(Date.parse(start) + type.duration_minutes * 60_000).toISOString(),
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export async function appointmentChanges() {
  let tokens = [];
  const marpe = await startMarpe({
    prepare: async (where) => {
      tokens = await seedPatients(where);
    },
  });
  const book = [];
  const cancel = [];
  try {
    const xsrf = await xsrfOf(marpe.url);
    const body = JSON.stringify(await slotAWeekAhead(marpe.url));
    for (const token of tokens) {
      const headers = {
        ...xsrf,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      };
      let started = performance.now();
      const booked = await fetch(`${marpe.url}/api/appointment`, { method: 'POST', headers, body });
      const { id } = await booked.json();
      book.push(performance.now() - started);
      if (booked.status !== 201) throw new Error(`booking answered ${booked.status}`);
      started = performance.now();
      const cancelled = await fetch(`${marpe.url}/api/appointment/patient-appointments`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ appointmentId: id }),
      });
      await cancelled.arrayBuffer();
      cancel.push(performance.now() - started);
      if (cancelled.status !== 200) throw new Error(`cancellation answered ${cancelled.status}`);
    }
  } finally {
    await marpe.stop();
  }
  // The first few warm the server up: left out.
  const warm = (values) => values.slice(5);
  return [
    {
      answer: 'book',
      'median ms': percentile(warm(book), 50),
      'p90 ms': percentile(warm(book), 90),
    },
    {
      answer: 'cancel',
      'median ms': percentile(warm(cancel), 50),
      'p90 ms': percentile(warm(cancel), 90),
    },
  ].map((row) => ({
    ...row,
    'median ms': Math.round(row['median ms'] * 10) / 10,
    'p90 ms': Math.round(row['p90 ms'] * 10) / 10,
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await appointmentChanges());
}
