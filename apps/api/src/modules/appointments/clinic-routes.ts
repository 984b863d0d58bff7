import {
  clinicBookingBodySchema,
  clinicCancelBodySchema,
  clinicRescheduleBodySchema,
  CANCEL_REASON_MAX_LENGTH,
  errorBodySchema,
  integrationAppointmentSchema,
  integrationAppointmentsQuerySchema,
  integrationAppointmentsSchema,
  integrationIdParamsSchema,
  MAX_APPOINTMENT_RANGE_DAYS,
  MAX_PATIENT_APPOINTMENTS_LIMIT,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import {
  DEFAULT_PATIENT_APPOINTMENTS_LIMIT,
  type ClinicAppointments,
} from './clinic-appointments.js';

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
        summary: `Appointments starting from \`from\` to \`to\` (YYYY-MM-DD, clinic time, both included, at most ${MAX_APPOINTMENT_RANGE_DAYS} days), booked and cancelled unless \`status\` says, by start (\`order\`: asc or desc). With \`patient_id_number\`, that patient's only (none for an ID number the clinic does not know): \`from\` and \`to\` may be left out and the range is unbounded; at most \`limit\` (default ${DEFAULT_PATIENT_APPOINTMENTS_LIMIT}, at most ${MAX_PATIENT_APPOINTMENTS_LIMIT})`,
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
    '/appointments',
    {
      schema: {
        tags,
        summary:
          "Books a patient with a caregiver (201): the patient is found by ID number (the phone must be the one on file; 400 patient.phone otherwise) or signed up, as the patients' own sign-up would (409 too_many_identities when the phone already signs in the most ID numbers one phone may here). start_date must be a slot the booking page offers, or any future time with outside_working_hours: true; never over another appointment nor one of the patient's on the same date (409 slot_taken, existingAppointment), nor over a busy time unless ignore_busy_times: true (409 slot_taken). Reminders are planned, send_sms: true sends the details (else the patient is told of the booking when settings.change_notices.booked is on; send_sms: false tells nothing), and appointment.booked is raised with source 'clinic'",
        body: clinicBookingBodySchema,
        response: { 201: integrationAppointmentSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const appointment = await service.bookAppointment(clinicActorOf(request), request.body);
      return reply.status(201).send(appointment);
    },
  );

  app.post(
    '/appointments/:id/cancel',
    {
      schema: {
        tags,
        summary: `Cancels a booked appointment on the clinic's behalf, whatever the patient's online cancellation notice; the slot is free again and offered to the waitlist. The body is optional: \`reason\` (at most ${CANCEL_REASON_MAX_LENGTH} characters) is kept as the appointment's cancel_reason, for the clinic's eyes; the patient is told, in their language, through the clinic's channel, when settings.change_notices.cancelled is on (the default) or \`send_sms: true\` asks (then counted by the message caps first: 429 and nothing cancelled when one is full); \`send_sms: false\` tells nothing. 409 not_cancellable when already cancelled. Audited`,
        params: integrationIdParamsSchema,
        body: clinicCancelBodySchema,
        response: { 200: integrationAppointmentSchema, ...writeErrors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.cancelAppointment(clinicActorOf(request), request.params.id, request.body);
    },
  );

  app.post(
    '/appointments/:id/reschedule',
    {
      schema: {
        tags,
        summary:
          "Moves a booked appointment (same patient, same type) to start_date, with caregiver_id when the caregiver changes (it must offer the type: 400 caregiver_id otherwise). As a clinic booking: start_date a slot the booking page offers, or any future time with outside_working_hours: true; never over another appointment nor another of the patient's on the same date (409 slot_taken, existingAppointment), nor over a busy time unless ignore_busy_times: true (409 slot_taken). In one transaction: reminders planned again, the caregiver's calendar written back, the freed time offered to the waitlist, appointment.rescheduled raised with where it was before; the patient is told of both times when settings.change_notices.moved is on (the default) or send_sms: true asks (message caps: 429); send_sms: false tells nothing. 409 not_cancellable when cancelled. Audited",
        params: integrationIdParamsSchema,
        body: clinicRescheduleBodySchema,
        response: { 200: integrationAppointmentSchema, ...writeErrors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.rescheduleAppointment(clinicActorOf(request), request.params.id, request.body);
    },
  );
};
