import { and, asc, count, eq, gt, gte, inArray, lte, min, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointmentTypes,
  caregiverAppointmentTypes,
  caregivers,
  clinics,
  isStoredId,
  patients,
  reminderSettings,
  waitlistEntries,
  waitlistOffers,
} from '../../platform/db/schema.js';

export type NewWaitlistEntry = Pick<
  typeof waitlistEntries.$inferInsert,
  | 'clinicId'
  | 'patientId'
  | 'caregiverId'
  | 'appointmentTypeId'
  | 'fromDate'
  | 'toDate'
  | 'partOfDay'
  | 'language'
  | 'createdAt'
>;

/** An offer already made: [start, end) of the slot, and when. */
export interface OfferRow {
  entryId: number;
  startAt: Date;
  endAt: Date;
  offeredAt: Date;
}

/** The first key of the waitlist's advisory locks (two-key form): "MW", Marpe waitlist. */
const WAITLIST_LOCK_SPACE = 0x4d57;

const entryColumns = {
  id: waitlistEntries.id,
  caregiverId: waitlistEntries.caregiverId,
  appointmentTypeId: waitlistEntries.appointmentTypeId,
  caregiverName: caregivers.name,
  typeName: appointmentTypes.name,
  fromDate: waitlistEntries.fromDate,
  toDate: waitlistEntries.toDate,
  partOfDay: waitlistEntries.partOfDay,
  createdAt: waitlistEntries.createdAt,
};

/** Who waits on a date (clinic time) and with a caregiver: `GET /api/integration/waitlist…`. */
export interface WaitlistFilter {
  date?: string;
  caregiverId?: number;
}

/** A page of `GET /api/integration/waitlist/entries`: one patient's, after an entry, how many. */
export interface WaitlistPage {
  /** Stored ID number (normalised). */
  patientIdNumber?: string;
  /** The joining time and id of the last entry of the previous page. */
  after?: { createdAt: Date; id: number };
  limit: number;
}

const matches = (filter: WaitlistFilter) =>
  and(
    filter.date === undefined
      ? undefined
      : and(lte(waitlistEntries.fromDate, filter.date), gte(waitlistEntries.toDate, filter.date)),
    filter.caregiverId === undefined
      ? undefined
      : eq(waitlistEntries.caregiverId, filter.caregiverId),
  );

/** Active: waiting, and its range not over (`today` in the clinic's zone). */
const isActive = (today: string) =>
  and(eq(waitlistEntries.status, 'waiting'), gte(waitlistEntries.toDate, today));

export function createWaitlistRepository(db: Database) {
  return {
    db,

    async findClinicTimezone(clinicId: number): Promise<string | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db
        .select({ timezone: clinics.timezone })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row?.timezone ?? null;
    },

    /** The patient's active entry asking exactly this, if any (a repeated join). */
    async findSameActive(ex: Executor, values: NewWaitlistEntry, today: string) {
      const [row] = await ex
        .select({ id: waitlistEntries.id })
        .from(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.patientId, values.patientId),
            eq(waitlistEntries.caregiverId, values.caregiverId),
            eq(waitlistEntries.appointmentTypeId, values.appointmentTypeId),
            eq(waitlistEntries.fromDate, values.fromDate),
            eq(waitlistEntries.toDate, values.toDate),
            eq(waitlistEntries.partOfDay, values.partOfDay),
            isActive(today),
          ),
        );
      return row ?? null;
    },

    async countActive(ex: Executor, patientId: number, today: string): Promise<number> {
      const [row] = await ex
        .select({ count: count() })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.patientId, patientId), isActive(today)));
      return row?.count ?? 0;
    },

    async insertEntry(ex: Executor, values: NewWaitlistEntry): Promise<number> {
      const [row] = await ex
        .insert(waitlistEntries)
        .values(values)
        .returning({ id: waitlistEntries.id });
      if (!row) throw new Error('insertEntry: no row');
      return row.id;
    },

    /** The patient's active entries (or the one of `entryId`), in the order they joined. */
    async listActive(ex: Executor, patientId: number, today: string, entryId?: number) {
      return ex
        .select(entryColumns)
        .from(waitlistEntries)
        .innerJoin(caregivers, eq(caregivers.id, waitlistEntries.caregiverId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistEntries.appointmentTypeId))
        .where(
          and(
            eq(waitlistEntries.patientId, patientId),
            isActive(today),
            entryId === undefined ? undefined : eq(waitlistEntries.id, entryId),
          ),
        )
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
    },

    /** Marks the patient's waiting entry left; false when there is none of that id. */
    async leave(patientId: number, entryId: number, at: Date): Promise<boolean> {
      if (!isStoredId(entryId)) return false;
      const rows = await db
        .update(waitlistEntries)
        .set({ status: 'left', closedAt: at })
        .where(
          and(
            eq(waitlistEntries.id, entryId),
            eq(waitlistEntries.patientId, patientId),
            eq(waitlistEntries.status, 'waiting'),
          ),
        )
        .returning({ id: waitlistEntries.id });
      return rows.length > 0;
    },

    /** The patient's waiting entries for this caregiver and type whose range holds the date. */
    async markBooked(
      ex: Executor,
      values: {
        patientId: number;
        caregiverId: number;
        appointmentTypeId: number;
        localDate: string;
        at: Date;
      },
    ): Promise<void> {
      await ex
        .update(waitlistEntries)
        .set({ status: 'booked', closedAt: values.at })
        .where(
          and(
            eq(waitlistEntries.patientId, values.patientId),
            eq(waitlistEntries.caregiverId, values.caregiverId),
            eq(waitlistEntries.appointmentTypeId, values.appointmentTypeId),
            eq(waitlistEntries.status, 'waiting'),
            lte(waitlistEntries.fromDate, values.localDate),
            gte(waitlistEntries.toDate, values.localDate),
          ),
        );
    },

    /**
     * The caregiver with its clinic, as an offer names them, with the clinic's offer rules: its
     * offers per entry per day, and the quiet time of its reminders (null: never set, the
     * reminders' defaults apply); null when unknown.
     */
    async findOfferCaregiver(caregiverId: number) {
      const [row] = await db
        .select({
          clinicId: clinics.id,
          clinicName: clinics.name,
          timezone: clinics.timezone,
          cancelNoticeMinutes: clinics.cancelNoticeMinutes,
          offersPerEntryPerDay: clinics.waitlistOffersPerEntryPerDay,
          quietStart: reminderSettings.quietStart,
          quietEnd: reminderSettings.quietEnd,
          observeRestDays: reminderSettings.observeRestDays,
          caregiverName: caregivers.name,
          isActive: caregivers.isActive,
        })
        .from(caregivers)
        .innerJoin(clinics, eq(clinics.id, caregivers.clinicId))
        .leftJoin(reminderSettings, eq(reminderSettings.clinicId, clinics.id))
        .where(eq(caregivers.id, caregiverId));
      return row ?? null;
    },

    /**
     * The caregiver's active entries in the order they joined, each with what an offer needs;
     * entries of a type the caregiver no longer offers are left out.
     */
    async listWaiting(caregiverId: number, today: string, limit: number) {
      return db
        .select({
          id: waitlistEntries.id,
          appointmentTypeId: waitlistEntries.appointmentTypeId,
          typeName: appointmentTypes.name,
          durationMinutes: appointmentTypes.durationMinutes,
          fromDate: waitlistEntries.fromDate,
          toDate: waitlistEntries.toDate,
          partOfDay: waitlistEntries.partOfDay,
          language: waitlistEntries.language,
          phone: patients.phone,
        })
        .from(waitlistEntries)
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistEntries.appointmentTypeId))
        .innerJoin(
          caregiverAppointmentTypes,
          and(
            eq(caregiverAppointmentTypes.caregiverId, waitlistEntries.caregiverId),
            eq(caregiverAppointmentTypes.appointmentTypeId, waitlistEntries.appointmentTypeId),
          ),
        )
        .innerJoin(patients, eq(patients.id, waitlistEntries.patientId))
        .where(and(eq(waitlistEntries.caregiverId, caregiverId), isActive(today)))
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
        .limit(limit);
    },

    /** Every offer made to these entries. */
    async listOffers(ex: Executor, entryIds: readonly number[]): Promise<OfferRow[]> {
      if (entryIds.length === 0) return [];
      return ex
        .select({
          entryId: waitlistOffers.entryId,
          startAt: waitlistOffers.startAt,
          endAt: waitlistOffers.endAt,
          offeredAt: waitlistOffers.offeredAt,
        })
        .from(waitlistOffers)
        .where(inArray(waitlistOffers.entryId, [...entryIds]));
    },

    /** The caregiver's offers made after `since` to entries still waiting: the open ones. */
    async listOpenOffers(ex: Executor, caregiverId: number, since: Date): Promise<OfferRow[]> {
      return ex
        .select({
          entryId: waitlistOffers.entryId,
          startAt: waitlistOffers.startAt,
          endAt: waitlistOffers.endAt,
          offeredAt: waitlistOffers.offeredAt,
        })
        .from(waitlistOffers)
        .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
        .where(
          and(
            eq(waitlistOffers.caregiverId, caregiverId),
            gt(waitlistOffers.offeredAt, since),
            eq(waitlistEntries.status, 'waiting'),
          ),
        );
    },

    /** false when this entry was offered this slot already. */
    async insertOffer(ex: Executor, values: typeof waitlistOffers.$inferInsert): Promise<boolean> {
      const rows = await ex
        .insert(waitlistOffers)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: waitlistOffers.id });
      return rows.length > 0;
    },

    /** One offer run per caregiver at a time, across instances. */
    async lockCaregiver(tx: Executor, caregiverId: number): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${WAITLIST_LOCK_SPACE}, ${caregiverId})`);
    },

    /** Active entries per caregiver of the clinic, caregivers in the clinic's order. */
    async countWaitingByCaregiver(clinicId: number, today: string, filter: WaitlistFilter = {}) {
      return db
        .select({
          caregiverId: caregivers.id,
          name: caregivers.name,
          waiting: count(),
          oldest: min(waitlistEntries.createdAt),
        })
        .from(waitlistEntries)
        .innerJoin(caregivers, eq(caregivers.id, waitlistEntries.caregiverId))
        .where(and(eq(waitlistEntries.clinicId, clinicId), isActive(today), matches(filter)))
        .groupBy(caregivers.id, caregivers.name, caregivers.sortOrder)
        .orderBy(asc(caregivers.sortOrder), asc(caregivers.id));
    },

    /** The clinic's active entries matching the filter, with their patients, in joining order. */
    async listClinicEntries(
      clinicId: number,
      today: string,
      filter: WaitlistFilter,
      page: WaitlistPage,
    ) {
      const { after } = page;
      return db
        .select({
          ...entryColumns,
          patientId: patients.id,
          idNumber: patients.idNumber,
          firstName: patients.firstName,
          lastName: patients.lastName,
          phone: patients.phone,
        })
        .from(waitlistEntries)
        .innerJoin(caregivers, eq(caregivers.id, waitlistEntries.caregiverId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistEntries.appointmentTypeId))
        .innerJoin(patients, eq(patients.id, waitlistEntries.patientId))
        .where(
          and(
            eq(waitlistEntries.clinicId, clinicId),
            isActive(today),
            matches(filter),
            page.patientIdNumber === undefined
              ? undefined
              : eq(patients.idNumber, page.patientIdNumber),
            after === undefined
              ? undefined
              : or(
                  gt(waitlistEntries.createdAt, after.createdAt),
                  and(
                    eq(waitlistEntries.createdAt, after.createdAt),
                    gt(waitlistEntries.id, after.id),
                  ),
                ),
          ),
        )
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
        .limit(page.limit);
    },

    /** When the clinic's entry joined (any status): where a page after it starts. */
    async findEntryCursor(clinicId: number, entryId: number) {
      if (!isStoredId(entryId)) return null;
      const [row] = await db
        .select({ id: waitlistEntries.id, createdAt: waitlistEntries.createdAt })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.clinicId, clinicId)));
      return row ?? null;
    },

    /** The clinic's entry (any status) with what an offer of it needs; null when not the clinic's. */
    async findClinicEntry(clinicId: number, entryId: number) {
      if (!isStoredId(entryId)) return null;
      const [row] = await db
        .select({
          id: waitlistEntries.id,
          patientId: waitlistEntries.patientId,
          caregiverId: waitlistEntries.caregiverId,
          appointmentTypeId: waitlistEntries.appointmentTypeId,
          typeName: appointmentTypes.name,
          durationMinutes: appointmentTypes.durationMinutes,
          fromDate: waitlistEntries.fromDate,
          toDate: waitlistEntries.toDate,
          partOfDay: waitlistEntries.partOfDay,
          language: waitlistEntries.language,
          status: waitlistEntries.status,
          phone: patients.phone,
        })
        .from(waitlistEntries)
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistEntries.appointmentTypeId))
        .innerJoin(patients, eq(patients.id, waitlistEntries.patientId))
        .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.clinicId, clinicId)));
      return row ?? null;
    },
  };
}

export type WaitlistRepository = ReturnType<typeof createWaitlistRepository>;
