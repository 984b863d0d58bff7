// `npm run bench`: figures measured side by side in one run, printed as tables. Never asserted.
import os from 'node:os';
import { bundleSizes } from './bundle-size.mjs';
import { httpThroughput } from './http-throughput.mjs';

console.log(
  `Marpe benchmarks — node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
);

const paths = ['/api/health', '/api/clinic'];
// The embedded database always; a PostgreSQL server too when BENCH_DATABASE_URL names one.
const postgresUrl = process.env.BENCH_DATABASE_URL;
console.log(
  '\nAPI throughput (autocannon, 50 connections), against bare node:http answering the same JSON:',
);
const rows = await httpThroughput(paths, { engine: 'pglite' });
if (postgresUrl) rows.push(...(await httpThroughput(paths, { engine: 'postgres', postgresUrl })));
console.table(rows);

console.log('\nJavaScript fetched on the first load of each route (compressed as served):');
console.table(
  await bundleSizes(['/', '/privacy', '/terms', '/accessibility', '/completed', '/expired']),
);
