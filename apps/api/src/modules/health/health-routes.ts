import { errorBodySchema, healthSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';

export interface HealthRoutesOptions {
  database: Pick<DatabaseHandle, 'ping'>;
}

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, options) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: healthSchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      try {
        await options.database.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        throw new AppError('service_unavailable', 503, 'The database is not reachable');
      }
      return { status: 'ok' as const };
    },
  );
};
