import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import { deriveKey, type DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { staffCookie } from '../../platform/http/desk-cookie.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import type { Messaging } from '../messaging/messaging.js';
import { staffClinicRoutes } from './clinic-routes.js';
import { staffAuthRoutes } from './staff-auth-routes.js';
import { createStaffAuthService } from './staff-auth-service.js';
import { createStaffCallers, type StaffCallers } from './staff-callers.js';
import { createStaffMembers, type StaffMembers } from './staff-members.js';
import { createStaffPasskeys } from './staff-passkeys.js';
import { createStaffRepository } from './staff-repository.js';

export interface StaffDeps {
  config: Pick<Config, 'isHttps'>;
  db: Database;
  clock: () => number;
  dataKeys: DataKeys;
  messaging: Messaging;
  publicOrigin: string;
  /** The per-address limit of each sign-in route (default 60 a minute). */
  attemptsPerMinute?: number;
}

/**
 * The desk's staff (docs/desk.md): sign-in by SMS code or passkey and the session cookie
 * (`/api/staff-auth/*`). Before registerIntegration: the clinic API takes desk sessions as
 * callers through `callers`. Its own clinic routes (`/api/integration/staff`) come after it, from
 * registerStaffRoutes.
 */
export async function registerStaffAuth(
  app: FastifyInstance,
  deps: StaffDeps,
): Promise<{ callers: StaffCallers; members: StaffMembers }> {
  const repository = createStaffRepository(deps.db);
  const cookie = staffCookie(deps.config);
  const service = createStaffAuthService({
    repository,
    messaging: deps.messaging,
    clock: deps.clock,
    // Its own key: a patient's code hash says nothing of a staff member's.
    codeKey: deriveKey(deps.dataKeys.current, 'staff-otp'),
    host: new URL(deps.publicOrigin).hostname,
  });
  const passkeys = createStaffPasskeys({
    repository,
    auth: service,
    clock: deps.clock,
    publicOrigin: deps.publicOrigin,
  });
  await app.register(staffAuthRoutes, {
    prefix: '/api',
    service,
    passkeys,
    cookie,
    attemptsPerMinute: deps.attemptsPerMinute,
  });
  const members = createStaffMembers({
    repository,
    messaging: deps.messaging,
    clock: deps.clock,
    publicOrigin: deps.publicOrigin,
  });
  return { callers: createStaffCallers({ repository, service, cookie }), members };
}

/** `/api/integration/staff`, owners only (after registerIntegration). */
export async function registerStaffRoutes(
  app: FastifyInstance,
  members: StaffMembers,
): Promise<void> {
  await registerIntegrationRoutes(app, staffClinicRoutes, { members }, 'owner');
}
