import { z } from 'zod';
import {
  createAppointmentTypeBodySchema,
  createCaregiverBodySchema,
  errorBodySchema,
  integrationAppointmentTypeSchema,
  integrationAppointmentTypesSchema,
  integrationCaregiverSchema,
  integrationCaregiversSchema,
  integrationClinicSchema,
  integrationIdParamsSchema,
  updateAppointmentTypeBodySchema,
  updateCaregiverBodySchema,
  updateClinicBodySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import type { ClinicService } from './setup-service.js';

export interface ClinicRoutesOptions {
  service: ClinicService;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...readErrors, 409: errorBodySchema };
const noContent = { 204: z.null().describe('Done') };

/**
 * `/api/integration/clinic`, `/caregivers` and `/appointment-types`: the data of the key's clinic
 * only; another clinic's ids answer 404 like unknown ones.
 */
export const clinicRoutes: FastifyPluginAsyncZod<ClinicRoutesOptions> = async (
  app,
  { service },
) => {
  const clinicIdOf = (request: Parameters<typeof callerOf>[0]) => callerOf(request).clinicId;

  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/clinic',
    {
      schema: {
        tags,
        summary: "The key's clinic: profile, settings and default booking rules",
        response: { 200: integrationClinicSchema, ...readErrors },
      },
    },
    async (request) => service.getClinic(clinicIdOf(request)),
  );

  app.patch(
    '/clinic',
    {
      schema: {
        tags,
        summary:
          "Changes the fields given (address, settings and default_marpe_rules field by field; opening_hours whole). 400 names a bad field: an unknown timezone, messaging_channel 'whatsapp' before WhatsApp is connected, a message cap above the operator's ceiling (message_cap_ceilings)",
        body: updateClinicBodySchema,
        response: { 200: integrationClinicSchema, ...writeErrors },
      },
    },
    async (request) => service.updateClinic(clinicActorOf(request), request.body),
  );

  app.get(
    '/caregivers',
    {
      schema: {
        tags,
        summary:
          'The caregivers, inactive ones included, in page order, with their types, rules, hours, breaks and exceptions from today on',
        response: { 200: integrationCaregiversSchema, ...readErrors },
      },
    },
    async (request) => service.listCaregivers(clinicIdOf(request)),
  );

  app.post(
    '/caregivers',
    {
      schema: {
        tags,
        summary:
          'Adds a caregiver, with its appointment types and marpe_rules (own rules, weekly hours, breaks, exceptions) (201)',
        body: createCaregiverBodySchema,
        response: { 201: integrationCaregiverSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const caregiver = await service.createCaregiver(clinicActorOf(request), request.body);
      return reply.status(201).send(caregiver);
    },
  );

  app.get(
    '/caregivers/:id',
    {
      schema: {
        tags,
        summary: 'One caregiver; 404 caregiver_not_found',
        params: integrationIdParamsSchema,
        response: { 200: integrationCaregiverSchema, ...readErrors },
      },
    },
    async (request) => service.getCaregiver(clinicIdOf(request), request.params.id),
  );

  app.patch(
    '/caregivers/:id',
    {
      schema: {
        tags,
        summary:
          'Changes the fields given; appointment_type_ids and each part of marpe_rules given (weekly_hours, breaks, exceptions from today on) replace the whole part',
        params: integrationIdParamsSchema,
        body: updateCaregiverBodySchema,
        response: { 200: integrationCaregiverSchema, ...writeErrors },
      },
    },
    async (request) =>
      service.updateCaregiver(clinicActorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/caregivers/:id',
    {
      schema: {
        tags,
        summary:
          'Deactivates the caregiver (204): off the clinic page and out of booking; its appointments stay, PATCH is_active: true brings it back',
        params: integrationIdParamsSchema,
        response: { ...noContent, ...readErrors },
      },
    },
    async (request, reply) => {
      await service.deactivateCaregiver(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/appointment-types',
    {
      schema: {
        tags,
        summary: 'The appointment types, with the caregivers offering each',
        response: { 200: integrationAppointmentTypesSchema, ...readErrors },
      },
    },
    async (request) => service.listAppointmentTypes(clinicIdOf(request)),
  );

  app.post(
    '/appointment-types',
    {
      schema: {
        tags,
        summary: 'Adds an appointment type, optionally with the caregivers offering it (201)',
        body: createAppointmentTypeBodySchema,
        response: { 201: integrationAppointmentTypeSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const type = await service.createAppointmentType(clinicActorOf(request), request.body);
      return reply.status(201).send(type);
    },
  );

  app.get(
    '/appointment-types/:id',
    {
      schema: {
        tags,
        summary: 'One appointment type; 404 appointment_type_not_found',
        params: integrationIdParamsSchema,
        response: { 200: integrationAppointmentTypeSchema, ...readErrors },
      },
    },
    async (request) => service.getAppointmentType(clinicIdOf(request), request.params.id),
  );

  app.patch(
    '/appointment-types/:id',
    {
      schema: {
        tags,
        summary:
          'Changes the fields given; caregiver_ids replaces the caregivers offering it. Booked appointments keep their times',
        params: integrationIdParamsSchema,
        body: updateAppointmentTypeBodySchema,
        response: { 200: integrationAppointmentTypeSchema, ...writeErrors },
      },
    },
    async (request) =>
      service.updateAppointmentType(clinicActorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/appointment-types/:id',
    {
      schema: {
        tags,
        summary:
          'Deletes an appointment type no appointment has (204); 409 once any has: stop offering it instead',
        params: integrationIdParamsSchema,
        response: { ...noContent, ...writeErrors },
      },
    },
    async (request, reply) => {
      await service.deleteAppointmentType(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
