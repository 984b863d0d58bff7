// `npm run bench`: figures measured side by side in one run, printed as tables. Never asserted.
import os from 'node:os';
import { bundleSizes } from './bundle-size.mjs';
import { httpThroughput } from './http-throughput.mjs';

console.log(
  `Marpe benchmarks — node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
);

console.log(
  '\nAPI throughput (autocannon, 50 connections), against bare node:http answering the same JSON:',
);
console.table(await httpThroughput(['/api/health', '/api/clinic']));

console.log('\nJavaScript fetched on the first load of each route (compressed as served):');
console.table(
  await bundleSizes(['/', '/privacy', '/terms', '/accessibility', '/completed', '/expired']),
);
