import {
  clinicPagePath,
  derivedSetupSteps,
  requiredSetupSteps,
  setupSteps,
  weekDays,
  type Closure,
  type ClosuresQuery,
  type CreateClosureBody,
  type SetupChecklist,
  type SetupStep,
} from '@marpe/shared';
import { and, asc, count, eq, exists, gte, inArray, lte, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.js';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  caregiverWorkingHours,
  clinicClosures,
  clinics,
  clinicSetupSteps,
  isStoredId,
} from '../../platform/db/schema.js';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import { zonedDate } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import type { WaitlistService } from '../waitlist/waitlist-service.js';
import type { ClinicDataCache } from './clinic-data-cache.js';

export interface SetupChecklistDeps {
  db: Database;
  /** Epoch milliseconds. */
  clock: () => number;
  /** The clinic page shows first free times, which a closure changes. */
  cache: Pick<ClinicDataCache, 'invalidate'>;
  /** A closure taken back frees a day that waiting patients may be offered. */
  waitlist: Pick<WaitlistService, 'queueOffers' | 'kick'>;
}

const closureNotFound = (id: number) =>
  new AppError('not_found', 404, `No closure ${id} in this clinic`);

/**
 * The desk's set-up checklist (which steps the clinic's data completes, which an owner marked
 * done) and the clinic's closures: dates the whole clinic is closed, which the availability engine
 * reads as a day off for every caregiver (availability-repository).
 */
export function createSetupChecklist({ db, clock, cache, waitlist }: SetupChecklistDeps) {
  async function clinicOf(ex: Executor, clinicId: number) {
    const [row] = isStoredId(clinicId)
      ? await ex
          .select({
            id: clinics.id,
            name: clinics.name,
            phone: clinics.phone,
            street: clinics.street,
            homeNumber: clinics.homeNumber,
            city: clinics.city,
            openingHours: clinics.openingHours,
            timezone: clinics.timezone,
          })
          .from(clinics)
          .where(eq(clinics.id, clinicId))
      : [];
    if (!row) throw clinicNotFound(clinicId);
    return row;
  }

  /** Whether an active caregiver has weekly hours and offers a type; whether any type exists. */
  async function staffing(ex: Executor, clinicId: number) {
    const [[caregiver], [type]] = await Promise.all([
      ex
        .select({ id: caregivers.id })
        .from(caregivers)
        .where(
          and(
            eq(caregivers.clinicId, clinicId),
            eq(caregivers.isActive, true),
            exists(
              ex
                .select({ one: sql`1` })
                .from(caregiverWorkingHours)
                .where(eq(caregiverWorkingHours.caregiverId, caregivers.id)),
            ),
            exists(
              ex
                .select({ one: sql`1` })
                .from(caregiverAppointmentTypes)
                .where(eq(caregiverAppointmentTypes.caregiverId, caregivers.id)),
            ),
          ),
        )
        .limit(1),
      ex
        .select({ id: appointmentTypes.id })
        .from(appointmentTypes)
        .where(eq(appointmentTypes.clinicId, clinicId))
        .limit(1),
    ]);
    return { caregivers: caregiver !== undefined, types: type !== undefined };
  }

  async function checklist(ex: Executor, clinicId: number): Promise<SetupChecklist> {
    const clinic = await clinicOf(ex, clinicId);
    const [staffed, marks] = await Promise.all([
      staffing(ex, clinicId),
      ex
        .select({ step: clinicSetupSteps.step, doneAt: clinicSetupSteps.doneAt })
        .from(clinicSetupSteps)
        .where(eq(clinicSetupSteps.clinicId, clinicId)),
    ]);
    const filled = (text: string) => text.trim() !== '';
    const derived: Partial<Record<SetupStep, boolean>> = {
      profile:
        filled(clinic.name) &&
        filled(clinic.phone) &&
        filled(clinic.street) &&
        filled(clinic.homeNumber) &&
        filled(clinic.city),
      hours: weekDays.some((day) => clinic.openingHours.days[day] !== null),
      caregivers: staffed.caregivers,
      types: staffed.types,
    };
    const doneAt = new Map(marks.map((m) => [m.step, m.doneAt]));
    const steps = setupSteps.map((step) => {
      const at = doneAt.get(step) ?? null;
      const done = at !== null;
      return {
        step,
        done,
        done_at: at?.toISOString() ?? null,
        complete: derivedSetupSteps.includes(step) ? (derived[step] ?? false) : done,
        required: requiredSetupSteps.includes(step),
      };
    });
    return {
      steps,
      ready_for_patients: steps.every((s) => !s.required || s.complete),
      clinic_page_path: clinicPagePath(clinic),
    };
  }

  /** Booked appointments per date of the clinic, for the dates given. */
  async function bookedOn(ex: Executor, clinicId: number, dates: readonly string[]) {
    if (dates.length === 0) return new Map<string, number>();
    const rows = await ex
      .select({ date: appointments.localDate, booked: count() })
      .from(appointments)
      .where(
        and(
          eq(appointments.clinicId, clinicId),
          eq(appointments.status, 'booked'),
          inArray(appointments.localDate, [...dates]),
        ),
      )
      .groupBy(appointments.localDate);
    return new Map(rows.map((r) => [r.date, Number(r.booked)]));
  }

  async function listClosures(
    ex: Executor,
    clinicId: number,
    range: { from: string; to?: string | undefined; id?: number },
  ): Promise<Closure[]> {
    const rows = await ex
      .select()
      .from(clinicClosures)
      .where(
        and(
          eq(clinicClosures.clinicId, clinicId),
          gte(clinicClosures.date, range.from),
          range.to === undefined ? undefined : lte(clinicClosures.date, range.to),
          range.id === undefined ? undefined : eq(clinicClosures.id, range.id),
        ),
      )
      .orderBy(asc(clinicClosures.date));
    const booked = await bookedOn(
      ex,
      clinicId,
      rows.map((r) => r.date),
    );
    return rows.map((r) => ({
      id: r.id,
      date: r.date,
      note: r.note,
      booked_appointments: booked.get(r.date) ?? 0,
      created_at: r.createdAt.toISOString(),
    }));
  }

  return {
    getChecklist: (clinicId: number) => checklist(db, clinicId),

    /** Marks a step done or not done (audited when that changes); the checklist after. */
    async markStep(
      clinicActor: ClinicActor,
      step: SetupStep,
      done: boolean,
    ): Promise<SetupChecklist> {
      const now = new Date(clock());
      await db.transaction(async (tx) => {
        await clinicOf(tx, clinicActor.clinicId);
        const changed = done
          ? await tx
              .insert(clinicSetupSteps)
              .values({
                clinicId: clinicActor.clinicId,
                step,
                doneAt: now,
                doneBy: clinicActor.actor,
              })
              .onConflictDoNothing()
              .returning({ step: clinicSetupSteps.step })
          : await tx
              .delete(clinicSetupSteps)
              .where(
                and(
                  eq(clinicSetupSteps.clinicId, clinicActor.clinicId),
                  eq(clinicSetupSteps.step, step),
                ),
              )
              .returning({ step: clinicSetupSteps.step });
        if (changed.length > 0) {
          await audit(tx, {
            clinicId: clinicActor.clinicId,
            actor: clinicActor.actor,
            action: done ? 'setup_step.done' : 'setup_step.undone',
            targetType: 'setup_step',
            targetId: step,
            at: now,
          });
        }
      });
      return checklist(db, clinicActor.clinicId);
    },

    /** The closures dated `from` (default today, clinic time) to `to`, by date. */
    async listClosures(clinicId: number, query: ClosuresQuery): Promise<Closure[]> {
      const clinic = await clinicOf(db, clinicId);
      const from = query.from ?? zonedDate(clock(), clinic.timezone);
      return listClosures(db, clinicId, { from, to: query.to });
    },

    /** Closes the clinic on a date, today or later: 400 for a past date, 409 if already closed. */
    async createClosure(clinicActor: ClinicActor, body: CreateClosureBody): Promise<Closure> {
      const now = clock();
      const closure = await db.transaction(async (tx) => {
        const clinic = await clinicOf(tx, clinicActor.clinicId);
        if (body.date < zonedDate(now, clinic.timezone)) {
          throw invalidField('date', 'The date has passed');
        }
        const [row] = await tx
          .insert(clinicClosures)
          .values({
            clinicId: clinic.id,
            date: body.date,
            note: body.note?.trim() || null,
            createdAt: new Date(now),
          })
          .onConflictDoNothing()
          .returning({ id: clinicClosures.id });
        if (!row) {
          throw new AppError('conflict', 409, `The clinic is already closed on ${body.date}`);
        }
        await audit(tx, {
          clinicId: clinic.id,
          actor: clinicActor.actor,
          action: 'closure.create',
          targetType: 'closure',
          targetId: row.id,
          details: { changes: body },
          at: new Date(now),
        });
        const [created] = await listClosures(tx, clinic.id, { from: body.date, id: row.id });
        if (!created) throw new Error('createClosure: the row is gone');
        return created;
      });
      cache.invalidate(clinicActor.clinicId);
      return closure;
    },

    /** Opens the date again: its times are offered, and waiting patients may be offered them. */
    async deleteClosure(clinicActor: ClinicActor, closureId: number): Promise<void> {
      const now = clock();
      await db.transaction(async (tx) => {
        const [row] = isStoredId(closureId)
          ? await tx
              .delete(clinicClosures)
              .where(
                and(
                  eq(clinicClosures.id, closureId),
                  eq(clinicClosures.clinicId, clinicActor.clinicId),
                ),
              )
              .returning({ id: clinicClosures.id, date: clinicClosures.date })
          : [];
        if (!row) throw closureNotFound(closureId);
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'closure.delete',
          targetType: 'closure',
          targetId: row.id,
          details: { date: row.date },
          at: new Date(now),
        });
        const active = await tx
          .select({ id: caregivers.id })
          .from(caregivers)
          .where(and(eq(caregivers.clinicId, clinicActor.clinicId), eq(caregivers.isActive, true)));
        for (const caregiver of active) {
          await waitlist.queueOffers(tx, {
            clinicId: clinicActor.clinicId,
            caregiverId: caregiver.id,
          });
        }
      });
      cache.invalidate(clinicActor.clinicId);
      waitlist.kick();
    },
  };
}

export type SetupChecklistService = ReturnType<typeof createSetupChecklist>;
