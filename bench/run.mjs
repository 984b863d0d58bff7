// `npm run bench`: figures measured side by side in one run, printed as tables. Never asserted.
// Runs under tsx so the availability engine is measured from its TypeScript source.
import os from 'node:os';
import { engineBench } from './availability-engine.ts';
import { appointmentChanges } from './appointment-changes.mjs';
import { bookingRace } from './booking-race.mjs';
import { calendarFreshness } from './calendar-freshness.mjs';
import { deskTable } from './desk.mjs';
import { firstTapTable } from './first-tap.mjs';
import { httpThroughput } from './http-throughput.mjs';
import { logDestinationTable } from './log-destination.mjs';
import { pageTable } from './pages.mjs';
import { patientSearchTables } from './patient-search.mjs';

console.log(
  `Marpe benchmarks — node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
);

console.log('\nAvailability engine (60 days of slots, 2,000 appointments on file per caregiver):');
console.table(await engineBench());

const paths = ['/api/health', '/api/clinic', '/api/clinic/1'];
// The embedded database always; a PostgreSQL server too when BENCH_DATABASE_URL names one.
const postgresUrl = process.env.BENCH_DATABASE_URL;
console.log(
  '\nAPI throughput (autocannon, 50 connections), against bare node:http answering the same JSON:',
);
const rows = await httpThroughput(paths, { engine: 'pglite' });
if (postgresUrl) rows.push(...(await httpThroughput(paths, { engine: 'postgres', postgresUrl })));
console.table(rows);

console.log(
  '\nBooking race: 100 logged-in patients POST /api/appointment for one slot at once (a new slot each round):',
);
const race = await bookingRace({ engine: 'pglite' });
if (postgresUrl) race.push(...(await bookingRace({ engine: 'postgres', postgresUrl })));
console.table(race);

console.log(
  '\nA patient books then cancels, 40 times in a row (each change writes its notice to the patient and counts toward the message caps); ms as the client sees it, the first 5 left out:',
);
console.table(await appointmentChanges());

console.log(
  "\nThe desk's patient search on 20,000 patients (GET /api/integration/patients as the front desk types; each query 40 times in a row; ms as the client sees it), and the indexes each engine's plan uses:",
);
const patientSearch = await patientSearchTables();
console.table(patientSearch.rows);
console.table(patientSearch.plans);

console.log(
  "\nCalendar freshness: an event added to a caregiver's Google Calendar (the demo's stand-in pushes as Google does) until its slot is gone:",
);
console.table(await calendarFreshness());

console.log(
  '\nPatient pages: JavaScript fetched before any act (the pages a patient came to act on fetch their app while the patient reads, ADR 033) and by the first act (brotli, as served), and Lighthouse 12.8 mobile (median of 3):',
);
console.table(await pageTable());

console.log(
  "\nThe patient's first tap on a slow phone (DevTools throttling: 562.5 ms latency, 1.47 Mbit/s down, 0.6 Mbit/s up, CPU 4×; 390×844 touch; reads 3 s, taps; from the touch to its answer painted, timed in the page; median of 3):",
);
console.table(await firstTapTable());

console.log(
  "\nThe desk (staff app): the diary's week view of a busy clinic, from the navigation to every appointment painted, Lighthouse desktop conditions (40 ms latency, 10 Mbit/s, CPU 1×; 1366×768), cold and warm, median of 3; its JavaScript:",
);
console.table(await deskTable());

console.log(
  "\nThe API's log destination against pino's own: CPU per request-log line, pino's formatting included, to a pipe, 10 lines per event-loop turn (median of 3):",
);
console.table(await logDestinationTable());
