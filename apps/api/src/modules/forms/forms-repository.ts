import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  clinics,
  formRequests,
  formSubmissions,
  formTemplates,
  isStoredId,
} from '../../platform/db/schema.js';

export type FormRequestRow = typeof formRequests.$inferSelect;
export type NewFormRequest = typeof formRequests.$inferInsert;
export type NewFormSubmission = typeof formSubmissions.$inferInsert;

export function createFormsRepository(db: Database) {
  return {
    db,

    /** The clinic's template, with what a link needs from the clinic; null if either is unknown. */
    async findTemplate(clinicId: number, templateId: number) {
      if (!isStoredId(clinicId) || !isStoredId(templateId)) return null;
      const [row] = await db
        .select({
          id: formTemplates.id,
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

    async insertRequest(request: NewFormRequest) {
      const [row] = await db
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

    async markSubmitted(ex: Executor, requestId: number, at: Date) {
      await ex
        .update(formRequests)
        .set({ status: 'submitted', submittedAt: at })
        .where(eq(formRequests.id, requestId));
    },
  };
}

export type FormsRepository = ReturnType<typeof createFormsRepository>;
