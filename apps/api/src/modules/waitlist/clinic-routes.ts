import {
  errorBodySchema,
  integrationWaitlistEntriesSchema,
  integrationWaitlistSchema,
  waitlistFilterQuerySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../integration/integration-auth.js';
import type { WaitlistService } from './waitlist-service.js';

export interface WaitlistIntegrationRoutesOptions {
  service: Pick<WaitlistService, 'clinicSummary' | 'clinicEntries'>;
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

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
          'Waiting patients per caregiver: active entries (waiting, range not over) and when the longest-waiting one joined; caregivers without any are left out. date (YYYY-MM-DD, clinic time) counts only entries whose dates include it, caregiver_id only that caregiver’s (404 for another clinic’s)',
        querystring: waitlistFilterQuerySchema,
        response: { 200: integrationWaitlistSchema, ...errors },
      },
    },
    async (request) => service.clinicSummary(callerOf(request).clinicId, request.query),
  );

  app.get(
    '/waitlist/entries',
    {
      schema: {
        tags: ['integration'],
        summary:
          'Who waits: the active entries (waiting, range not over) with their patient, caregiver, type, dates and part of the day, in the order they joined (at most 500). date (YYYY-MM-DD, clinic time) keeps the entries whose dates include it, caregiver_id that caregiver’s (404 for another clinic’s)',
        querystring: waitlistFilterQuerySchema,
        response: { 200: integrationWaitlistEntriesSchema, ...errors },
      },
    },
    async (request, reply) => {
      // Patients' names, phones and ID numbers: no cache on the way keeps them.
      reply.header('cache-control', 'no-store');
      return service.clinicEntries(callerOf(request).clinicId, request.query);
    },
  );
};
