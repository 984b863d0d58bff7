import type { WebhookDeliveriesQuery, WebhookDelivery, WebhookRetryRefusal } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { decryptText } from '../../platform/crypto.js';
import { isStoredId } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import {
  deliveryBodyAt,
  endpointNotFound,
  WEBHOOK_TOPIC,
  type WebhooksCaller,
  type WebhooksDeps,
} from './webhooks-deps.js';
import type { WebhookDeliveryRow, WebhooksRepository } from './webhooks-repository.js';

const deliveryNotFound = (id: number) =>
  new AppError('not_found', 404, `No webhook delivery ${id} in this clinic`);
/** A 409 of a retry, with its reason for the caller to tell (`details.reason`). */
const retryRefused = (reason: WebhookRetryRefusal, message: string) =>
  new AppError('conflict', 409, message, { reason });

function deliveryView(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  };
}

/** The clinic's delivery log, and a failed delivery sent again. */
export function createWebhookDeliveries(
  { outbox, clock, secretKey }: Pick<WebhooksDeps, 'outbox' | 'clock' | 'secretKey'>,
  repository: WebhooksRepository,
) {
  return {
    /**
     * Sends a failed delivery again: pending once more, through the outbox as at first (the same
     * body and event id, signed with the endpoint's current secrets), for another 48 hours of
     * tries. 404 for a delivery the clinic does not have; 409 unless it failed, while its
     * endpoint is paused, or when its body was not kept. Call after the change commits: kicks.
     */
    async retryDelivery(caller: WebhooksCaller, id: number): Promise<WebhookDelivery> {
      if (!isStoredId(id)) throw deliveryNotFound(id);
      const at = new Date(clock());
      const retried = await repository.db.transaction(async (tx) => {
        const found = await repository.findDeliveryForUpdate(tx, caller.clinicId, id);
        if (!found) throw deliveryNotFound(id);
        const { delivery } = found;
        if (delivery.status !== 'failed') {
          throw retryRefused(
            'not_failed',
            `Only a failed delivery can be retried; delivery ${id} is ${delivery.status}`,
          );
        }
        if (!found.endpointActive) {
          throw retryRefused(
            'endpoint_paused',
            `The endpoint of delivery ${id} is paused: resume it (is_active: true) first`,
          );
        }
        if (delivery.body === null) {
          throw retryRefused(
            'body_gone',
            `The body of delivery ${id} was not kept: it failed before deliveries could be retried`,
          );
        }
        const body = decryptText(secretKey, delivery.body, deliveryBodyAt(id));
        const row = await repository.requeueDelivery(tx, id);
        await outbox.enqueue(tx, {
          topic: WEBHOOK_TOPIC,
          payload: { deliveryId: id, body },
          lane: 'webhooks',
        });
        await audit(tx, {
          clinicId: caller.clinicId,
          actor: caller.actor,
          action: 'webhook_delivery.retry',
          targetType: 'webhook_delivery',
          targetId: id,
          details: {
            endpoint_id: delivery.endpointId,
            event_id: delivery.eventId,
            event_type: delivery.eventType,
          },
          at,
        });
        return row;
      });
      outbox.kick('webhooks');
      return deliveryView(retried);
    },

    /** The clinic's deliveries, newest first; 404 for an endpoint the clinic does not have. */
    async listDeliveries(
      clinicId: number,
      query: WebhookDeliveriesQuery,
    ): Promise<WebhookDelivery[]> {
      const endpointId = query.endpoint_id;
      if (endpointId !== undefined) {
        const endpoint = isStoredId(endpointId)
          ? await repository.findEndpoint(repository.db, clinicId, endpointId)
          : null;
        if (!endpoint) throw endpointNotFound(endpointId);
      }
      const rows = await repository.listDeliveries(clinicId, {
        endpointId,
        status: query.status,
        // Past any stored id: every delivery comes before it.
        before: query.before === undefined || !isStoredId(query.before) ? undefined : query.before,
        limit: query.limit,
      });
      return rows.map(deliveryView);
    },
  };
}
