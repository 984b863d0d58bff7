import {
  availableDatesQuerySchema,
  availableDatesSchema,
  availableSlotsQuerySchema,
  availableSlotsSchema,
  errorBodySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AvailabilityService } from './availability-service.js';

export interface AvailabilityRoutesOptions {
  availability: Pick<AvailabilityService, 'availableDates' | 'availableSlots'>;
}

export const availabilityRoutes: FastifyPluginAsyncZod<AvailabilityRoutesOptions> = async (
  app,
  options,
) => {
  app.get(
    '/appointment/available-dates',
    {
      schema: {
        tags: ['availability'],
        summary:
          "Dates (YYYY-MM-DD, clinic time) with a free slot of this length, today to the caregiver's last bookable date",
        querystring: availableDatesQuerySchema,
        response: { 200: availableDatesSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => options.availability.availableDates(request.query),
  );

  app.get(
    '/appointment/available-slots',
    {
      schema: {
        tags: ['availability'],
        summary:
          'Free slots of this length starting within [startDate, endDate] (clinic wall time YYYY-MM-DD HH:mm), as ISO 8601 with the offset',
        querystring: availableSlotsQuerySchema,
        response: { 200: availableSlotsSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => options.availability.availableSlots(request.query),
  );
};
