import { createWebhookDelivery } from './deliver-webhook.js';
import { createWebhookEvents } from './emit-webhook-events.js';
import { createWebhookDeliveries } from './webhook-deliveries.js';
import { createWebhookEndpoints } from './webhook-endpoints.js';
import type { WebhooksDeps } from './webhooks-deps.js';
import { createWebhooksRepository } from './webhooks-repository.js';

/**
 * Webhook endpoints, and events: `emit*` run inside the transaction of the change they report
 * and write one delivery row and one outbox row per subscribed endpoint, so an event exists
 * exactly when the change commits. The outbox then calls `deliver`, which POSTs the signed body
 * and retries with the outbox's backoff until a 2xx, for 48 hours. At least once: receivers
 * de-duplicate by the event id.
 */
export function createWebhooks(deps: WebhooksDeps) {
  const repository = createWebhooksRepository(deps.db);
  return {
    ...createWebhookEvents(deps, repository),
    ...createWebhookDelivery(deps, repository),
    ...createWebhookEndpoints(deps, repository),
    ...createWebhookDeliveries(deps, repository),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
