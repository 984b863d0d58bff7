import { z } from 'zod';
import { clinicDataSchema, clinicSummarySchema, errorBodySchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClinicsService } from './clinics-service.js';

export interface ClinicsRoutesOptions {
  clinics: Pick<ClinicsService, 'listSummaries' | 'clinicDataJson'>;
}

const clinicParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Expected a whole number' })
    .int('Expected a whole number')
    .positive('Expected a positive whole number'),
});

export const clinicsRoutes: FastifyPluginAsyncZod<ClinicsRoutesOptions> = async (app, options) => {
  app.get(
    '/clinic',
    {
      schema: {
        tags: ['clinics'],
        summary: 'List the clinics (id, name, city, logo)',
        response: { 200: z.array(clinicSummarySchema) },
      },
    },
    async () => options.clinics.listSummaries(),
  );

  app.get(
    '/clinic/:id',
    {
      schema: {
        tags: ['clinics'],
        summary:
          "A clinic's page: the clinic, its active caregivers (rules, first available slot) and its appointment types",
        params: clinicParamsSchema,
        // Documents the answer; the body is serialised (and allow-listed) by the service and cached.
        response: { 200: clinicDataSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const json = await options.clinics.clinicDataJson(request.params.id);
      // A string with a JSON content type is sent as is: no per-request serialisation.
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );
};
