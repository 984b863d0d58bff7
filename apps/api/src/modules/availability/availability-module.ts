import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import {
  createAvailabilityRepository,
  type AvailabilityRepository,
} from './availability-repository.js';
import { availabilityRoutes } from './availability-routes.js';
import { createAvailabilityService, type AvailabilityService } from './availability-service.js';
import { createBusyTimes, type BusyTimesDeps } from './busy-times.js';
import { busyTimesRoutes } from './clinic-routes.js';

/** The free times of a caregiver (docs/availability.md): `GET /api/availability/...`. */
export async function registerAvailability(
  app: FastifyInstance,
  deps: { db: Database; clock: () => number },
): Promise<{
  availability: AvailabilityService;
  /** The schedule rows as the engine reads them; the clinic page shows the same. */
  schedules: AvailabilityRepository;
}> {
  const schedules = createAvailabilityRepository(deps.db);
  const availability = createAvailabilityService({ availability: schedules, clock: deps.clock });
  await app.register(availabilityRoutes, { prefix: '/api', availability });
  return { availability, schedules };
}

/**
 * The clinic's busy times (`/api/integration/caregivers/:id/busy-times`), after registerClinics
 * and registerWaitlist: a change drops the clinic page's cache and offers freed times.
 */
export async function registerBusyTimes(app: FastifyInstance, deps: BusyTimesDeps): Promise<void> {
  await registerIntegrationRoutes(app, busyTimesRoutes, { service: createBusyTimes(deps) });
}
