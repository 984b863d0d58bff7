import { inject } from 'vitest';

/**
 * The suite's production server for this worker (global-setup.ts starts one per worker): its
 * address and data directory. Vitest numbers its workers 1..maxWorkers (VITEST_POOL_ID), and a
 * worker runs one file at a time, so two files never share a server at once.
 */
export function suiteServer(): { baseUrl: string; dataDir: string } {
  const servers = inject('suiteServers');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[worker - 1];
  // No wrapping round: two files on one server would see each other's bookings and events.
  if (!server) throw new Error(`no suite server for worker ${worker} of ${servers.length}`);
  return server;
}
