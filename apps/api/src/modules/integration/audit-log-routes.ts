import { and, desc, eq, gte, inArray, like, lt } from 'drizzle-orm';
import {
  auditLogQuerySchema,
  auditLogSchema,
  errorBodySchema,
  type AuditLogEntry,
  type AuditLogQuery,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../platform/db/client.js';
import { apiKeys, auditLog, staffAccounts } from '../../platform/db/schema.js';
import { callerOf, refuseNulCharacters } from '../../platform/http/integration-routes.js';

export interface AuditLogRoutesOptions {
  db: Database;
}

const tags = ['integration'];
const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** A LIKE pattern matching what starts with `prefix`, its own `%` and `_` taken literally. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The clinic's audit entries, newest first, narrowed by the query's filters. */
async function listAuditLogRows(ex: Executor, clinicId: number, query: AuditLogQuery) {
  return ex
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.clinicId, clinicId),
        query.before === undefined ? undefined : lt(auditLog.id, query.before),
        query.actor === undefined ? undefined : eq(auditLog.actor, query.actor),
        query.action === undefined ? undefined : like(auditLog.action, startsWith(query.action)),
        query.from === undefined ? undefined : gte(auditLog.createdAt, new Date(query.from)),
        query.to === undefined ? undefined : lt(auditLog.createdAt, new Date(query.to)),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(query.limit);
}

const idsOf = (actors: readonly string[], prefix: string): number[] => [
  ...new Set(
    actors
      .filter((actor) => actor.startsWith(prefix))
      .map((actor) => Number(actor.slice(prefix.length)))
      .filter((id) => Number.isSafeInteger(id) && id > 0),
  ),
];

/** The names of the staff members and keys among the actors (`staff:<id>`, `api_key:<id>`). */
async function actorNames(
  ex: Executor,
  clinicId: number,
  actors: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const staffIds = idsOf(actors, 'staff:');
  if (staffIds.length > 0) {
    const rows = await ex
      .select({ id: staffAccounts.id, name: staffAccounts.name })
      .from(staffAccounts)
      .where(inArray(staffAccounts.id, staffIds));
    for (const row of rows) names.set(`staff:${row.id}`, row.name);
  }
  const keyIds = idsOf(actors, 'api_key:');
  if (keyIds.length > 0) {
    const rows = await ex
      .select({ id: apiKeys.id, name: apiKeys.name })
      .from(apiKeys)
      .where(and(eq(apiKeys.clinicId, clinicId), inArray(apiKeys.id, keyIds)));
    for (const row of rows) names.set(`api_key:${row.id}`, row.name);
  }
  return names;
}

async function listAuditLog(
  db: Database,
  clinicId: number,
  query: AuditLogQuery,
): Promise<AuditLogEntry[]> {
  const rows = await listAuditLogRows(db, clinicId, query);
  const names = await actorNames(
    db,
    clinicId,
    rows.map((row) => row.actor),
  );
  return rows.map((row) => ({
    id: row.id,
    actor: row.actor,
    actor_name: names.get(row.actor) ?? null,
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
          "Who changed the clinic's data and when (API keys, desk staff as staff:<id> with actor_name, the operator's CLI…), newest first; `before` (an entry id) pages on; `actor` (exact), `action` (a prefix such as staff.) and `from`/`to` (ISO 8601 instants, [from, to)) narrow it",
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema, ...readErrors },
      },
    },
    async (request) => listAuditLog(db, clinicIdOf(request), request.query),
  );
};
