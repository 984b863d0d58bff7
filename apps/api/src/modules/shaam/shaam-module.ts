import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import type { DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { createShaamOAuth } from './shaam-oauth.js';
import { shaamKey } from './shaam-repository.js';
import { shaamAuthRoutes, shaamIntegrationRoutes } from './shaam-routes.js';
import { createShaamService } from './shaam-service.js';

/** The integration routes and `POST /api/shaam-auth`. */
export async function registerShaam(
  app: FastifyInstance,
  deps: {
    config: Pick<Config, 'shaam' | 'publicOrigin' | 'demo'>;
    db: Database;
    clock: () => number;
    dataKeys: DataKeys;
  },
): Promise<void> {
  const { shaam } = deps.config;
  const service = createShaamService({
    db: deps.db,
    clock: deps.clock,
    key: shaamKey(deps.dataKeys),
    publicOrigin: deps.config.publicOrigin,
    production: !deps.config.demo,
    authorizeUrl: shaam.authorizeUrl,
    scope: shaam.scope,
    oauth: createShaamOAuth({ tokenUrl: shaam.tokenUrl }),
  });
  await registerIntegrationRoutes(app, shaamIntegrationRoutes, { service }, 'owner');
  await app.register(shaamAuthRoutes, { prefix: '/api', service });
}
