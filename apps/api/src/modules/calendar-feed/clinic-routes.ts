import { z } from 'zod';
import {
  calendarFeedCreatedSchema,
  calendarFeedStateSchema,
  errorBodySchema,
  integrationIdParamsSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, clinicActorOf } from '../../platform/http/integration-routes.js';
import type { CalendarFeeds } from './calendar-feed-service.js';

export interface CalendarFeedClinicRoutesOptions {
  service: CalendarFeeds;
}

const tags = ['integration'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** `/api/integration/caregivers/:id/calendar-feed`: the caregiver's secret iCalendar URL. */
export const calendarFeedClinicRoutes: FastifyPluginAsyncZod<
  CalendarFeedClinicRoutesOptions
> = async (app, { service }) => {
  app.post(
    '/caregivers/:id/calendar-feed',
    {
      schema: {
        tags,
        summary:
          "Makes the caregiver's secret iCalendar feed URL (201), shown in this answer only; calling it again rotates it: the earlier URL stops working at once",
        params: integrationIdParamsSchema,
        response: { 201: calendarFeedCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const created = await service.create(clinicActorOf(request), request.params.id);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/caregivers/:id/calendar-feed',
    {
      schema: {
        tags,
        summary: 'Whether the caregiver has a live feed URL, and since when; never the URL',
        params: integrationIdParamsSchema,
        response: { 200: calendarFeedStateSchema, ...errors },
      },
    },
    async (request) => service.state(callerOf(request).clinicId, request.params.id),
  );

  app.delete(
    '/caregivers/:id/calendar-feed',
    {
      schema: {
        tags,
        summary: "Revokes the caregiver's feed URL (204): its subscribers get 404 from now on",
        params: integrationIdParamsSchema,
        response: { 204: z.null().describe('Done'), ...errors },
      },
    },
    async (request, reply) => {
      await service.revoke(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
