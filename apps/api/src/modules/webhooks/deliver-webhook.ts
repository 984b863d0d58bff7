import { z } from 'zod';
import { decryptText } from '../../platform/crypto.js';
import type { OutboxAttempt } from '../../platform/outbox/outbox-contract.js';
import {
  guardedLookup,
  NOT_PUBLIC_ADDRESS,
  NotPublicAddressError,
  postWebhook,
  resolveWithDns,
  WebhookTimeoutError,
} from './webhook-request.js';
import { standardWebhookSignature, webhookSignatureHeader } from './webhook-signature.js';
import { previousSecretAt, secretAt, type WebhooksDeps } from './webhooks-deps.js';
import type { WebhooksRepository } from './webhooks-repository.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Requests in flight to one endpoint from one process; more wait (deferred, not tried). */
export const WEBHOOK_ENDPOINT_CONCURRENCY = 4;
/** How long a delivery waits when its endpoint already has that many requests in flight. */
export const WEBHOOK_BUSY_RETRY_MS = 1000;
/** Failed tries in a row after which an endpoint's circuit breaker opens… */
export const WEBHOOK_BREAKER_THRESHOLD = 5;
/** …for this long: its deliveries wait, then the next failure opens it again at once. */
export const WEBHOOK_BREAKER_COOLDOWN_MS = 60_000;

/** The outbox row of one delivery: the exact body, so every retry sends (and signs) the same bytes. */
const deliveryPayloadSchema = z.object({ deliveryId: z.number().int(), body: z.string() });

/**
 * Why a request got no answer, without its address (a URL may carry a token) and, for a refused
 * address, without the network's own words (they would tell a clinic about our network).
 */
function networkFailure(error: unknown): string {
  if (error instanceof NotPublicAddressError) return NOT_PUBLIC_ADDRESS;
  if (error instanceof WebhookTimeoutError) return error.message;
  if (!(error instanceof Error)) return 'Request failed';
  const code = (error as NodeJS.ErrnoException).code;
  return `Request failed: ${typeof code === 'string' ? code : error.name}`;
}

/**
 * The outbox's deliveries: each POSTs the signed body and retries with the outbox's backoff until
 * a 2xx, for 48 hours. At least once: receivers de-duplicate by the event id.
 */
export function createWebhookDelivery(
  deps: Pick<WebhooksDeps, 'clock' | 'secretKey' | 'publicOnly' | 'resolveHost' | 'timeoutMs'>,
  repository: WebhooksRepository,
) {
  const { clock, secretKey, publicOnly } = deps;
  const lookup = guardedLookup(deps.resolveHost ?? resolveWithDns, publicOnly);
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  /** Requests in flight per endpoint id, in this process. */
  const inFlight = new Map<number, number>();

  /** POSTs the signed body once and records the outcome; throws on failure (the outbox retries). */
  async function attempt(
    deliveryId: number,
    target: {
      endpointId: number;
      url: string;
      secret: string;
      previousSecret: string | null;
      previousSecretUntil: Date | null;
    },
    body: string,
    isLast: boolean,
  ): Promise<void> {
    const attemptAt = new Date(clock());
    const timestamp = Math.floor(attemptAt.getTime() / 1000);
    const event = JSON.parse(body) as { id: string; type: string };
    // The new secret first, then (for a day after a rotation) the one it replaced.
    const secrets = [decryptText(secretKey, target.secret, secretAt(target.endpointId))];
    if (target.previousSecret && (target.previousSecretUntil?.getTime() ?? 0) > clock()) {
      secrets.push(
        decryptText(secretKey, target.previousSecret, previousSecretAt(target.endpointId)),
      );
    } else if (target.previousSecret) {
      // Its overlap is over: it signs nothing more, so it is not kept either.
      await repository.erasePreviousSecret(target.endpointId, attemptAt);
    }
    let statusCode: number | null = null;
    let failure: string;
    try {
      statusCode = await postWebhook({
        url: target.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Marpe-Webhooks/1',
          // Standard Webhooks (https://www.standardwebhooks.com), what receivers' libraries verify.
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': standardWebhookSignature(secrets, event.id, timestamp, body),
          // Marpe's own, deprecated (docs/integration.md).
          'marpe-event-id': event.id,
          'marpe-event-type': event.type,
          'marpe-timestamp': String(timestamp),
          'marpe-signature': webhookSignatureHeader(secrets, timestamp, body),
        },
        body,
        timeoutMs,
        lookup,
        publicOnly,
      });
      if (statusCode >= 200 && statusCode < 300) {
        await repository.recordAttempt(deliveryId, {
          status: 'delivered',
          lastStatusCode: statusCode,
          lastError: null,
          lastAttemptAt: attemptAt,
          deliveredAt: new Date(clock()),
          // Delivered: nothing will send it again.
          body: null,
        });
        await repository.recordEndpointSuccess(target.endpointId);
        return;
      }
      failure = `The endpoint answered ${statusCode}`;
    } catch (error) {
      failure = networkFailure(error);
    }
    await repository.recordAttempt(deliveryId, {
      status: isLast ? 'failed' : 'pending',
      lastStatusCode: statusCode,
      lastError: failure,
      lastAttemptAt: attemptAt,
    });
    await repository.recordEndpointFailure(
      target.endpointId,
      WEBHOOK_BREAKER_THRESHOLD,
      new Date(clock() + WEBHOOK_BREAKER_COOLDOWN_MS),
    );
    // The outbox retries with backoff (or, after the last try, gives up as recorded above).
    throw new Error(failure);
  }

  return {
    /**
     * The outbox handler of WEBHOOK_TOPIC: one try of one delivery, or a deferral when its
     * endpoint already has WEBHOOK_ENDPOINT_CONCURRENCY requests in flight or its breaker is open.
     */
    async deliver(payload: unknown, { isLast, defer }: OutboxAttempt): Promise<void> {
      const { deliveryId, body } = deliveryPayloadSchema.parse(payload);
      const target = await repository.findDeliveryTarget(deliveryId);
      // Deleted with its endpoint, or settled by a try whose outbox row was then claimed again.
      if (!target || target.status !== 'pending') return;
      if (!target.isActive) {
        await repository.markFailed(deliveryId, 'The endpoint was deactivated');
        return;
      }
      const now = clock();
      const openUntil = target.circuitOpenUntil?.getTime() ?? 0;
      if (openUntil > now) {
        if (!isLast) return defer(openUntil);
        await repository.markFailed(deliveryId, 'Given up: the endpoint kept failing');
        return;
      }
      const busy = inFlight.get(target.endpointId) ?? 0;
      if (busy >= WEBHOOK_ENDPOINT_CONCURRENCY) return defer(now + WEBHOOK_BUSY_RETRY_MS);
      inFlight.set(target.endpointId, busy + 1);
      try {
        await attempt(deliveryId, target, body, isLast);
      } finally {
        const left = (inFlight.get(target.endpointId) ?? 1) - 1;
        if (left === 0) inFlight.delete(target.endpointId);
        else inFlight.set(target.endpointId, left);
      }
    },
  };
}
