import {
  errorBodySchema,
  integrationIdParamsSchema,
  integrationWaitlistEntriesSchema,
  integrationWaitlistSchema,
  WAITLIST_ENTRIES_MAX_LIMIT,
  waitlistEntriesQuerySchema,
  waitlistFilterQuerySchema,
  waitlistOfferBodySchema,
  waitlistOfferSchema,
  waitlistSlotsQuerySchema,
  waitlistSlotsSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import type { WaitlistService } from './waitlist-service.js';

export interface WaitlistIntegrationRoutesOptions {
  service: Pick<WaitlistService, 'clinicSummary' | 'clinicEntries' | 'clinicSlots' | 'offerByHand'>;
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** `/api/integration/waitlist`: the key's clinic only. */
export const waitlistIntegrationRoutes: FastifyPluginAsyncZod<
  WaitlistIntegrationRoutesOptions
> = async (app, { service }) => {
  app.addHook('preValidation', refuseNulCharacters);

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
        summary: `Who waits: the active entries (waiting, range not over) with their patient, caregiver, type, dates and part of the day, in the order they joined. date (YYYY-MM-DD, clinic time) keeps the entries whose dates include it, caregiver_id that caregiver’s (404 for another clinic’s), patient_id_number that patient’s. Paged: at most limit entries (default and most ${WAITLIST_ENTRIES_MAX_LIMIT}); the next page is after=<the last entry’s id> (400 naming after for an id not the clinic’s)`,
        querystring: waitlistEntriesQuerySchema,
        response: { 200: integrationWaitlistEntriesSchema, ...errors },
      },
    },
    async (request, reply) => {
      // Patients' names, phones and ID numbers: no cache on the way keeps them.
      reply.header('cache-control', 'no-store');
      return service.clinicEntries(callerOf(request).clinicId, request.query);
    },
  );

  app.get(
    '/waitlist/entries/:id/slots',
    {
      schema: {
        tags: ['integration'],
        summary:
          'The free times to offer a waiting entry: its type’s slots on its dates (cut to the booking window) with its caregiver, or caregiver_id’s (who must offer the type: 400 naming caregiver_id), as the booking page and the automatic offers find them; each says whether it starts in the part of the day asked for and whether this entry was offered it already. 404 waitlist_entry_not_found for another clinic’s entry; 409 conflict (details.reason entry_closed) once it is booked, left or over',
        params: integrationIdParamsSchema,
        querystring: waitlistSlotsQuerySchema,
        response: { 200: waitlistSlotsSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.clinicSlots(callerOf(request).clinicId, request.params.id, request.query);
    },
  );

  app.post(
    '/waitlist/entries/:id/offer',
    {
      schema: {
        tags: ['integration'],
        summary:
          'Offers a waiting patient a free time by hand: the automatic offers’ message (their language; the booking page preselected on the time; first to book gets it), counted by the clinic’s message caps (429 too_many_requests) and kept out of its quiet hours and Shabbat as the automatic offers are: then it goes when they end, if the time is still free (quiet_until). start_date is a slot of …/slots (ISO 8601 with an offset); caregiver_id defaults to the entry’s. Reserves nothing. 400 naming start_date (past, not a slot the caregiver offers, or quiet hours last past it) or caregiver_id (does not offer the type); 404 for another clinic’s entry or caregiver; 409 slot_taken when the time is not free, conflict when the entry is closed (details.reason entry_closed) or was offered this time already (already_offered). Audited as waitlist.offer',
        params: integrationIdParamsSchema,
        body: waitlistOfferBodySchema,
        response: {
          201: waitlistOfferSchema,
          ...errors,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const offer = await service.offerByHand(
        clinicActorOf(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).header('cache-control', 'no-store').send(offer);
    },
  );
};
