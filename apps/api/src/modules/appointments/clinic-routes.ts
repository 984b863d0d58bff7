import {
  errorBodySchema,
  integrationAppointmentSchema,
  integrationAppointmentsQuerySchema,
  integrationAppointmentsSchema,
  integrationIdParamsSchema,
  MAX_APPOINTMENT_RANGE_DAYS,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, refuseNulCharacters, writerOf } from '../integration/integration-auth.js';
import type { ClinicAppointments } from './clinic-appointments.js';

export interface ClinicAppointmentsRoutesOptions {
  service: ClinicAppointments;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...readErrors, 409: errorBodySchema };

/**
 * `/api/integration/appointments`: the key's clinic's appointments only; another clinic's ids
 * answer 404 like unknown ones.
 */
export const clinicAppointmentsRoutes: FastifyPluginAsyncZod<
  ClinicAppointmentsRoutesOptions
> = async (app, { service }) => {
  const clinicIdOf = (request: Parameters<typeof callerOf>[0]) => callerOf(request).clinicId;

  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/appointments',
    {
      schema: {
        tags,
        summary: `Appointments starting from \`from\` to \`to\` (YYYY-MM-DD, clinic time, both included, at most ${MAX_APPOINTMENT_RANGE_DAYS} days), booked and cancelled unless \`status\` says, by start`,
        querystring: integrationAppointmentsQuerySchema,
        response: { 200: integrationAppointmentsSchema, ...readErrors },
      },
    },
    async (request, reply) => {
      // Patients' names, phones and ID numbers: no cache on the way keeps them.
      reply.header('cache-control', 'no-store');
      return service.listAppointments(clinicIdOf(request), request.query);
    },
  );

  app.post(
    '/appointments/:id/cancel',
    {
      schema: {
        tags,
        summary:
          "Cancels a booked appointment on the clinic's behalf, whatever the patient's online cancellation notice; the slot is free again. 409 not_cancellable when already cancelled",
        params: integrationIdParamsSchema,
        response: { 200: integrationAppointmentSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.cancelAppointment(writerOf(request), request.params.id);
    },
  );
};
