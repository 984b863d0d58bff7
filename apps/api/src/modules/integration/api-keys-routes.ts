import { z } from 'zod';
import { apiKeysSchema, errorBodySchema, integrationIdParamsSchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/errors.js';
import type { ApiKeys } from './api-keys.js';
import { actorOf, callerOf } from './integration-auth.js';

export interface ApiKeysRoutesOptions {
  apiKeys: Pick<ApiKeys, 'list' | 'revoke'>;
}

const tags = ['integration'];
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/**
 * `/api/integration/api-keys`: the clinic's keys, never the keys themselves. Keys are created
 * with `npm run marpe -- create-key`: a clinic's first key cannot come from the API.
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
