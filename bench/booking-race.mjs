// The booking race: 100 logged-in patients ask for the same slot at the same moment, against the
// production build (apps/api/dist) on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL. Reports
// the time until every request is answered and the count of each status: one 201 and 99 × 409
// are expected, never a 5xx. Alone (after `npm run build -w @marpe/api`):
// `node --import tsx bench/booking-race.mjs`. Runs under tsx: it writes the patients with the
// API's own schema and demo seed, from their TypeScript source.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { seedDemoClinic } from '../apps/api/src/demo/seed-demo-clinic.js';
import { DEMO_CLINIC_ID } from '../apps/api/src/demo/demo-clinic.js';
import { randomToken, sha256Hex } from '../apps/api/src/platform/crypto.js';
import { openDatabase } from '../apps/api/src/platform/db/client.js';
import { patients, patientSessions } from '../apps/api/src/platform/db/schema.js';
import { startMarpe } from './servers.mjs';

const RACERS = 100;
const ROUNDS = 3;
const HOUR = 3_600_000;

/**
 * Writes the demo clinic and RACERS × ROUNDS patients of it, each with a live session, straight
 * to the database before the server opens it (logging them in by SMS code would meet the send
 * limits); resolves with their bearer tokens.
 */
async function seedRacers({ dataDir, databaseUrl }) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.migrate();
    await seedDemoClinic(database.db);
    const rows = Array.from({ length: RACERS * ROUNDS }, (_, i) => {
      const digits = String(i + 1).padStart(8, '0');
      return {
        clinicId: DEMO_CLINIC_ID,
        idNumber: `9${digits}`,
        firstName: 'מטופל',
        lastName: `מרוץ ${i + 1}`,
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

/** The anti-forgery pair a browser would send: any valid cookie with its header. */
async function xsrfOf(url) {
  const response = await fetch(`${url}/api/health`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
  const token = cookie?.split(';')[0]?.slice('XSRF-TOKEN='.length);
  if (!token) throw new Error('no XSRF-TOKEN cookie on /api/health');
  return { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token };
}

/** The demo clinic's earliest free slot (first caregiver that has one) as a booking body. */
async function firstFreeSlot(url) {
  const data = await (await fetch(`${url}/api/clinic/${DEMO_CLINIC_ID}`)).json();
  const caregiver = data.caregivers.find((c) => c.first_available_slot);
  if (!caregiver) throw new Error('the demo clinic has no free slot');
  // first_available_slot is for the caregiver's shortest type.
  const type = data.appointmentTypes
    .filter((t) => caregiver.default_appointment_types.includes(t.id))
    .sort((a, b) => a.duration_minutes - b.duration_minutes)[0];
  const start = caregiver.first_available_slot.start;
  return {
    clinicId: DEMO_CLINIC_ID,
    caregiverId: caregiver.id,
    appointmentTypeId: type.id,
    startDate: start,
    endDate: new Date(Date.parse(start) + type.duration_minutes * 60_000).toISOString(),
  };
}

export async function bookingRace({ engine, postgresUrl } = { engine: 'pglite' }) {
  let tokens = [];
  const marpe = await startMarpe({
    postgresUrl,
    prepare: async (where) => {
      tokens = await seedRacers(where);
    },
  });
  const rows = [];
  try {
    const xsrf = await xsrfOf(marpe.url);
    for (let round = 0; round < ROUNDS; round++) {
      const body = JSON.stringify(await firstFreeSlot(marpe.url));
      const racers = tokens.slice(round * RACERS, (round + 1) * RACERS);
      const started = performance.now();
      const statuses = await Promise.all(
        racers.map(async (token) => {
          try {
            const response = await fetch(`${marpe.url}/api/appointment`, {
              method: 'POST',
              headers: {
                ...xsrf,
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
              },
              body,
            });
            await response.arrayBuffer();
            return String(response.status);
          } catch {
            return 'network error';
          }
        }),
      );
      const elapsed = performance.now() - started;
      const counts = {};
      for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
      const others = Object.entries(counts)
        .filter(([status]) => status !== '201' && status !== '409')
        .map(([status, count]) => `${count} × ${status}`);
      rows.push({
        engine,
        round: round + 1,
        requests: RACERS,
        'ms until all answered': Math.round(elapsed),
        'status 201': counts['201'] ?? 0,
        'status 409': counts['409'] ?? 0,
        'other answers': others.join(', ') || 0,
      });
    }
  } finally {
    await marpe.stop();
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await bookingRace({ engine: 'pglite' });
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) rows.push(...(await bookingRace({ engine: 'postgres', postgresUrl })));
  console.table(rows);
}
