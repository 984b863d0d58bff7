import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { createCalendarFeeds } from './calendar-feed-service.js';
import { calendarFeedClinicRoutes } from './clinic-routes.js';
import { calendarFeedRoutes } from './feed-routes.js';

/**
 * The caregivers' secret iCalendar feeds (docs/calendar-feed.md): made and revoked through the
 * integration API, read by calendar apps at `/api/calendar-feed/:token.ics`.
 */
export async function registerCalendarFeed(
  app: FastifyInstance,
  deps: { db: Database; clock: () => number; publicOrigin: string },
): Promise<void> {
  const service = createCalendarFeeds(deps);
  await app.register(calendarFeedRoutes, { prefix: '/api', service });
  await registerIntegrationRoutes(app, calendarFeedClinicRoutes, { service }, 'owner');
}
