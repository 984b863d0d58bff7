import {
  errorBodySchema,
  messageFailureListSchema,
  messageFailuresQuerySchema,
  type MessageFailure,
  type MessageFailuresQuery,
} from '@marpe/shared';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decryptText, sealingKey, type SealingKey } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { outbox } from '../../platform/db/schema.js';
import { outboxPayloadAt } from '../../platform/outbox/outbox.js';
import {
  callerOf,
  refuseNulCharacters,
  registerIntegrationRoutes,
} from '../../platform/http/integration-routes.js';
import { messageRemainsSchema, SMS_TOPIC } from './messaging.js';
import { WHATSAPP_TOPIC } from './whatsapp-channel.js';

export interface MessageFailuresRoutesOptions {
  db: Database;
  /** The outbox's sealing key: `sealingKey(dataKeys, 'outbox')`. */
  key: SealingKey;
}

const tags = ['integration'];

/** A mobile number with its middle hidden: 052-***-0001 (enough to recognise, not to dial). */
export function maskPhone(phone: string): string {
  return /^05\d{8}$/.test(phone) ? `${phone.slice(0, 3)}-***-${phone.slice(6)}` : '***';
}

/** Whom and what a given-up message was for, from what its row kept; nothing when unreadable. */
function remainsOf(key: SealingKey, id: number, sealed: string | null) {
  if (sealed === null) return null;
  try {
    const parsed = messageRemainsSchema.safeParse(
      JSON.parse(decryptText(key, sealed, outboxPayloadAt(id))),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The clinic's messages that did not go, newest first (the outbox's partial index on
 * (clinic_id, id) for failed and expired rows).
 */
export async function listMessageFailures(
  db: Database,
  key: SealingKey,
  clinicId: number,
  query: MessageFailuresQuery,
): Promise<MessageFailure[]> {
  const rows = await db
    .select({
      id: outbox.id,
      topic: outbox.topic,
      lane: outbox.lane,
      status: outbox.status,
      payload: outbox.payload,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      processedAt: outbox.processedAt,
    })
    .from(outbox)
    .where(
      and(
        eq(outbox.clinicId, clinicId),
        inArray(outbox.status, ['failed', 'expired']),
        inArray(outbox.topic, [SMS_TOPIC, WHATSAPP_TOPIC]),
        query.before === undefined ? undefined : lt(outbox.id, query.before),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(query.limit);
  return rows.map((row) => {
    const remains = remainsOf(key, row.id, row.payload);
    return {
      id: row.id,
      kind: remains?.kind ?? (row.lane === 'codes' ? 'login_code' : 'other'),
      channel: row.topic === WHATSAPP_TOPIC ? 'whatsapp' : 'sms',
      recipient: remains ? maskPhone(remains.to) : null,
      status: row.status === 'expired' ? 'expired' : 'failed',
      // The claim that found a row expired counted an attempt it never made.
      attempts: row.status === 'expired' ? Math.max(row.attempts - 1, 0) : row.attempts,
      last_error: row.lastError,
      created_at: row.createdAt.toISOString(),
      ended_at: row.processedAt?.toISOString() ?? null,
    };
  });
}

/** `/api/integration/message-failures` (owners): the clinic's messages that did not reach patients. */
export const messageFailuresRoutes: FastifyPluginAsyncZod<MessageFailuresRoutesOptions> = async (
  app,
  { db, key },
) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/message-failures',
    {
      schema: {
        tags,
        summary:
          "The clinic's messages (SMS or WhatsApp: codes, appointment details, reminders, links, waitlist offers) that failed (refused for good, such as an invalid number, or after 48 hours of tries) or expired unsent, newest first: what each was for, the recipient masked (never the text), tries and the last error; `before` (an id) pages on",
        querystring: messageFailuresQuerySchema,
        response: {
          200: messageFailureListSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => listMessageFailures(db, key, callerOf(request).clinicId, request.query),
  );
};

/** The messaging module's clinic routes (owners only); after registerIntegration. */
export async function registerMessagingRoutes(app: FastifyInstance, db: Database): Promise<void> {
  const key = sealingKey(app.dataKeys, 'outbox');
  await registerIntegrationRoutes(app, messageFailuresRoutes, { db, key }, 'owner');
}
