import type { StaffRole } from '@marpe/shared';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { clientKey } from '../../platform/http/client-key.js';
import { isStateChanging, xsrfRefused } from '../../platform/http/xsrf.js';
import type { ApiKeys } from './api-keys.js';

/** What the clinic API needs of the desk's sessions (the staff module provides it). */
export interface StaffCallerSource {
  hasCookie(request: FastifyRequest): boolean;
  resolve(
    request: FastifyRequest,
  ): Promise<{ accountId: number; clinicId: number; role: StaffRole } | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeys;
  }
}

const bearer = /^Bearer +(\S+) *$/i;

/** Calls per API key per minute across all integration routes, unless buildApp says otherwise. */
export const DEFAULT_INTEGRATION_CALLS_PER_MINUTE = 600;

/**
 * A desk call must come from the desk's own pages: besides SameSite=Strict and the anti-forgery
 * token, a browser's Fetch Metadata saying another site (or a navigation) sent it is refused.
 */
function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return typeof site === 'string' && site !== 'same-origin' && site !== 'none';
}

export function registerIntegrationAuth(
  app: FastifyInstance,
  apiKeys: ApiKeys,
  staff: StaffCallerSource,
  callsPerMinute = DEFAULT_INTEGRATION_CALLS_PER_MINUTE,
): void {
  app.decorate('apiKeys', apiKeys);
  // One budget per key or staff account (not per address: a clinic's software may run on many
  // machines, and many clinics' software on one), shared by every integration route. It protects
  // the database from a runaway sync loop; a well-behaved integration never meets it.
  const limit = app.rateLimit({
    max: callsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => request.integrationCaller?.limitKey ?? clientKey(request.ip),
  });
  app.decorate('limitClinicCalls', limit as unknown as onRequestHookHandler);
  app.decorateRequest('integrationCaller', null);
  app.decorate('authenticateClinic', async (request: FastifyRequest) => {
    const key = bearer.exec(request.headers.authorization ?? '')?.[1];
    if (key || !staff.hasCookie(request)) {
      const caller = key ? await apiKeys.verify(key) : null;
      if (!caller) {
        throw new AppError('unauthorized', 401, 'Send a live API key: Authorization: Bearer <key>');
      }
      request.integrationCaller = {
        kind: 'api_key',
        clinicId: caller.clinicId,
        actor: `api_key:${caller.keyId}`,
        limitKey: caller.keyHash,
        role: null,
      };
      return;
    }
    if (isCrossSite(request)) throw new AppError('forbidden', 403, 'Cross-site desk call refused');
    if (isStateChanging(request.method) && !app.hasValidXsrf(request)) throw xsrfRefused();
    const member = await staff.resolve(request);
    if (!member) throw new AppError('unauthorized', 401, 'Sign in to the desk to continue');
    if (request.routeOptions.config.staffAccess === 'owner' && member.role !== 'owner') {
      throw new AppError('forbidden', 403, "Only the clinic's owners may do this");
    }
    request.integrationCaller = {
      kind: 'staff',
      clinicId: member.clinicId,
      actor: `staff:${member.accountId}`,
      limitKey: `staff:${member.accountId}`,
      role: member.role,
    };
  });
}
