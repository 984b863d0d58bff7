import { asc } from 'drizzle-orm';
import type { ClinicSummary } from '@marpe/shared';
import type { Database } from '../../platform/db/client.js';
import { clinics } from '../../platform/db/schema.js';

export function createClinicsRepository(db: Database) {
  return {
    async listSummaries(): Promise<ClinicSummary[]> {
      return db
        .select({
          id: clinics.id,
          name: clinics.name,
          city: clinics.city,
          logo_url: clinics.logoUrl,
        })
        .from(clinics)
        .orderBy(asc(clinics.name), asc(clinics.id));
    },
  };
}

export type ClinicsRepository = ReturnType<typeof createClinicsRepository>;
