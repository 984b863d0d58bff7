import autocannon from 'autocannon';
import { startBare, startMarpe } from './servers.mjs';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 2;

function load(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

// No route answers it: the JSON 404 of the not-found handler, with every hook, header, cookie
// and log line of a real answer but no database, so its row is the framework's own cost.
const NO_DATABASE_PATH = '/api/nope';

function unexpectedAnswers(result, status) {
  return Object.entries(result.statusCodeStats)
    .filter(([code]) => Number(code) !== status)
    .reduce((sum, [, stats]) => sum + stats.count, 0);
}

/**
 * Each Marpe path, after a database-less one, against a bare node:http server answering the
 * very same bytes, alternating rounds so both see the same machine noise.
 */
export async function httpThroughput(paths, { engine, postgresUrl } = { engine: 'pglite' }) {
  const marpe = await startMarpe({ postgresUrl });
  const rows = [];
  try {
    for (const path of [NO_DATABASE_PATH, ...paths]) {
      const status = path === NO_DATABASE_PATH ? 404 : 200;
      const sample = await fetch(marpe.url + path);
      if (sample.status !== status) throw new Error(`${path} answered ${sample.status}`);
      const bare = await startBare(await sample.text());
      const totals = { marpe: 0, bare: 0, errors: 0 };
      try {
        await load(bare.url); // warm-up, not counted
        await load(marpe.url + path);
        for (let round = 0; round < ROUNDS; round++) {
          const b = await load(bare.url);
          const m = await load(marpe.url + path);
          totals.bare += b.requests.average / ROUNDS;
          totals.marpe += m.requests.average / ROUNDS;
          totals.errors += m.errors + unexpectedAnswers(m, status);
        }
      } finally {
        await bare.stop();
      }
      rows.push({
        engine,
        path: path === NO_DATABASE_PATH ? `${path} (404, no database)` : path,
        'marpe req/s': Math.round(totals.marpe),
        'bare node:http req/s': Math.round(totals.bare),
        'marpe / bare': (totals.marpe / totals.bare).toFixed(2),
        'marpe errors': totals.errors,
      });
    }
  } finally {
    await marpe.stop();
  }
  return rows;
}
