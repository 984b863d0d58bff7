// The API's log destination (apps/api/src/platform/http/log-destination.ts) against pino's own
// (sonic-boom) in its modes: the CPU a request-log line costs, pino's formatting included, written
// to standard output read through a pipe as a log collector would, 10 lines per event-loop turn as
// a loaded server writes them. Each case runs in a child process of its own; CPU is the child's
// (every thread: sonic-boom writes from libuv's pool), measured around the writing only. Median of 3.
// `npm run bench` prints it; `npm run bench:logs -w @marpe/bench` alone.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LINES = 200_000;
const PER_TURN = 10;
const RUNS = 3;

const cases = {
  'ours: one write per event-loop turn': 'ours',
  'pino.destination, asynchronous (pino default)': 'async',
  'pino.destination, asynchronous, minLength 4096': 'async4k',
  'pino.destination, synchronous': 'sync',
};

async function child(kind) {
  const pino = (await import('pino')).default;
  const { LineBatchingDestination } =
    await import('../apps/api/src/platform/http/log-destination.ts');
  const destination =
    kind === 'ours'
      ? new LineBatchingDestination(1)
      : pino.destination({
          dest: 1,
          sync: kind === 'sync',
          ...(kind === 'async4k' ? { minLength: 4096 } : {}),
        });
  const log = pino({ base: undefined }, destination);
  const line = { res: { statusCode: 200 }, responseTime: 1.23, route: '/api/clinic/:id' };
  const before = process.cpuUsage();
  let written = 0;
  await new Promise((done) => {
    const turn = () => {
      for (let i = 0; i < PER_TURN; i++, written++) log.info({ reqId: written, ...line }, 'done');
      if (written < LINES) setImmediate(turn);
      else done();
    };
    turn();
  });
  destination.flushSync();
  const cpu = process.cpuUsage(before);
  process.stderr.write(JSON.stringify((cpu.user + cpu.system) / LINES));
}

function run(kind) {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), kind],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proc.stdout.resume();
    let err = '';
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(Number(err)) : reject(new Error(`log bench ${kind}: ${err}`)),
    );
  });
}

/** µs of CPU per line for each destination, median of RUNS, the runs interleaved. */
export async function logDestinationTable() {
  const samples = Object.fromEntries(Object.values(cases).map((kind) => [kind, []]));
  for (let r = 0; r < RUNS; r++)
    for (const kind of Object.values(cases)) samples[kind].push(await run(kind));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ours = median(samples.ours);
  return Object.entries(cases).map(([destination, kind]) => ({
    destination,
    'CPU µs per line': Number(median(samples[kind]).toFixed(2)),
    'vs ours': `${(median(samples[kind]) / ours).toFixed(2)}×`,
  }));
}

const kind = process.argv[2];
if (kind) await child(kind);
else if (process.argv[1] === fileURLToPath(import.meta.url))
  console.table(await logDestinationTable());
