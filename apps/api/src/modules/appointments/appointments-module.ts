import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { AvailabilityService } from '../availability/availability-service.js';
import { createPatientAuthRepository } from '../patient-auth/patient-auth-repository.js';
import type { CalendarSync } from '../calendar-sync/calendar-sync-service.js';
import type { ClinicDataCache } from '../clinics/clinic-data-cache.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { Messaging } from '../messaging/messaging.js';
import type { Reminders } from '../reminders/reminders-service.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { createAppointmentsRepository } from './appointments-repository.js';
import { createAppointmentsService } from './appointments-service.js';
import { createChangeNotices } from './change-notices.js';
import { createClinicAppointments } from './clinic-appointments.js';
import { clinicAppointmentsRoutes } from './clinic-routes.js';
import { appointmentsRoutes } from './patient-routes.js';

/**
 * Booking, moving and cancelling (the patient, after registerPatientAuth) and the clinic's list
 * and cancellation (after registerIntegration).
 */
export async function registerAppointments(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    availability: AvailabilityService;
    /** The schedules repository: what else blocks a caregiver (busy times). */
    schedules: Pick<AvailabilityRepository, 'overlapsExternalBusy'>;
    messaging: Messaging;
    webhooks: Webhooks;
    reminders: Reminders;
    waitlist: WaitlistService;
    cache: ClinicDataCache;
    calendar: CalendarSync;
    /** Change notices link to `${publicOrigin}/appointments/{clinicId}`. */
    publicOrigin: string;
  },
): Promise<void> {
  const repository = createAppointmentsRepository(deps.db);
  const appointments = createAppointmentsService({
    repository,
    availability: deps.availability,
    busy: deps.schedules,
    patients: createPatientAuthRepository(deps.db),
    messaging: deps.messaging,
    notices: createChangeNotices({
      repository,
      messaging: deps.messaging,
      publicOrigin: deps.publicOrigin,
    }),
    webhooks: deps.webhooks,
    reminders: deps.reminders,
    waitlist: deps.waitlist,
    cache: deps.cache,
    calendar: deps.calendar,
    clock: deps.clock,
  });
  await app.register(appointmentsRoutes, { prefix: '/api', service: appointments });
  await registerIntegrationRoutes(app, clinicAppointmentsRoutes, {
    service: createClinicAppointments({ db: deps.db, appointments }),
  });
}
