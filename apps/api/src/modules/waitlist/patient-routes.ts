import {
  appointmentActionResponseSchema,
  errorBodySchema,
  joinWaitlistBodySchema,
  waitlistEntriesSchema,
  waitlistEntryParamsSchema,
  waitlistEntrySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageLanguageOf } from '../../platform/http/message-language.js';
import { sessionOf } from '../patient-auth/authenticate.js';
import type { WaitlistService } from './waitlist-service.js';

export interface WaitlistRoutesOptions {
  service: Pick<WaitlistService, 'join' | 'list' | 'leave'>;
}

// 401 without a live session; 403 also for a missing X-XSRF-TOKEN on the writes.
const authErrors = { 401: errorBodySchema, 403: errorBodySchema };

/** The patient's waitlist (docs/booking.md "Waitlist"). */
export const waitlistRoutes: FastifyPluginAsyncZod<WaitlistRoutesOptions> = async (
  app,
  { service },
) => {
  app.post(
    '/waitlist',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['waitlist'],
        summary:
          'Asks to be told by message when a time frees up with the caregiver for the type, on dates fromDate–toDate (at most 14, from today in clinic time) and a part of the day; 201 new, 200 the same active entry again; 409 waitlist_full (3 active)',
        body: joinWaitlistBodySchema,
        response: {
          200: waitlistEntrySchema,
          201: waitlistEntrySchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { entry, created } = await service.join(
        sessionOf(request).patient,
        request.body,
        // The offers speak the language the patient joined in.
        messageLanguageOf(request.headers['accept-language']),
      );
      return reply.status(created ? 201 : 200).send(entry);
    },
  );

  app.get(
    '/waitlist',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['waitlist'],
        summary: "The patient's active waitlist entries (waiting, range not over), as they joined",
        response: { 200: waitlistEntriesSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(sessionOf(request).patient);
    },
  );

  app.delete(
    '/waitlist/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['waitlist'],
        summary:
          "Leaves the waitlist: the patient's own waiting entry; 404 waitlist_entry_not_found",
        params: waitlistEntryParamsSchema,
        response: {
          200: appointmentActionResponseSchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      await service.leave(sessionOf(request).patient, request.params.id);
      return { status: 'ok' as const };
    },
  );
};
