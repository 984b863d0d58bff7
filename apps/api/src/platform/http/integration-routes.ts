import type { StaffRole } from '@marpe/shared';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import { AppError, invalidField } from '../errors.js';
import { isStateChanging } from './xsrf.js';

// What every module with a clinic surface shares (docs/decisions/024-api-modules.md): its routes
// under /api/integration, their caller and the refusal of U+0000. Here, below the modules, so
// that messaging and staff (registered before the integration module, which authenticates with the
// staff's sessions) use it without importing upwards; modules/integration/integration-auth.ts
// provides `app.authenticateClinic` and `app.limitClinicCalls`.

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
  }
  interface FastifyRequest {
    integrationCaller: IntegrationCaller | null;
  }
  interface FastifyContextConfig {
    /** The staff role a desk session needs for this integration route (default both). */
    staffAccess?: StaffAccess;
  }
}

/** The caller of a request that passed `app.authenticateClinic`. */
export function callerOf(request: FastifyRequest): IntegrationCaller {
  if (!request.integrationCaller) throw new AppError('unauthorized', 401, 'Send a live API key');
  return request.integrationCaller;
}

/** The audit actor of an integration call. */
export const actorOf = (caller: IntegrationCaller): string => caller.actor;

/**
 * Who a change is made by and for: the clinic and the audit actor (`api_key:<id>`, `staff:<id>`,
 * `cli`, `reminders`…). A clinic call's is its caller's; the CLI and the workers name their own.
 */
export interface ClinicActor {
  clinicId: number;
  actor: string;
}

/** The clinic and audit actor of a request that passed `app.authenticateClinic`. */
export function clinicActorOf(request: FastifyRequest): ClinicActor {
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
