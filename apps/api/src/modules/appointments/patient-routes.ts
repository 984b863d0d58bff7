import {
  appointmentActionResponseSchema,
  bookAppointmentBodySchema,
  bookedAppointmentSchema,
  cancelAppointmentBodySchema,
  errorBodySchema,
  patientAppointmentsSchema,
  rescheduleAppointmentBodySchema,
  rescheduleAppointmentParamsSchema,
  sendAppointmentSmsBodySchema,
  upcomingCapSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageLanguageOf } from '../../platform/http/message-language.js';
import { sessionOf } from '../patient-auth/authenticate.js';
import type { AppointmentsService } from './appointments-service.js';

export interface AppointmentsRoutesOptions {
  service: Pick<
    AppointmentsService,
    'book' | 'reschedule' | 'listUpcoming' | 'upcomingCap' | 'cancel' | 'sendSms'
  >;
}

// 401 without a live session; 403 also for a missing X-XSRF-TOKEN on the writes.
const authErrors = { 401: errorBodySchema, 403: errorBodySchema };

export const appointmentsRoutes: FastifyPluginAsyncZod<AppointmentsRoutesOptions> = async (
  app,
  { service },
) => {
  app.post(
    '/appointment',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary:
          'Books a slot that available-slots offers now for the type (201); 409 existingAppointment (one per date) or slot_taken; 400 not a slot on offer; 403 another clinic',
        body: bookAppointmentBodySchema,
        response: {
          201: bookedAppointmentSchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const booked = await service.book(
        sessionOf(request).patient,
        request.body,
        messageLanguageOf(request.headers['accept-language']),
      );
      return reply.status(201).send(booked);
    },
  );

  app.post(
    '/appointment/patient-appointments/:id/reschedule',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary:
          "Moves the patient's own cancellable appointment to another slot on offer (the booking's body) in one transaction; 409 slot_taken (the old one kept), existingAppointment or not_cancellable; 404 not theirs",
        params: rescheduleAppointmentParamsSchema,
        body: rescheduleAppointmentBodySchema,
        response: {
          200: bookedAppointmentSchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) =>
      service.reschedule(
        sessionOf(request).patient,
        request.params.id,
        request.body,
        messageLanguageOf(request.headers['accept-language']),
      ),
  );

  app.post(
    '/appointment/send-sms',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary:
          "Sends the details of the patient's own upcoming appointment (same body as booking) by SMS; 404 appointment_not_found, 429 after 3 for one appointment",
        body: sendAppointmentSmsBodySchema,
        response: {
          200: appointmentActionResponseSchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      await service.sendSms(sessionOf(request).patient, request.body);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/appointment/patient-appointments',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary: "The patient's upcoming booked appointments, by start",
        response: { 200: patientAppointmentsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listUpcoming(sessionOf(request).patient);
    },
  );

  app.get(
    '/appointment/upcoming-cap',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary:
          "The clinic's cap on upcoming appointments and how many count against it now (the patient's, or the phone's when more): the booking page's early notice",
        response: { 200: upcomingCapSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.upcomingCap(sessionOf(request).patient);
    },
  );

  app.put(
    '/appointment/patient-appointments',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['appointments'],
        summary:
          "Cancels the patient's own appointment; 404 appointment_not_found, 409 not_cancellable (within the clinic's cancellation notice, or cancelled)",
        body: cancelAppointmentBodySchema,
        response: {
          200: appointmentActionResponseSchema,
          400: errorBodySchema,
          ...authErrors,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      await service.cancel(sessionOf(request).patient, request.body.appointmentId);
      return { status: 'ok' as const };
    },
  );
};
