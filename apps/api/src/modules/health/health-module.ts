import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../platform/db/client.js';
import { healthRoutes } from './health-routes.js';

/** `GET /api/health`: liveness and database reachability. */
export async function registerHealth(
  app: FastifyInstance,
  deps: { database: Pick<DatabaseHandle, 'ping'> },
): Promise<void> {
  await app.register(healthRoutes, { prefix: '/api', database: deps.database });
}
