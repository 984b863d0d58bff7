import { and, desc, eq, lt } from 'drizzle-orm';
import {
  auditLogQuerySchema,
  auditLogSchema,
  errorBodySchema,
  type AuditLogEntry,
  type AuditLogQuery,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../platform/db/client.js';
import { auditLog } from '../../platform/db/schema.js';
import { callerOf, refuseNulCharacters } from './integration-auth.js';

export interface AuditLogRoutesOptions {
  db: Database;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** The clinic's audit entries, newest first. */
async function listAuditLogRows(
  ex: Executor,
  clinicId: number,
  page: { limit: number; before?: number },
) {
  return ex
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.clinicId, clinicId),
        page.before === undefined ? undefined : lt(auditLog.id, page.before),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(page.limit);
}

async function listAuditLog(
  db: Database,
  clinicId: number,
  query: AuditLogQuery,
): Promise<AuditLogEntry[]> {
  const rows = await listAuditLogRows(db, clinicId, query);
  return rows.map((row) => ({
    id: row.id,
    actor: row.actor,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    details: row.details,
    created_at: row.createdAt.toISOString(),
  }));
}

/**
 * `/api/integration/audit-log`: what every module wrote through platform/audit.ts about the key's
 * clinic.
 */
export const auditLogRoutes: FastifyPluginAsyncZod<AuditLogRoutesOptions> = async (app, { db }) => {
  const clinicIdOf = (request: Parameters<typeof callerOf>[0]) => callerOf(request).clinicId;

  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/audit-log',
    {
      schema: {
        tags,
        summary:
          "Who changed the clinic's data and when (API keys, the operator's CLI…), newest first; `before` (an entry id) pages on",
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema, ...readErrors },
      },
    },
    async (request) => listAuditLog(db, clinicIdOf(request), request.query),
  );
};
