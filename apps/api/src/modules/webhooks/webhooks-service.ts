import {
  WEBHOOK_SECRET_PREFIX,
  webhookEventTypes,
  type AppointmentEventData,
  type AppointmentCalendarConflictEventData,
  type AppointmentRemindedEventData,
  type AppointmentRescheduledEventData,
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventData,
  type WebhookEventPayload,
  type WebhookEventType,
  type WebhookRetryRefusal,
} from '@marpe/shared';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { audit } from '../../platform/audit.js';
import {
  decryptText,
  encryptText,
  randomToken,
  sealedAt,
  type SealingKey,
} from '../../platform/crypto.js';
import type { Database, Executor } from '../../platform/db/client.js';
import { isStoredId } from '../../platform/db/schema.js';
import { AppError, invalidField } from '../../platform/errors.js';
import type { OutboxAttempt } from '../../platform/outbox/outbox.js';
import { toAppointmentView } from '../appointments/appointment-view.js';
import type { AppOutbox } from '../messaging/messaging.js';
import {
  guardedLookup,
  NOT_PUBLIC_ADDRESS,
  NotPublicAddressError,
  postWebhook,
  resolveWithDns,
  WebhookTimeoutError,
  type ResolveHost,
} from './webhook-request.js';
import { standardWebhookSignature, webhookSignatureHeader } from './webhook-signature.js';
import { checkWebhookUrl } from './webhook-url.js';
import {
  createWebhooksRepository,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks-repository.js';

export const WEBHOOK_TOPIC = 'webhook';
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Requests in flight to one endpoint from one process; more wait (deferred, not tried). */
export const WEBHOOK_ENDPOINT_CONCURRENCY = 4;
/** How long a delivery waits when its endpoint already has that many requests in flight. */
export const WEBHOOK_BUSY_RETRY_MS = 1000;
/** Failed tries in a row after which an endpoint's circuit breaker opens… */
export const WEBHOOK_BREAKER_THRESHOLD = 5;
/** …for this long: its deliveries wait, then the next failure opens it again at once. */
export const WEBHOOK_BREAKER_COOLDOWN_MS = 60_000;
/** Each event costs a row and a request per endpoint: a clinic needs a few, not hundreds. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** After a rotation the replaced secret signs beside the new one this long (ADR 030). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

/** The outbox row of one delivery: the exact body, so every retry sends (and signs) the same bytes. */
const deliveryPayloadSchema = z.object({ deliveryId: z.number().int(), body: z.string() });

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

const endpointNotFound = (id: number) =>
  new AppError('not_found', 404, `No webhook endpoint ${id} in this clinic`);
const deliveryNotFound = (id: number) =>
  new AppError('not_found', 404, `No webhook delivery ${id} in this clinic`);
/** A 409 of a retry, with its reason for the caller to tell (`details.reason`). */
const retryRefused = (reason: WebhookRetryRefusal, message: string) =>
  new AppError('conflict', 409, message, { reason });

/** `whsec_` and 24 random bytes in base64: what Standard Webhooks libraries take as is. */
const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/** Listed in the documented order, once each. */
const eventList = (events: readonly WebhookEventType[]): WebhookEventType[] =>
  webhookEventTypes.filter((type) => events.includes(type));

function endpointView(row: WebhookEndpointRow, secret?: string): WebhookEndpointWithSecret {
  return {
    id: row.id,
    url: row.url,
    events: eventList(row.events),
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}

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
 * Webhook endpoints, and events: `emit*` run inside the transaction of the change they report
 * and write one delivery row and one outbox row per subscribed endpoint, so an event exists
 * exactly when the change commits. The outbox then calls `deliver`, which POSTs the signed body
 * and retries with the outbox's backoff until a 2xx, for 48 hours. At least once: receivers
 * de-duplicate by the event id.
 */
/** A signing secret is bound to its endpoint's row. */
const secretAt = (endpointId: number) => sealedAt('webhook_endpoints', 'secret', endpointId);
const previousSecretAt = (endpointId: number) =>
  sealedAt('webhook_endpoints', 'previous_secret', endpointId);
/** A delivery's body, kept until it is delivered (for a retry), is bound to its row. */
const deliveryBodyAt = (deliveryId: number) => sealedAt('webhook_deliveries', 'body', deliveryId);

export function createWebhooks(deps: WebhooksDeps) {
  const { outbox, clock, secretKey, publicOrigin, production, publicOnly } = deps;
  const repository = createWebhooksRepository(deps.db);
  const lookup = guardedLookup(deps.resolveHost ?? resolveWithDns, publicOnly);
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  /** Requests in flight per endpoint id, in this process. */
  const inFlight = new Map<number, number>();

  function checkedUrl(url: string): string {
    const checked = checkWebhookUrl(url, { httpsOnly: production, publicOnly });
    if ('problem' in checked) throw invalidField('url', checked.problem);
    return checked.url;
  }

  /** Emits the event to the subscribed endpoints; `data` is built only when there is one. */
  async function emitWith<T extends WebhookEventType>(
    executor: Executor,
    clinicId: number,
    type: T,
    data: () => Promise<WebhookEventData[T]>,
  ): Promise<number> {
    const endpoints = await repository.listSubscribed(executor, clinicId, type);
    if (endpoints.length === 0) return 0;
    const createdAt = new Date(clock());
    const eventId = `evt_${randomToken(18)}`;
    const body = JSON.stringify({
      id: eventId,
      type,
      created_at: createdAt.toISOString(),
      clinic_id: clinicId,
      data: await data(),
    });
    const deliveries = await repository.insertDeliveries(
      executor,
      endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        clinicId,
        eventId,
        eventType: type,
        status: 'pending' as const,
        createdAt,
      })),
    );
    for (const delivery of deliveries) {
      await repository.setDeliveryBody(
        executor,
        delivery.id,
        encryptText(secretKey, body, deliveryBodyAt(delivery.id)),
      );
      await outbox.enqueue(executor, {
        topic: WEBHOOK_TOPIC,
        payload: { deliveryId: delivery.id, body },
        lane: 'webhooks',
      });
    }
    return deliveries.length;
  }

  async function appointmentData(
    executor: Executor,
    appointmentId: number,
  ): Promise<AppointmentEventData> {
    const row = await repository.findAppointment(executor, appointmentId);
    if (!row) throw new Error(`webhooks: no appointment ${appointmentId}`);
    return toAppointmentView(row);
  }

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

  /**
   * The columns of a rotation: the new secret, and the one it replaces kept signing for
   * WEBHOOK_SECRET_OVERLAP_MS (a second rotation within that time drops the first secret).
   */
  async function rotatedSecrets(
    tx: Executor,
    clinicId: number,
    id: number,
    secret: string,
    at: Date,
  ): Promise<Partial<WebhookEndpointRow>> {
    const row = await repository.findEndpoint(tx, clinicId, id, { forUpdate: true });
    if (!row) throw endpointNotFound(id);
    const replaced = decryptText(secretKey, row.secret, secretAt(id));
    return {
      secret: encryptText(secretKey, secret, secretAt(id)),
      previousSecret: encryptText(secretKey, replaced, previousSecretAt(id)),
      previousSecretUntil: new Date(at.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
    };
  }

  return {
    /**
     * Emits an event in the caller's transaction (payment events and any other whose data the
     * caller has at hand); resolves with how many endpoints will receive it. Call `kick()` after
     * the commit so it leaves at once.
     */
    emit(executor: Executor, event: { clinicId: number } & WebhookEventPayload): Promise<number> {
      return emitWith(executor, event.clinicId, event.type, async () => event.data);
    },

    /** appointment.booked or appointment.cancelled, with the appointment as it now stands. */
    async emitAppointment(
      executor: Executor,
      type: 'appointment.booked' | 'appointment.cancelled',
      appointment: { id: number; clinicId: number },
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, type, () =>
        appointmentData(executor, appointment.id),
      );
    },

    /** appointment.rescheduled: the appointment as it now stands, and its slot before the move. */
    async emitAppointmentRescheduled(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      previous: AppointmentRescheduledEventData['previous'],
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, 'appointment.rescheduled', async () => ({
        ...(await appointmentData(executor, appointment.id)),
        previous,
      }));
    },

    /** appointment.calendar_conflict: the appointment as it stands, and what clashes with it. */
    async emitAppointmentConflict(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      conflict: AppointmentCalendarConflictEventData['conflict'],
    ): Promise<number> {
      return emitWith(
        executor,
        appointment.clinicId,
        'appointment.calendar_conflict',
        async () => ({
          ...(await appointmentData(executor, appointment.id)),
          conflict,
        }),
      );
    },

    /** appointment.reminded: the appointment as it now stands, and the reminder just queued. */
    async emitAppointmentReminded(
      executor: Executor,
      appointment: { id: number; clinicId: number },
      reminder: AppointmentRemindedEventData['reminder'],
    ): Promise<number> {
      return emitWith(executor, appointment.clinicId, 'appointment.reminded', async () => ({
        ...(await appointmentData(executor, appointment.id)),
        reminder,
      }));
    },

    /** form.submitted: where the answers can be read with an API key, never the answers. */
    async emitFormSubmitted(
      executor: Executor,
      submission: { clinicId: number; requestId: number; templateId: number | null; at: Date },
    ): Promise<number> {
      return emitWith(executor, submission.clinicId, 'form.submitted', async () => ({
        request_id: submission.requestId,
        template_id: submission.templateId,
        submitted_at: submission.at.toISOString(),
        submission_url: `${publicOrigin}/api/integration/form-requests/${submission.requestId}/submission`,
      }));
    },

    // Every lane: a caller may have queued other work (messages) in the same transaction.
    kick: () => outbox.kick(),

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

    async createEndpoint(
      caller: WebhooksCaller,
      body: CreateWebhookEndpointBody,
    ): Promise<WebhookEndpointWithSecret> {
      const url = checkedUrl(body.url);
      const secret = body.secret ?? newSecret();
      const at = new Date(clock());
      return repository.db.transaction(async (tx) => {
        if ((await repository.countEndpoints(tx, caller.clinicId)) >= MAX_WEBHOOK_ENDPOINTS) {
          throw new AppError(
            'conflict',
            409,
            `A clinic has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
          );
        }
        const id = await repository.nextEndpointId(tx);
        const row = await repository.insertEndpoint(tx, {
          id,
          clinicId: caller.clinicId,
          url,
          secret: encryptText(secretKey, secret, secretAt(id)),
          events: eventList(body.events ?? []),
          isActive: body.is_active ?? true,
          createdAt: at,
          updatedAt: at,
        });
        await audit(tx, {
          clinicId: caller.clinicId,
          actor: caller.actor,
          action: 'webhook_endpoint.create',
          targetType: 'webhook_endpoint',
          targetId: row.id,
          details: { url, events: row.events, is_active: row.isActive },
          at,
        });
        return endpointView(row, secret);
      });
    },

    async listEndpoints(clinicId: number): Promise<WebhookEndpoint[]> {
      return (await repository.listEndpoints(clinicId)).map((row) => endpointView(row));
    },

    async getEndpoint(clinicId: number, id: number): Promise<WebhookEndpoint> {
      const row = isStoredId(id)
        ? await repository.findEndpoint(repository.db, clinicId, id)
        : null;
      if (!row) throw endpointNotFound(id);
      return endpointView(row);
    },

    async updateEndpoint(
      caller: WebhooksCaller,
      id: number,
      body: UpdateWebhookEndpointBody,
    ): Promise<WebhookEndpointWithSecret> {
      if (!isStoredId(id)) throw endpointNotFound(id);
      const url = body.url === undefined ? undefined : checkedUrl(body.url);
      const events = body.events === undefined ? undefined : eventList(body.events);
      const secret = body.rotate_secret ? newSecret() : undefined;
      const at = new Date(clock());
      return repository.db.transaction(async (tx) => {
        const rotation =
          secret === undefined ? {} : await rotatedSecrets(tx, caller.clinicId, id, secret, at);
        const row = await repository.updateEndpoint(tx, caller.clinicId, id, {
          url,
          events,
          isActive: body.is_active,
          ...rotation,
          updatedAt: at,
        });
        if (!row) throw endpointNotFound(id);
        await audit(tx, {
          clinicId: caller.clinicId,
          actor: caller.actor,
          action: 'webhook_endpoint.update',
          targetType: 'webhook_endpoint',
          targetId: id,
          details: {
            ...(url === undefined ? {} : { url }),
            ...(events === undefined ? {} : { events }),
            ...(body.is_active === undefined ? {} : { is_active: body.is_active }),
            ...(secret === undefined ? {} : { secret_rotated: true }),
          },
          at,
        });
        return endpointView(row, secret);
      });
    },

    /** Deletes the endpoint and its delivery log; deliveries still queued are dropped. */
    async deleteEndpoint(caller: WebhooksCaller, id: number): Promise<void> {
      if (!isStoredId(id)) throw endpointNotFound(id);
      const at = new Date(clock());
      await repository.db.transaction(async (tx) => {
        const row = await repository.deleteEndpoint(tx, caller.clinicId, id);
        if (!row) throw endpointNotFound(id);
        await audit(tx, {
          clinicId: caller.clinicId,
          actor: caller.actor,
          action: 'webhook_endpoint.delete',
          targetType: 'webhook_endpoint',
          targetId: id,
          details: { url: row.url },
          at,
        });
      });
    },

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

export type Webhooks = ReturnType<typeof createWebhooks>;
