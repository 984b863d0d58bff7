import { z } from 'zod';
import {
  apiKeysSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  errorBodySchema,
  integrationIdParamsSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors.js';
import type { ApiKeys } from './api-keys.js';
import { actorOf, callerOf, refuseNulCharacters } from '../../platform/http/integration-routes.js';

export interface ApiKeysRoutesOptions {
  apiKeys: Pick<ApiKeys, 'create' | 'list' | 'revoke'>;
}

const tags = ['integration'];
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/**
 * `/api/integration/api-keys`: the clinic's keys, never the keys themselves (but once, in the
 * answer that creates one). A key is created by an owner in the desk, or with
 * `npm run marpe -- create-key`; never by another key, so that a leaked key cannot make itself a
 * successor that outlives its revocation.
 */
export const apiKeysRoutes: FastifyPluginAsyncZod<ApiKeysRoutesOptions> = async (
  app,
  { apiKeys },
) => {
  app.get(
    '/api-keys',
    {
      schema: {
        tags,
        summary: "The clinic's API keys, revoked ones included (name, prefix, times; no secrets)",
        response: { 200: apiKeysSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const keys = await apiKeys.list(callerOf(request).clinicId);
      return keys.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        created_at: key.createdAt.toISOString(),
        last_used_at: iso(key.lastUsedAt),
        revoked_at: iso(key.revokedAt),
      }));
    },
  );

  app.post(
    '/api-keys',
    {
      preValidation: refuseNulCharacters,
      schema: {
        tags,
        summary:
          'Creates a key (201) for a desk owner; the key is in this answer only. API keys cannot create keys (403): a leaked key must not be able to outlive its revocation',
        body: createApiKeyBodySchema,
        response: {
          201: createdApiKeySchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.kind !== 'staff') {
        throw new AppError(
          'forbidden',
          403,
          "API keys are created by the clinic's owners in the desk, not by another key",
        );
      }
      const created = await apiKeys.create(caller.clinicId, request.body.name, actorOf(caller));
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({
        id: created.id,
        name: created.name,
        prefix: created.prefix,
        created_at: created.createdAt.toISOString(),
        last_used_at: null,
        revoked_at: null,
        key: created.key,
      });
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags,
        summary:
          'Revokes a key of the clinic at once (204), the calling key included; 404 for an unknown or already revoked key',
        params: integrationIdParamsSchema,
        response: {
          204: z.null().describe('Revoked'),
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!(await apiKeys.revoke(caller.clinicId, request.params.id, actorOf(caller)))) {
        throw new AppError('not_found', 404, `No live API key ${request.params.id}`);
      }
      return reply.status(204).send(null);
    },
  );
};
