import type { FastifyInstance } from 'fastify';
import type { Database, DatabaseHandle } from '../../platform/db/client.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import { registerClinicDataCache, type ClinicDataCache } from './clinic-data-cache.js';
import { clinicImageRoutes, createClinicImages, imageFileRoutes } from './clinic-images.js';
import { clinicRoutes } from './clinic-routes.js';
import { createClinicsRepository } from './clinics-repository.js';
import { createClinicsService, type ClinicsService } from './clinics-service.js';
import { clinicsRoutes } from './patient-routes.js';
import { createClinicRepository } from './setup-repository.js';
import { createSetupChecklist } from './setup-checklist.js';
import { setupRoutes } from './setup-routes.js';
import { createClinicService } from './setup-service.js';

/**
 * The clinic and its setup: the public clinic page and its cache (patients), and the profile,
 * caregivers with their hours, breaks and exceptions, appointment types, closures, uploaded images
 * and the desk's set-up checklist (the clinic's API).
 */
export async function registerClinics(
  app: FastifyInstance,
  deps: {
    database: Pick<DatabaseHandle, 'listen'>;
    db: Database;
    clock: () => number;
    availability: AvailabilityService;
    schedules: AvailabilityRepository;
    /** New hours, rules or types may open times that waiting patients are offered. */
    waitlist: Pick<WaitlistService, 'queueOffers' | 'kick'>;
    /** A new time zone re-plans the clinic's waiting reminders. */
    reminders: Pick<Reminders, 'replanClinic'>;
    /** Whether the operator opened the server's Google service account to a clinic. */
    calendarSyncAllowed: (clinicId: number) => boolean;
  },
): Promise<{
  /** The cached page data; whoever changes what the page shows drops its clinic's entry. */
  cache: ClinicDataCache;
  clinics: ClinicsService;
}> {
  const { db, clock } = deps;
  const cache = registerClinicDataCache(app, { database: deps.database, clock });
  const clinics = createClinicsService({
    clinics: createClinicsRepository(db),
    schedules: deps.schedules,
    availability: deps.availability,
    cache,
    clock,
  });
  await app.register(clinicsRoutes, { prefix: '/api', clinics });
  await registerIntegrationRoutes(
    app,
    clinicRoutes,
    {
      service: createClinicService({
        repository: createClinicRepository(db),
        waitlist: deps.waitlist,
        reminders: deps.reminders,
        cache,
        clock,
        calendarSyncAllowed: deps.calendarSyncAllowed,
      }),
    },
    'owner-writes',
  );
  // The desk's set-up checklist and the clinic's closures: owners write, front desk reads.
  await registerIntegrationRoutes(
    app,
    setupRoutes,
    { checklist: createSetupChecklist({ db, clock, cache, waitlist: deps.waitlist }) },
    'owner-writes',
  );
  // The clinic's images (logo, caregivers' photos): uploaded by its owners, served to anyone.
  const images = createClinicImages({ db, clock });
  await registerIntegrationRoutes(app, clinicImageRoutes, { images }, 'owner');
  await app.register(imageFileRoutes, { prefix: '/api', images });
  return { cache, clinics };
}
