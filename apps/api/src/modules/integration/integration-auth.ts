import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import { AppError, invalidField } from '../../platform/errors.js';
import { clientKey } from '../../platform/http/client-key.js';
import type { ApiKeyCaller, ApiKeys } from './api-keys.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook of every `/api/integration/*` route: 401 unless `Authorization: Bearer <key>`
     * names a live API key. Sets `request.integrationCaller`.
     */
    authenticateClinic: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook after `authenticateClinic`: the calls of one key per minute (429 beyond). */
    limitClinicCalls: onRequestHookHandler;
    apiKeys: ApiKeys;
  }
  interface FastifyRequest {
    integrationCaller: ApiKeyCaller | null;
  }
}

const bearer = /^Bearer +(\S+) *$/i;

/** Calls per API key per minute across all integration routes, unless buildApp says otherwise. */
export const DEFAULT_INTEGRATION_CALLS_PER_MINUTE = 600;

export function registerIntegrationAuth(
  app: FastifyInstance,
  apiKeys: ApiKeys,
  callsPerMinute = DEFAULT_INTEGRATION_CALLS_PER_MINUTE,
): void {
  app.decorate('apiKeys', apiKeys);
  // One budget per key (not per address: a clinic's software may run on many machines, and many
  // clinics' software on one), shared by every integration route. It protects the database from
  // a runaway sync loop; a well-behaved integration never meets it.
  const limit = app.rateLimit({
    max: callsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => request.integrationCaller?.keyHash ?? clientKey(request.ip),
  });
  app.decorate('limitClinicCalls', limit as unknown as onRequestHookHandler);
  app.decorateRequest('integrationCaller', null);
  app.decorate('authenticateClinic', async (request: FastifyRequest) => {
    const key = bearer.exec(request.headers.authorization ?? '')?.[1];
    const caller = key ? await apiKeys.verify(key) : null;
    if (!caller) {
      throw new AppError('unauthorized', 401, 'Send a live API key: Authorization: Bearer <key>');
    }
    request.integrationCaller = caller;
  });
}

/** The caller of a request that passed `app.authenticateClinic`. */
export function callerOf(request: FastifyRequest): ApiKeyCaller {
  if (!request.integrationCaller) throw new AppError('unauthorized', 401, 'Send a live API key');
  return request.integrationCaller;
}

/** The audit actor of an integration call. */
export const actorOf = (caller: ApiKeyCaller): string => `api_key:${caller.keyId}`;

/** Who writes: the clinic a key belongs to and the audit actor (`api_key:<id>`, `cli`). */
export interface Writer {
  clinicId: number;
  actor: string;
}

/** The writer of a request that passed `app.authenticateClinic`. */
export function writerOf(request: FastifyRequest): Writer {
  const caller = callerOf(request);
  return { clinicId: caller.clinicId, actor: actorOf(caller) };
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
 * API key (checked on request, before the body is read) and is exempt from the XSRF check, which
 * guards cookie-based browser sessions: a bearer key is never sent by a browser on its own.
 */
export async function registerIntegrationRoutes<Options extends Record<string, unknown>>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options>,
  options: Options,
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, xsrf: false };
        route.schema = { ...route.schema, security: [{ apiKey: [] }] };
      });
      scope.addHook('onRequest', scope.authenticateClinic);
      scope.addHook('onRequest', scope.limitClinicCalls);
      await scope.register(plugin, options);
    },
    { prefix: '/api/integration' },
  );
}
