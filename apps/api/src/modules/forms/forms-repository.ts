import {
  and,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { FormRequestStage } from '@marpe/shared';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  formDrafts,
  formRequests,
  formSubmissions,
  formTemplates,
  isStoredId,
  patients,
  type FormRequestStatus,
} from '../../platform/db/schema.js';
import { addDaysToLocalDate, startOfZonedDay } from '../../platform/zoned-time.js';

export type FormRequestRow = typeof formRequests.$inferSelect;
export type NewFormRequest = typeof formRequests.$inferInsert;
export type NewFormSubmission = typeof formSubmissions.$inferInsert;

/** A stored status, or `expired`: pending past its expiry. */
export type FormRequestListStatus = FormRequestStatus | 'expired';

/** Where a request stands as the desk shows it (`status`, and for a pending one how far it got). */
export type FormRequestListStage = FormRequestStage;

export interface FormRequestListQuery {
  status?: FormRequestListStatus;
  stage?: FormRequestListStage;
  /** Only this patient's (their ID number, 9 digits). */
  patientIdNumber?: string;
  /** Made on or after this day, on the clinic's clocks (YYYY-MM-DD). */
  from?: string;
  /** Made on or before this day, on the clinic's clocks (YYYY-MM-DD). */
  to?: string;
  /** Only requests with a smaller id (older). */
  before?: number;
  limit: number;
}

/**
 * What the clinic sees of a request (never its token), with its template's name, its patient's
 * name as the clinic has it now, and when its draft was last kept.
 */
const clinicRequestColumns = {
  id: formRequests.id,
  patientIdNumber: formRequests.patientIdNumber,
  patientName: sql<string>`coalesce(${patients.firstName} || ' ' || ${patients.lastName}, '')`,
  templateId: formRequests.templateId,
  templateName: formRequests.templateName,
  status: formRequests.status,
  createdAt: formRequests.createdAt,
  expiresAt: formRequests.expiresAt,
  openedAt: formRequests.openedAt,
  draftSavedAt: formDrafts.updatedAt,
  submittedAt: formRequests.submittedAt,
};

/** A pending request that has not expired at `now`. */
const live = (now: Date) =>
  and(eq(formRequests.status, 'pending'), gt(formRequests.expiresAt, now));

/** The conditions of a status or a stage at `now`. */
function stateFilter(state: FormRequestListStatus | FormRequestListStage, now: Date): SQL[] {
  switch (state) {
    case 'pending':
      return [live(now) as SQL];
    case 'expired':
      return [eq(formRequests.status, 'pending'), lte(formRequests.expiresAt, now)];
    case 'sent':
      return [live(now) as SQL, isNull(formRequests.openedAt), isNull(formDrafts.requestId)];
    case 'opened':
      return [live(now) as SQL, isNotNull(formRequests.openedAt), isNull(formDrafts.requestId)];
    case 'draft_saved':
      return [live(now) as SQL, isNotNull(formDrafts.requestId)];
    default:
      return [eq(formRequests.status, state)];
  }
}

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
      if (query.status) where.push(...stateFilter(query.status, now));
      if (query.stage) where.push(...stateFilter(query.stage, now));
      if (query.patientIdNumber !== undefined) {
        where.push(eq(formRequests.patientIdNumber, query.patientIdNumber));
      }
      if (query.from !== undefined || query.to !== undefined) {
        const [clinic] = await db
          .select({ timezone: clinics.timezone })
          .from(clinics)
          .where(eq(clinics.id, clinicId));
        if (!clinic) return [];
        if (query.from !== undefined) {
          where.push(
            gte(formRequests.createdAt, new Date(startOfZonedDay(query.from, clinic.timezone))),
          );
        }
        if (query.to !== undefined) {
          const next = addDaysToLocalDate(query.to, 1);
          where.push(lt(formRequests.createdAt, new Date(startOfZonedDay(next, clinic.timezone))));
        }
      }
      return db
        .select(clinicRequestColumns)
        .from(formRequests)
        .leftJoin(formDrafts, eq(formDrafts.requestId, formRequests.id))
        .leftJoin(
          patients,
          and(
            eq(patients.clinicId, formRequests.clinicId),
            eq(patients.idNumber, formRequests.patientIdNumber),
          ),
        )
        .where(and(...where))
        .orderBy(desc(formRequests.id))
        .limit(query.limit);
    },

    async findClinicRequest(clinicId: number, requestId: number, ex: Executor = db) {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return null;
      const [row] = await ex
        .select(clinicRequestColumns)
        .from(formRequests)
        .leftJoin(formDrafts, eq(formDrafts.requestId, formRequests.id))
        .leftJoin(
          patients,
          and(
            eq(patients.clinicId, formRequests.clinicId),
            eq(patients.idNumber, formRequests.patientIdNumber),
          ),
        )
        .where(and(eq(formRequests.id, requestId), eq(formRequests.clinicId, clinicId)));
      return row ?? null;
    },

    /** The clinic's patient of that ID number, with the clinic's name (a link's initData); or null. */
    async findPatient(clinicId: number, idNumber: string, ex: Executor = db) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await ex
        .select({
          firstName: patients.firstName,
          lastName: patients.lastName,
          idNumber: patients.idNumber,
          phone: patients.phone,
          clinicName: clinics.name,
        })
        .from(patients)
        .innerJoin(clinics, eq(clinics.id, patients.clinicId))
        .where(and(eq(patients.clinicId, clinicId), eq(patients.idNumber, idNumber)));
      return row ?? null;
    },

    /** The clinic's request, locked until the transaction ends (a resend replaces its token). */
    async lockClinicRequest(tx: Executor, clinicId: number, requestId: number) {
      if (!isStoredId(clinicId) || !isStoredId(requestId)) return null;
      const [row] = await tx
        .select()
        .from(formRequests)
        .where(and(eq(formRequests.id, requestId), eq(formRequests.clinicId, clinicId)))
        .for('update');
      return row ?? null;
    },

    /** A new token for a request: the old one stops working at once. */
    async replaceToken(
      tx: Executor,
      requestId: number,
      link: { tokenHash: string; initData: string; expiresAt: Date },
    ) {
      await tx.update(formRequests).set(link).where(eq(formRequests.id, requestId));
    },

    /** The first time the patient loads the link: when the desk says "opened". */
    async markOpened(requestId: number, at: Date) {
      await db
        .update(formRequests)
        .set({ openedAt: at })
        .where(and(eq(formRequests.id, requestId), isNull(formRequests.openedAt)));
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
