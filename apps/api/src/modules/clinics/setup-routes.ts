import { z } from 'zod';
import {
  closureSchema,
  closuresQuerySchema,
  closuresSchema,
  createClosureBodySchema,
  errorBodySchema,
  holidaySuggestionsQuerySchema,
  holidaySuggestionsSchema,
  integrationIdParamsSchema,
  markSetupStepBodySchema,
  setupChecklistSchema,
  setupStepParamsSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import { holidaySuggestions } from './holidays.js';
import type { SetupChecklistService } from './setup-checklist.js';

export interface SetupRoutesOptions {
  checklist: SetupChecklistService;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...readErrors, 403: errorBodySchema, 409: errorBodySchema };

/**
 * `/api/integration/setup` (the desk's set-up checklist) and `/api/integration/closures` (dates
 * the whole clinic is closed): the caller's clinic only; another clinic's ids answer 404.
 */
export const setupRoutes: FastifyPluginAsyncZod<SetupRoutesOptions> = async (
  app,
  { checklist },
) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/setup',
    {
      schema: {
        tags,
        summary:
          "The set-up checklist: each step (profile, hours, closures, caregivers, types, rules, reminders, channel, terminal) with whether an owner marked it done and whether it is complete (read from the clinic's data for profile, hours, caregivers and types; the mark for the rest); whether the clinic is ready for patients (profile, caregivers and types complete) and its page's path",
        response: { 200: setupChecklistSchema, ...readErrors },
      },
    },
    async (request) => checklist.getChecklist(callerOf(request).clinicId),
  );

  app.put(
    '/setup/steps/:step',
    {
      schema: {
        tags,
        summary: 'Marks a set-up step done ({ done: true }) or not done; answers the checklist',
        params: setupStepParamsSchema,
        body: markSetupStepBodySchema,
        response: { 200: setupChecklistSchema, ...writeErrors },
      },
    },
    async (request) =>
      checklist.markStep(clinicActorOf(request), request.params.step, request.body.done),
  );

  app.get(
    '/closures',
    {
      schema: {
        tags,
        summary:
          'Dates the whole clinic is closed, from `from` (default today, clinic time) to `to` (default no end), by date, each with the appointments still booked on it',
        querystring: closuresQuerySchema,
        response: { 200: closuresSchema, ...readErrors },
      },
    },
    async (request) => checklist.listClosures(callerOf(request).clinicId, request.query),
  );

  app.post(
    '/closures',
    {
      schema: {
        tags,
        summary:
          'Closes the clinic on a date, today or later (201): no caregiver is offered a time on it (booking page, clinic bookings without outside_working_hours, waitlist offers); appointments booked on it stay. 400 for a past date, 409 when the date is already closed',
        body: createClosureBodySchema,
        response: { 201: closureSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const closure = await checklist.createClosure(clinicActorOf(request), request.body);
      return reply.status(201).send(closure);
    },
  );

  app.get(
    '/closures/holiday-suggestions',
    {
      schema: {
        tags,
        summary:
          "The year's holidays a clinic in Israel usually closes on, by date, with Hebrew and English names: Rosh Hashana (two days), Yom Kippur, Sukkot, Shmini Atzeret, Pesach (first and seventh days), Independence Day, Shavuot",
        querystring: holidaySuggestionsQuerySchema,
        response: { 200: holidaySuggestionsSchema, ...readErrors },
      },
    },
    async (request) => holidaySuggestions(request.query.year),
  );

  app.delete(
    '/closures/:id',
    {
      schema: {
        tags,
        summary: 'Opens the date again (204); 404 when no such closure is the clinic’s',
        params: integrationIdParamsSchema,
        response: { 204: z.null().describe('Done'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await checklist.deleteClosure(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
