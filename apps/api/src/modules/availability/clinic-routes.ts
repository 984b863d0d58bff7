import {
  BUSY_TIME_EXTERNAL_ID_MAX_LENGTH,
  BUSY_TIME_LABEL_MAX_LENGTH,
  busyTimesBodySchema,
  busyTimesListSchema,
  busyTimesQuerySchema,
  busyTimesResultSchema,
  clinicBusyTimesQuerySchema,
  clinicBusyTimesSchema,
  errorBodySchema,
  integrationIdParamsSchema,
  MAX_BUSY_TIME_DAYS,
  MAX_BUSY_TIMES_PER_CALL,
  MAX_BUSY_TIMES_WINDOW_DAYS,
  MAX_CLINIC_BUSY_TIMES_DAYS,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import type { BusyTimes } from './busy-times.js';

export interface BusyTimesRoutesOptions {
  service: BusyTimes;
}

const tags = ['integration'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** 5,000 items with the longest ids and labels fit; the default 1 MiB would not. */
const BUSY_TIMES_BODY_LIMIT = 4 * 1024 * 1024;

/** `/api/integration/caregivers/:id/busy-times`: the clinic's own diary, a window at a time. */
export const busyTimesRoutes: FastifyPluginAsyncZod<BusyTimesRoutesOptions> = async (
  app,
  { service },
) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.put(
    '/caregivers/:id/busy-times',
    {
      bodyLimit: BUSY_TIMES_BODY_LIMIT,
      schema: {
        tags,
        summary: `Replaces the caregiver's busy times overlapping [from, to) by \`items\` in one transaction (items not sent are removed; the rest added or updated by external_id; the same call twice changes nothing). Busy times block the slots they overlap and bookings over them (409 slot_taken). Limits: the window at most ${MAX_BUSY_TIMES_WINDOW_DAYS} days, at most ${MAX_BUSY_TIMES_PER_CALL} items a call, each overlapping the window and lasting at most ${MAX_BUSY_TIME_DAYS} days, external_id 1–${BUSY_TIME_EXTERNAL_ID_MAX_LENGTH} characters and unique in the call, label at most ${BUSY_TIME_LABEL_MAX_LENGTH}. 400 names a bad field`,
        params: integrationIdParamsSchema,
        body: busyTimesBodySchema,
        response: { 200: busyTimesResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.replace(clinicActorOf(request), request.params.id, request.body);
    },
  );

  app.get(
    '/caregivers/:id/busy-times',
    {
      schema: {
        tags,
        summary: `The caregiver's stored busy times overlapping [from, to) (ISO 8601 with an offset, at most ${MAX_BUSY_TIMES_WINDOW_DAYS} days), by start`,
        params: integrationIdParamsSchema,
        querystring: busyTimesQuerySchema,
        response: { 200: busyTimesListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(callerOf(request).clinicId, request.params.id, request.query);
    },
  );

  app.get(
    '/busy-times',
    {
      schema: {
        tags,
        summary: `Every busy time of the clinic's caregivers (or of caregiver_id's) overlapping [from, to) (ISO 8601 with an offset, at most ${MAX_CLINIC_BUSY_TIMES_DAYS} days), from both sources, by start: \`source: "api"\` the ones pushed with PUT /caregivers/:id/busy-times (with their label), \`source: "calendar"\` the busy events of the caregivers' synced calendars (label null: Marpe keeps no titles). Marpe's own appointments are not busy times (GET /appointments). 404 caregiver_not_found for another clinic's caregiver`,
        querystring: clinicBusyTimesQuerySchema,
        response: { 200: clinicBusyTimesSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listForClinic(callerOf(request).clinicId, request.query);
    },
  );
};
