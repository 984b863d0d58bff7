import type { FastifyInstance } from 'fastify';
import { registerIntegrationRoutes } from '../../platform/http/integration-routes.js';
import { webhooksRoutes } from './clinic-routes.js';
import { WEBHOOK_TOPIC, type WebhooksDeps } from './webhooks-deps.js';
import { createWebhooks, type Webhooks } from './webhooks-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhook endpoints and events: other modules emit through it in their transactions. */
    webhooks: Webhooks;
  }
}

/**
 * Creates `app.webhooks`, hands its deliveries to the outbox (so before `ready()`) and serves the
 * clinic's endpoints and deliveries under /api/integration (so after registerIntegration).
 */
export async function registerWebhooks(
  app: FastifyInstance,
  deps: Omit<WebhooksDeps, 'outbox'>,
): Promise<Webhooks> {
  const webhooks = createWebhooks({ ...deps, outbox: app.outbox });
  app.decorate('webhooks', webhooks);
  app.outbox.handle(WEBHOOK_TOPIC, webhooks.deliver);
  await registerIntegrationRoutes(app, webhooksRoutes, { service: webhooks }, 'owner');
  return webhooks;
}
