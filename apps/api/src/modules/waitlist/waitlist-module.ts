import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import { createBookingSubjects } from '../availability/booking-subject.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { AppOutbox, Messaging } from '../messaging/messaging.js';
import { waitlistIntegrationRoutes } from './clinic-routes.js';
import { waitlistRoutes } from './patient-routes.js';
import { WAITLIST_HAND_OFFER_TOPIC, WAITLIST_OFFER_TOPIC } from './offer-rules.js';
import { createWaitlistRepository } from './waitlist-repository.js';
import { createWaitlistService, type WaitlistService } from './waitlist-service.js';

/**
 * The waitlist (ADR 023): its offers' outbox topic (so before `ready()`), the patient's entries
 * (after registerPatientAuth) and the clinic's list and offers by hand (after registerIntegration).
 */
export async function registerWaitlist(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    availability: AvailabilityService;
    messaging: Messaging;
    outbox: AppOutbox;
    publicOrigin: string;
  },
): Promise<WaitlistService> {
  const waitlist = createWaitlistService({
    repository: createWaitlistRepository(deps.db),
    // Who may book is the booking's question: the waitlist asks it the same way, read-only.
    subjects: createBookingSubjects(deps.db),
    availability: deps.availability,
    messaging: deps.messaging,
    outbox: deps.outbox,
    publicOrigin: deps.publicOrigin,
    clock: deps.clock,
  });
  deps.outbox.handle(WAITLIST_OFFER_TOPIC, (payload) => waitlist.handleOfferRun(payload));
  deps.outbox.handle(WAITLIST_HAND_OFFER_TOPIC, (payload) => waitlist.handleHandOffer(payload));
  await app.register(waitlistRoutes, { prefix: '/api', service: waitlist });
  await registerIntegrationRoutes(app, waitlistIntegrationRoutes, { service: waitlist });
  return waitlist;
}
