// The desk's patient search (docs/integration.md "Patients") on a clinic of 20,000 patients:
// `GET /api/integration/patients`
// as the front desk types (a name's first letters, a whole name, first and last name, an ID
// number's prefix or whole, a phone's prefix or whole) and as the patients page opens and pages
// (nothing typed), through the production build (apps/api/dist) on PGlite and, with
// BENCH_DATABASE_URL, on PostgreSQL. Each query RUNS times one after another (the latency one person
// sees, not a throughput); p50 and p95 in ms. The patients are written in bulk straight to the
// database before the server opens it, and the plan of a name search is printed to show which
// index serves it. Alone (after `npm run build -w @marpe/api`):
// `node --import tsx bench/patient-search.mjs`.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { withIdCheckDigit } from '../packages/shared/src/identity.ts';
import { seedDemoClinic } from '../apps/api/src/demo/seed-demo-clinic.js';
import { DEMO_CLINIC_ID } from '../apps/api/src/demo/demo-clinic.js';
import { createApiKeys } from '../apps/api/src/modules/integration/api-keys.js';
import { openDatabase } from '../apps/api/src/platform/db/client.js';
import { patients } from '../apps/api/src/platform/db/schema.js';
import { startMarpe } from './servers.mjs';

export const PATIENT_COUNT = 20_000;
const RUNS = 40;
/** The API allows a key 600 calls a minute: the runs are spread over several keys. */
const KEYS = 4;

const firstNames = [
  'נועה',
  'תמר',
  'מאיה',
  'יעל',
  'שירה',
  'אביגיל',
  'מיכל',
  'רונית',
  'אורית',
  'דנה',
  'יוסף',
  'דוד',
  'משה',
  'אברהם',
  'יעקב',
  'איתי',
  'עומר',
  'נדב',
  'אריאל',
  'רון',
  'Noa',
  'David',
  'Maya',
  'Daniel',
  'Sarah',
  'Michael',
  'Lea',
  'Adam',
  'Rachel',
  'Yosef',
];
const lastNames = [
  'כהן',
  'לוי',
  'מזרחי',
  'פרץ',
  'ביטון',
  'דהן',
  'אברהם',
  'פרידמן',
  'אזולאי',
  'מלכה',
  'חדד',
  'גבאי',
  'עמר',
  'יוסף',
  'אוחיון',
  'שפירא',
  'קליין',
  'גולדברג',
  'רוזנברג',
  'אשכנזי',
  'שושן',
  'בן דוד',
  'חזן',
  'סויסה',
  'וקנין',
  'טל',
  'ברק',
  'נחום',
  'שלום',
  'זילברמן',
  'Cohen',
  'Levi',
  'Katz',
  'Friedman',
  'Segal',
  'Weiss',
  'Stern',
  'Adler',
  'Klein',
  'Rosen',
];

/** The i-th bench patient (0-based): a name from the lists, a valid ID number, a unique mobile. */
export function benchPatient(clinicId, i) {
  const first = firstNames[i % firstNames.length];
  // Co-prime steps: every pairing of first and last name occurs.
  const last = lastNames[(i * 7 + Math.floor(i / firstNames.length)) % lastNames.length];
  return {
    clinicId,
    idNumber: withIdCheckDigit(String(30_000_000 + i * 37).padStart(8, '0')),
    firstName: first,
    lastName: last,
    phone: `05${['0', '2', '3', '4', '8'][i % 5]}${String(1_000_000 + i).padStart(7, '0')}`,
  };
}

/** Writes `count` patients in multi-row inserts of 1,000. */
export async function insertBenchPatients(db, clinicId, count = PATIENT_COUNT) {
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++)
      rows.push(benchPatient(clinicId, i));
    await db.insert(patients).values(rows);
  }
}

/** Which index the database picks for a name prefix and for the empty list's first page. */
async function plans(db) {
  const plan = async (query) => {
    const result = await db.execute(query);
    const text = (result.rows ?? result).map((row) => Object.values(row)[0]).join('\n');
    const indexes = [...text.matchAll(/on (patients_\w+)/g)].map((m) => m[1]);
    return indexes.length > 0 ? [...new Set(indexes)].join(' + ') : 'none (sequential scan)';
  };
  await db.execute(sql`ANALYZE patients`);
  return {
    name: await plan(
      sql`EXPLAIN SELECT * FROM patients WHERE clinic_id = ${DEMO_CLINIC_ID} AND (lower(first_name) LIKE lower(${'שפ%'}) OR lower(last_name) LIKE lower(${'שפ%'})) ORDER BY last_name, first_name, id LIMIT 20`,
    ),
    phone: await plan(
      sql`EXPLAIN SELECT * FROM patients WHERE clinic_id = ${DEMO_CLINIC_ID} AND (id_number LIKE ${'0527%'} OR phone LIKE ${'0527%'}) ORDER BY last_name, first_name, id LIMIT 20`,
    ),
  };
}

/** The searches timed: what the front desk types, and the list with nothing typed. */
function searches() {
  const someone = benchPatient(DEMO_CLINIC_ID, 12_345);
  return [
    { search: 'nothing typed, first page', query: { limit: '26' } },
    { search: 'nothing typed, page 400', query: { limit: '26', offset: '10000' } },
    { search: 'two letters of a name', query: { q: 'שפ', limit: '26' } },
    { search: 'a whole last name', query: { q: someone.lastName, limit: '26' } },
    { search: 'first and last name', query: { q: `${someone.firstName} ${someone.lastName}` } },
    { search: 'ID number, 4 digits', query: { q: someone.idNumber.slice(0, 4), limit: '26' } },
    { search: 'ID number, whole', query: { q: someone.idNumber } },
    {
      search: 'phone, 5 digits',
      query: { q: `${someone.phone.slice(0, 3)}-${someone.phone.slice(3, 5)}` },
    },
    { search: 'phone, whole', query: { q: someone.phone } },
  ];
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function patientSearch({ engine, postgresUrl } = { engine: 'pglite' }) {
  let keys = [];
  let plan = null;
  const marpe = await startMarpe({
    postgresUrl,
    prepare: async ({ dataDir, databaseUrl }) => {
      const database = await openDatabase({ databaseUrl, dataDir });
      try {
        await database.migrate();
        await seedDemoClinic(database.db);
        await insertBenchPatients(database.db, DEMO_CLINIC_ID);
        plan = await plans(database.db);
        const apiKeys = createApiKeys({ db: database.db, clock: Date.now });
        for (let i = 0; i < KEYS; i++) {
          keys.push((await apiKeys.create(DEMO_CLINIC_ID, `bench ${i + 1}`, 'bench')).key);
        }
      } finally {
        await database.close();
      }
    },
  });
  const rows = [];
  let call = 0;
  const get = async (query) => {
    const key = keys[call++ % keys.length];
    const started = performance.now();
    const response = await fetch(
      `${marpe.url}/api/integration/patients?${new URLSearchParams(query)}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    const body = await response.json();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`patients ${JSON.stringify(query)}: ${response.status}`);
    return { elapsed, count: body.length };
  };
  try {
    for (const { search, query } of searches()) {
      await get(query); // warm: the first call of a shape plans it
      const times = [];
      let found = 0;
      for (let i = 0; i < RUNS; i++) {
        const { elapsed, count } = await get(query);
        times.push(elapsed);
        found = count;
      }
      times.sort((a, b) => a - b);
      rows.push({
        engine,
        search,
        answers: found,
        'p50 ms': Number(percentile(times, 50).toFixed(1)),
        'p95 ms': Number(percentile(times, 95).toFixed(1)),
      });
    }
  } finally {
    await marpe.stop();
  }
  return { rows, plan: { engine, 'name prefix': plan?.name, 'phone prefix': plan?.phone } };
}

/** Both engines (PostgreSQL when BENCH_DATABASE_URL names one): the timings and the plans. */
export async function patientSearchTables() {
  const results = [await patientSearch({ engine: 'pglite' })];
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) results.push(await patientSearch({ engine: 'postgres', postgresUrl }));
  return { rows: results.flatMap((r) => r.rows), plans: results.map((r) => r.plan) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { rows, plans: chosen } = await patientSearchTables();
  console.table(rows);
  console.table(chosen);
}
