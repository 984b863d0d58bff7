import { and, desc, eq, gt, inArray, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  formDrafts,
  formRequests,
  formSubmissions,
  formTemplates,
  isStoredId,
  type FormRequestStatus,
} from '../../platform/db/schema.js';

export type FormRequestRow = typeof formRequests.$inferSelect;
export type NewFormRequest = typeof formRequests.$inferInsert;
export type NewFormSubmission = typeof formSubmissions.$inferInsert;

/** A stored status, or `expired`: pending past its expiry. */
export type FormRequestListStatus = FormRequestStatus | 'expired';

export interface FormRequestListQuery {
  status?: FormRequestListStatus;
  /** Only requests with a smaller id (older). */
  before?: number;
  limit: number;
}

/** What the clinic sees of a request (never its token), with its template's name. */
const clinicRequestColumns = {
  id: formRequests.id,
  templateId: formRequests.templateId,
  templateName: formRequests.templateName,
  status: formRequests.status,
  createdAt: formRequests.createdAt,
  expiresAt: formRequests.expiresAt,
  submittedAt: formRequests.submittedAt,
};

export function createFormsRepository(db: Database) {
  return {
    db,

    /** The clinic's template, with what a link needs from the clinic; null if either is unknown. */
    async findTemplate(clinicId: number, templateId: number, ex: Executor = db) {
      if (!isStoredId(clinicId) || !isStoredId(templateId)) return null;
      const [row] = await ex
        .select({
          id: formTemplates.id,
          name: formTemplates.name,
          schema: formTemplates.schema,
          logoUrl: clinics.logoUrl,
        })
        .from(formTemplates)
        .innerJoin(clinics, eq(clinics.id, formTemplates.clinicId))
        .where(and(eq(formTemplates.id, templateId), eq(formTemplates.clinicId, clinicId)));
      return row ?? null;
    },

    async findTemplateByName(clinicId: number, name: string) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db
        .select({ id: formTemplates.id })
        .from(formTemplates)
        .where(and(eq(formTemplates.clinicId, clinicId), eq(formTemplates.name, name)));
      return row ?? null;
    },

    async insertRequest(request: NewFormRequest, ex: Executor = db) {
      const [row] = await ex
        .insert(formRequests)
        .values(request)
        .returning({ id: formRequests.id });
      if (!row) throw new Error('form request not saved');
      return row.id;
    },

    async findRequest(tokenHash: string) {
      const [row] = await db
        .select()
        .from(formRequests)
        .where(eq(formRequests.tokenHash, tokenHash));
      return row ?? null;
    },

    /** The request and its clinic's time zone, locked until the transaction ends: one submit at a time. */
    async lockRequest(tx: Executor, tokenHash: string) {
      const [row] = await tx
        .select({ request: formRequests, timezone: clinics.timezone })
        .from(formRequests)
        .innerJoin(clinics, eq(clinics.id, formRequests.clinicId))
        .where(eq(formRequests.tokenHash, tokenHash))
        .for('update', { of: formRequests });
      return row ?? null;
    },

    async findSubmission(ex: Executor, requestId: number) {
      const [row] = await ex
        .select()
        .from(formSubmissions)
        .where(eq(formSubmissions.requestId, requestId));
      return row ?? null;
    },

    async insertSubmission(ex: Executor, submission: NewFormSubmission) {
      await ex.insert(formSubmissions).values(submission);
    },

    /** The clinic's requests, newest first; `now` tells pending from expired. */
    async listRequests(clinicId: number, query: FormRequestListQuery, now: Date) {
      if (!isStoredId(clinicId)) return [];
      const where: SQL[] = [eq(formRequests.clinicId, clinicId)];
      if (query.before !== undefined) where.push(lt(formRequests.id, query.before));
      if (query.status === 'pending' || query.status === 'expired') {
        where.push(eq(formRequests.status, 'pending'));
        where.push(
          query.status === 'pending'
            ? gt(formRequests.expiresAt, now)
            : lte(formRequests.expiresAt, now),
        );
      } else if (query.status) {
        where.push(eq(formRequests.status, query.status));
      }
      return db
        .select(clinicRequestColumns)
        .from(formRequests)
        .where(and(...where))
        .orderBy(desc(formRequests.id))
        .limit(query.limit);
    },

    async findClinicRequest(clinicId: number, requestId: number, ex: Executor = db) {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return null;
      const [row] = await ex
        .select(clinicRequestColumns)
        .from(formRequests)
        .where(and(eq(formRequests.id, requestId), eq(formRequests.clinicId, clinicId)));
      return row ?? null;
    },

    /** A request with what its printout needs: its form and initData, the clinic's name and zone. */
    async findRequestForPrint(clinicId: number, requestId: number) {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return null;
      const [row] = await db
        .select({
          id: formRequests.id,
          schema: formRequests.schema,
          initData: formRequests.initData,
          tokenHash: formRequests.tokenHash,
          templateName: formRequests.templateName,
          clinicName: clinics.name,
          timezone: clinics.timezone,
        })
        .from(formRequests)
        .innerJoin(clinics, eq(clinics.id, formRequests.clinicId))
        .where(and(eq(formRequests.id, requestId), eq(formRequests.clinicId, clinicId)));
      return row ?? null;
    },

    /** Pending → cancelled; false when the clinic has no such pending request. */
    async cancelRequest(ex: Executor, clinicId: number, requestId: number): Promise<boolean> {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return false;
      const rows = await ex
        .update(formRequests)
        .set({ status: 'cancelled' })
        .where(
          and(
            eq(formRequests.id, requestId),
            eq(formRequests.clinicId, clinicId),
            eq(formRequests.status, 'pending'),
          ),
        )
        .returning({ id: formRequests.id });
      return rows.length > 0;
    },

    async findDraft(requestId: number) {
      const [row] = await db
        .select({ draft: formDrafts.draft })
        .from(formDrafts)
        .where(eq(formDrafts.requestId, requestId));
      return row?.draft ?? null;
    },

    /** Writes the draft of a request that is pending and unexpired at `now`; false otherwise. */
    async saveDraft(tokenHash: string, now: Date, seal: (requestId: number) => string) {
      return db.transaction(async (tx) => {
        // The request's lock orders a save against a submit: none lands after the submit's delete.
        const [request] = await tx
          .select({ id: formRequests.id })
          .from(formRequests)
          .where(
            and(
              eq(formRequests.tokenHash, tokenHash),
              eq(formRequests.status, 'pending'),
              gt(formRequests.expiresAt, now),
            ),
          )
          .for('update');
        if (!request) return false;
        const draft = seal(request.id);
        await tx
          .insert(formDrafts)
          .values({ requestId: request.id, draft, updatedAt: now })
          .onConflictDoUpdate({ target: formDrafts.requestId, set: { draft, updatedAt: now } });
        return true;
      });
    },

    async deleteDraft(ex: Executor, requestId: number) {
      await ex.delete(formDrafts).where(eq(formDrafts.requestId, requestId));
    },

    /** Deletes the drafts of links used, cancelled or expired at `now`. */
    async pruneDrafts(now: Date) {
      const ended = db
        .select({ id: formRequests.id })
        .from(formRequests)
        .where(or(ne(formRequests.status, 'pending'), lte(formRequests.expiresAt, now)));
      await db.delete(formDrafts).where(inArray(formDrafts.requestId, ended));
    },

    async markSubmitted(ex: Executor, requestId: number, at: Date) {
      await ex
        .update(formRequests)
        .set({ status: 'submitted', submittedAt: at })
        .where(eq(formRequests.id, requestId));
    },
  };
}

export type FormsRepository = ReturnType<typeof createFormsRepository>;
