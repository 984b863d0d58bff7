import type { FastifyInstance } from 'fastify';
import { deriveKey, type DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import type { Messaging } from '../messaging/messaging.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { registerAuthenticate } from './authenticate.js';
import { createPatientCorrections, patientsIntegrationRoutes } from './clinic-routes.js';
import { createPatientAuthRepository } from './patient-auth-repository.js';
import { codeDeliveryRoutes } from './code-delivery-routes.js';
import { patientAuthRoutes } from './patient-auth-routes.js';
import { createPatientAuthService } from './patient-auth-service.js';
import { createPatientSearch } from './patient-search.js';

/**
 * Login by SMS code and the patient's session, and the clinic's correction of a patient's phone
 * (after registerIntegration): `app.authenticate`, which the patient routes of
 * appointments and the waitlist use, so this comes before them.
 */
export async function registerPatientAuth(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    dataKeys: DataKeys;
    messaging: Messaging;
    publicOrigin: string;
    /** The per-address limit of each route (default 60 a minute). */
    attemptsPerMinute?: number;
  },
): Promise<void> {
  const repository = createPatientAuthRepository(deps.db);
  const service = createPatientAuthService({
    repository,
    messaging: deps.messaging,
    clock: deps.clock,
    codeKey: deriveKey(deps.dataKeys.current, 'otp'),
    host: new URL(deps.publicOrigin).hostname,
  });
  registerAuthenticate(app, service);
  await registerIntegrationRoutes(app, patientsIntegrationRoutes, {
    corrections: createPatientCorrections({ repository, clock: deps.clock }),
    search: createPatientSearch({ db: deps.db }),
  });
  await app.register(patientAuthRoutes, {
    prefix: '/api',
    service,
    attemptsPerMinute: deps.attemptsPerMinute,
  });
  await app.register(codeDeliveryRoutes, { prefix: '/api', db: deps.db, clock: deps.clock });
}
