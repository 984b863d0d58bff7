import { errorBodySchema, healthSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors.js';

/** Resolves with why the server should get no traffic, or null; rejects when the database fails. */
export type Readiness = () => Promise<string | null>;

export interface HealthRoutesOptions {
  readiness: Readiness;
}

const ok = { status: 'ok' as const };

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, options) => {
  const ready = async (request: { log: { warn(details: object, message: string): void } }) => {
    let problem: string | null;
    try {
      problem = await options.readiness();
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database unreachable');
      problem = 'The database is not reachable';
    }
    if (problem) throw new AppError('service_unavailable', 503, problem);
    return ok;
  };
  const readySchema = {
    tags: ['health'],
    response: { 200: healthSchema, 503: errorBodySchema },
  };

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (no database call); for restarting a hung process',
        response: { 200: healthSchema },
      },
    },
    async () => ok,
  );
  app.get(
    '/health/ready',
    {
      schema: {
        ...readySchema,
        summary:
          'Readiness: the database answers, the migrations are applied and the server is not shutting down (503 otherwise)',
      },
    },
    ready,
  );
  app.get(
    '/health',
    { schema: { ...readySchema, summary: 'The same as /api/health/ready' } },
    ready,
  );
};
