import type { FastifyInstance } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import { createApiKeys } from './api-keys.js';
import { apiKeysRoutes } from './api-keys-routes.js';
import { auditLogRoutes } from './audit-log-routes.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { registerIntegrationAuth, type StaffCallerSource } from './integration-auth.js';

/**
 * The clinic-facing surface's common part: its callers (API keys and desk sessions), their
 * authentication and per-caller limit
 * (`app.authenticateClinic`, `app.limitClinicCalls`, which every module's registerIntegrationRoutes
 * needs, so this comes first), the keys' own routes and the audit log.
 */
export async function registerIntegration(
  app: FastifyInstance,
  deps: {
    db: Database;
    clock: () => number;
    /** The desk's sessions, the clinic API's other caller (modules/staff). */
    staff: StaffCallerSource;
    /** Calls of one API key per minute (default DEFAULT_INTEGRATION_CALLS_PER_MINUTE). */
    callsPerMinute?: number;
  },
): Promise<void> {
  const apiKeys = createApiKeys({ db: deps.db, clock: deps.clock });
  registerIntegrationAuth(app, apiKeys, deps.staff, deps.callsPerMinute);
  await registerIntegrationRoutes(app, apiKeysRoutes, { apiKeys }, 'owner');
  await registerIntegrationRoutes(app, auditLogRoutes, { db: deps.db }, 'owner');
}
