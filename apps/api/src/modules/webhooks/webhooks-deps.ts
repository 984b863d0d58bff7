import { sealedAt, type SealingKey } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import type { AppOutbox } from '../messaging/messaging.js';
import type { ResolveHost } from './webhook-request.js';

export const WEBHOOK_TOPIC = 'webhook';

/** What the webhook use cases are built from; webhooks-service.ts composes them. */
export interface WebhooksDeps {
  db: Database;
  outbox: Pick<AppOutbox, 'enqueue' | 'kick'>;
  /** Epoch milliseconds. */
  clock: () => number;
  /** deriveKey(dataKey, 'webhooks'): encrypts the endpoints' signing secrets. */
  secretKey: SealingKey;
  /** config.publicOrigin: the links events carry point at it. */
  publicOrigin: string;
  /** Outside demo mode: https endpoints only (and public addresses, see `publicOnly`). */
  production: boolean;
  /**
   * Outside demo mode: endpoints must be, and resolve at connection time to, public addresses.
   * Demo mode allows loopback receivers.
   */
  publicOnly: boolean;
  /** How host names are resolved when connecting (default `dns.lookup`); tests inject names. */
  resolveHost?: ResolveHost;
  /** How long an endpoint has to answer (default WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Who makes a change through the API: the key's clinic, and the audit actor. */
export interface WebhooksCaller {
  clinicId: number;
  actor: string;
}

export const endpointNotFound = (id: number) =>
  new AppError('not_found', 404, `No webhook endpoint ${id} in this clinic`);

/** A signing secret is bound to its endpoint's row. */
export const secretAt = (endpointId: number) => sealedAt('webhook_endpoints', 'secret', endpointId);
export const previousSecretAt = (endpointId: number) =>
  sealedAt('webhook_endpoints', 'previous_secret', endpointId);
/** A delivery's body, kept until it is delivered (for a retry), is bound to its row. */
export const deliveryBodyAt = (deliveryId: number) =>
  sealedAt('webhook_deliveries', 'body', deliveryId);
