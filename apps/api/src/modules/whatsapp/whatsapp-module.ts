import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import type { DataKeys } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { createGraphSignup } from './graph-signup.js';
import { whatsappTokenKey } from '../messaging/whatsapp-connections.js';
import { waSignupRoutes, whatsappIntegrationRoutes } from './whatsapp-routes.js';
import { createWhatsAppService } from './whatsapp-service.js';

/** The integration routes and `POST /api/wa-signup`; the page comes later: `registerWhatsAppPage`. */
export async function registerWhatsApp(
  app: FastifyInstance,
  deps: {
    config: Pick<Config, 'whatsapp' | 'publicOrigin'>;
    db: Database;
    clock: () => number;
    dataKeys: DataKeys;
  },
): Promise<void> {
  const { graphApiBaseUrl, appId, appSecret } = deps.config.whatsapp;
  const service = createWhatsAppService({
    db: deps.db,
    clock: deps.clock,
    tokenKey: whatsappTokenKey(deps.dataKeys),
    publicOrigin: deps.config.publicOrigin,
    graph:
      appId !== null && appSecret !== null
        ? createGraphSignup({ graphApiBaseUrl, appId, appSecret })
        : null,
  });
  await registerIntegrationRoutes(app, whatsappIntegrationRoutes, { service }, 'owner');
  await app.register(waSignupRoutes, { prefix: '/api', service });
}
