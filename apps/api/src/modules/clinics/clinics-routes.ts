import { z } from 'zod';
import { clinicSummarySchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClinicsRepository } from './clinics-repository.js';

export interface ClinicsRoutesOptions {
  clinics: Pick<ClinicsRepository, 'listSummaries'>;
}

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
};
