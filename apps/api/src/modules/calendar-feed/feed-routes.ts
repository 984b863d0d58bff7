import { z } from 'zod';
import { errorBodySchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { linkRouteLimit } from '../../platform/http/private-answer.js';
import type { CalendarFeeds } from './calendar-feed-service.js';

export interface CalendarFeedRoutesOptions {
  service: CalendarFeeds;
}

/**
 * `GET /api/calendar-feed/:token.ics`: no login, the URL's token is the access. Calendar apps poll
 * it; the answer holds patients' names, so no cache on the way keeps it.
 */
export const calendarFeedRoutes: FastifyPluginAsyncZod<CalendarFeedRoutesOptions> = async (
  app,
  { service },
) => {
  app.get(
    '/calendar-feed/:token.ics',
    {
      onRequest: (_request, reply, done) => {
        reply.header('cache-control', 'private, no-store');
        reply.header('referrer-policy', 'no-referrer');
        done();
      },
      config: { rateLimit: linkRouteLimit },
      schema: {
        tags: ['calendar-feed'],
        summary:
          "A caregiver's appointments as an iCalendar feed (RFC 5545, text/calendar), from a week ago on; 404 for an unknown, rotated or revoked URL",
        params: z.object({ token: z.string().max(200) }),
        response: {
          200: z.string().describe('text/calendar'),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const body = await service.render(request.params.token);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="marpe.ics"')
        .send(body);
    },
  );
};
