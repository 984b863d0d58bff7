import { errorBodySchema, integrationWaitlistSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../integration/integration-auth.js';
import type { WaitlistService } from './waitlist-service.js';

export interface WaitlistIntegrationRoutesOptions {
  service: Pick<WaitlistService, 'clinicSummary'>;
}

/** `/api/integration/waitlist`: the key's clinic only. */
export const waitlistIntegrationRoutes: FastifyPluginAsyncZod<
  WaitlistIntegrationRoutesOptions
> = async (app, { service }) => {
  app.get(
    '/waitlist',
    {
      schema: {
        tags: ['integration'],
        summary:
          'Waiting patients per caregiver: active entries (waiting, range not over) and when the longest-waiting one joined; caregivers without any are left out',
        response: { 200: integrationWaitlistSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => service.clinicSummary(callerOf(request).clinicId),
  );
};
