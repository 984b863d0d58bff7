import type { StaffRole } from '@marpe/shared';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import { AppError, invalidField } from '../../platform/errors.js';
import { clientKey } from '../../platform/http/client-key.js';
import { isStateChanging, xsrfRefused } from '../../platform/http/xsrf.js';
import type { ApiKeys } from './api-keys.js';

/**
 * Who calls the clinic API: an API key, or a staff member's desk session acting for one of their
 * clinics with their role there. Every route serves both alike (ADR 037).
 */
export interface IntegrationCaller {
  kind: 'api_key' | 'staff';
  clinicId: number;
  /** The audit actor: `api_key:<id>` or `staff:<account id>`. */
  actor: string;
  /** Names the caller's per-minute budget: the key's hash, or the staff account. */
  limitKey: string;
  /** A staff caller's role at the clinic; null for a key, which may do everything. */
  role: StaffRole | null;
}

/** What the clinic API needs of the desk's sessions (the staff module provides it). */
export interface StaffCallerSource {
  hasCookie(request: FastifyRequest): boolean;
  resolve(
    request: FastifyRequest,
  ): Promise<{ accountId: number; clinicId: number; role: StaffRole } | null>;
}

/** Which staff may call a route: both roles, or owners only. A key may call every route. */
export type StaffAccess = 'front_desk' | 'owner';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook of every `/api/integration/*` route: 401 unless `Authorization: Bearer <key>`
     * names a live API key or the desk's session cookie a live session (then 403 unless its role
     * may call the route, and, for a state-changing call, unless it carries the anti-forgery
     * token). Sets `request.integrationCaller`.
     */
    authenticateClinic: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook after `authenticateClinic`: one caller's calls per minute (429 beyond). */
    limitClinicCalls: onRequestHookHandler;
    apiKeys: ApiKeys;
  }
  interface FastifyRequest {
    integrationCaller: IntegrationCaller | null;
  }
  interface FastifyContextConfig {
    /** The staff role a desk session needs for this integration route (default both). */
    staffAccess?: StaffAccess;
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

/** The caller of a request that passed `app.authenticateClinic`. */
export function callerOf(request: FastifyRequest): IntegrationCaller {
  if (!request.integrationCaller) throw new AppError('unauthorized', 401, 'Send a live API key');
  return request.integrationCaller;
}

/** The audit actor of an integration call. */
export const actorOf = (caller: IntegrationCaller): string => caller.actor;

/** Who writes: the clinic and the audit actor (`api_key:<id>`, `staff:<id>`, `cli`). */
export interface Writer {
  clinicId: number;
  actor: string;
}

/** The writer of a request that passed `app.authenticateClinic`. */
export function writerOf(request: FastifyRequest): Writer {
  const caller = callerOf(request);
  return { clinicId: caller.clinicId, actor: caller.actor };
}

/** The dotted path of the first text holding U+0000, which PostgreSQL text and jsonb refuse. */
function nulCharacterPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = key.includes('\u0000') ? path.join('.') : nulCharacterPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** A preValidation hook: 400 naming the first text of the body that holds U+0000. */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const path = nulCharacterPath(request.body);
  if (path !== null) throw invalidField(path || 'body', 'Text must not contain U+0000');
}

/**
 * Registers a plugin of integration routes under `/api/integration`: every route in it needs an
 * API key or a desk session (checked on request, before the body is read). The general XSRF check
 * is off for them: a bearer key is never sent by a browser on its own, and `authenticateClinic`
 * checks the token itself when the caller is a desk session. `access` says which staff role a desk
 * session needs: `owner` for every route, `owner-writes` for every state-changing one (a route's
 * own `config.staffAccess` wins); by default both roles may call them.
 */
export async function registerIntegrationRoutes<Options extends Record<string, unknown>>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options>,
  options: Options,
  access: StaffAccess | 'owner-writes' = 'front_desk',
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const staffAccess: StaffAccess =
          route.config?.staffAccess ??
          (access === 'owner-writes'
            ? methods.some((method) => isStateChanging(method))
              ? 'owner'
              : 'front_desk'
            : access);
        route.config = { ...route.config, xsrf: false, staffAccess };
        route.schema = {
          ...route.schema,
          security: [{ apiKey: [] }, { deskSession: [] }],
          ...(staffAccess === 'owner'
            ? {
                description:
                  `${route.schema?.description ?? ''} Desk sessions: owners only.`.trim(),
              }
            : {}),
        };
      });
      scope.addHook('onRequest', scope.authenticateClinic);
      scope.addHook('onRequest', scope.limitClinicCalls);
      await scope.register(plugin, options);
    },
    { prefix: '/api/integration' },
  );
}
