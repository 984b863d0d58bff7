import { and, asc, eq, ne } from 'drizzle-orm';
import type { FormSchema } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Database, Executor } from '../../platform/db/client.js';
import { formTemplates, isStoredId } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

export type FormTemplateRow = typeof formTemplates.$inferSelect;

export interface FormTemplateChange {
  name?: string;
  /** Already checked against formTemplateSchemaSchema (the route's body schema). */
  schema?: FormSchema;
}

const notFound = (id: number) => new AppError('not_found', 404, `No form template ${id}`);

/**
 * A clinic's intake-form templates. Links already sent keep their own copy of the form, so
 * editing or deleting a template never changes them (a deleted template's requests keep
 * `template_id` null).
 */
export function createFormTemplates(deps: { db: Database; clock: () => number }) {
  const { db, clock } = deps;

  async function find(ex: Executor, clinicId: number, id: number) {
    if (!isStoredId(clinicId) || !isStoredId(id)) return null;
    const [row] = await ex
      .select()
      .from(formTemplates)
      .where(and(eq(formTemplates.id, id), eq(formTemplates.clinicId, clinicId)));
    return row ?? null;
  }

  /** 409 when another template of the clinic has the name (the unique index is the backstop). */
  async function assertNameFree(ex: Executor, clinicId: number, name: string, exceptId?: number) {
    const [taken] = await ex
      .select({ id: formTemplates.id })
      .from(formTemplates)
      .where(
        and(
          eq(formTemplates.clinicId, clinicId),
          eq(formTemplates.name, name),
          exceptId === undefined ? undefined : ne(formTemplates.id, exceptId),
        ),
      );
    if (taken) {
      throw new AppError('conflict', 409, `The clinic already has a form template named ${name}`, {
        template_id: taken.id,
      });
    }
  }

  return {
    async list(clinicId: number): Promise<FormTemplateRow[]> {
      return db
        .select()
        .from(formTemplates)
        .where(eq(formTemplates.clinicId, clinicId))
        .orderBy(asc(formTemplates.id));
    },

    async get(clinicId: number, id: number): Promise<FormTemplateRow> {
      const row = await find(db, clinicId, id);
      if (!row) throw notFound(id);
      return row;
    },

    async create(
      clinicId: number,
      input: { name: string; schema: FormSchema },
      actor: string,
    ): Promise<FormTemplateRow> {
      const at = new Date(clock());
      return db.transaction(async (tx) => {
        await assertNameFree(tx, clinicId, input.name);
        const [row] = await tx
          .insert(formTemplates)
          .values({
            clinicId,
            name: input.name,
            schema: input.schema,
            createdAt: at,
            updatedAt: at,
          })
          .returning();
        if (!row) throw new Error('form template not saved');
        await audit(tx, {
          clinicId,
          actor,
          action: 'form_template.create',
          targetType: 'form_template',
          targetId: row.id,
          details: { name: row.name },
          at,
        });
        return row;
      });
    },

    /** Replaces what `change` names (PUT names both, PATCH either). */
    async update(
      clinicId: number,
      id: number,
      change: FormTemplateChange,
      actor: string,
    ): Promise<FormTemplateRow> {
      const at = new Date(clock());
      return db.transaction(async (tx) => {
        const current = await find(tx, clinicId, id);
        if (!current) throw notFound(id);
        if (change.name !== undefined && change.name !== current.name) {
          await assertNameFree(tx, clinicId, change.name, id);
        }
        const [row] = await tx
          .update(formTemplates)
          .set({ ...change, updatedAt: at })
          .where(eq(formTemplates.id, id))
          .returning();
        if (!row) throw notFound(id);
        await audit(tx, {
          clinicId,
          actor,
          action: 'form_template.update',
          targetType: 'form_template',
          targetId: id,
          details: {
            name: row.name,
            ...(row.name !== current.name ? { previous_name: current.name } : {}),
            changed: Object.keys(change).sort(),
          },
          at,
        });
        return row;
      });
    },

    async remove(clinicId: number, id: number, actor: string): Promise<void> {
      const at = new Date(clock());
      await db.transaction(async (tx) => {
        if (!isStoredId(clinicId) || !isStoredId(id)) throw notFound(id);
        const [row] = await tx
          .delete(formTemplates)
          .where(and(eq(formTemplates.id, id), eq(formTemplates.clinicId, clinicId)))
          .returning({ name: formTemplates.name });
        if (!row) throw notFound(id);
        await audit(tx, {
          clinicId,
          actor,
          action: 'form_template.delete',
          targetType: 'form_template',
          targetId: id,
          details: { name: row.name },
          at,
        });
      });
    },
  };
}

export type FormTemplates = ReturnType<typeof createFormTemplates>;
