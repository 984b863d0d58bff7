import {
  WEBHOOK_SECRET_PREFIX,
  webhookEventTypes,
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@marpe/shared';
import { randomBytes } from 'node:crypto';
import { audit } from '../../platform/audit.js';
import { decryptText, encryptText } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { isStoredId } from '../../platform/db/schema.js';
import { AppError, invalidField } from '../../platform/errors.js';
import { checkWebhookUrl } from './webhook-url.js';
import {
  endpointNotFound,
  previousSecretAt,
  secretAt,
  type WebhooksCaller,
  type WebhooksDeps,
} from './webhooks-deps.js';
import type { WebhookEndpointRow, WebhooksRepository } from './webhooks-repository.js';

/** Each event costs a row and a request per endpoint: a clinic needs a few, not hundreds. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** After a rotation the replaced secret signs beside the new one this long (ADR 030). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

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

/** The clinic's endpoints: each change in one transaction with its audit entry. */
export function createWebhookEndpoints(
  {
    clock,
    secretKey,
    production,
    publicOnly,
  }: Pick<WebhooksDeps, 'clock' | 'secretKey' | 'production' | 'publicOnly'>,
  repository: WebhooksRepository,
) {
  function checkedUrl(url: string): string {
    const checked = checkWebhookUrl(url, { httpsOnly: production, publicOnly });
    if ('problem' in checked) throw invalidField('url', checked.problem);
    return checked.url;
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
  };
}
