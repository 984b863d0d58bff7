import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import {
  createAvailabilityRepository,
  type AvailabilityRepository,
} from './availability-repository.js';
import { availabilityRoutes } from './availability-routes.js';
import { createAvailabilityService, type AvailabilityService } from './availability-service.js';

/** The free times of a caregiver (SPEC § 5): `GET /api/availability/...`. */
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
