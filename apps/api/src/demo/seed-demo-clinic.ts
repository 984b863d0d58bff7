import { eq, inArray, sql } from 'drizzle-orm';
import { weekDays, withIdCheckDigit, type WeekDay } from '@marpe/shared';
import {
  addDaysToLocalDate,
  weekDayOfLocalDate,
  zonedDate,
  zonedToEpoch,
} from '../platform/zoned-time.js';
import type { Database } from '../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregiverAppointmentTypes,
  caregiverBreaks,
  caregivers,
  caregiverScheduleExceptionHours,
  caregiverScheduleExceptions,
  caregiverWorkingHours,
  appointmentReminders,
  clinics,
  patients,
  reminderSettings,
  staffAccounts,
  staffMemberships,
} from '../platform/db/schema.js';
import { planReminders, reminderPolicy } from '../modules/reminders/reminder-schedule.js';
import { reminderSettingsValues } from '../modules/reminders/reminders-repository.js';
import {
  DEMO_BOOKING_DAYS,
  DEMO_CLINIC_ID,
  DEMO_SETUP_CLINIC_ID,
  demoAppointmentTypes,
  DEMO_UPCOMING_PER_PATIENT,
  demoCaregivers,
  demoClinic,
  demoPatients,
  demoReminderSettings,
  demoSetupAppointmentTypes,
  demoSetupCaregivers,
  demoSetupClinic,
  demoStaff,
  type DemoCaregiver,
  type DemoHours,
} from './demo-clinic.js';
import { seedDemoForm } from './demo-form.js';

// Serialises concurrent seeders (several instances starting against one PostgreSQL server).
const SEED_LOCK_KEY = '7170923282';

const DEMO_CLINIC_IDS = [DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID];

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const dayNumber = (day: WeekDay) => weekDays.indexOf(day);

/** The caregiver's hours on a date, by week day, before exceptions. */
function hoursOn(caregiver: DemoCaregiver, date: string): readonly DemoHours[] {
  const day = weekDays[weekDayOfLocalDate(date)];
  return (day && caregiver.weeklyHours?.[day]) ?? [];
}

/** The first date from `today + daysAhead` on which the caregiver works (weekly hours). */
function nextWorkingDate(caregiver: DemoCaregiver, today: string, daysAhead: number): string {
  for (let d = daysAhead; d < daysAhead + 7; d++) {
    const date = addDaysToLocalDate(today, d);
    if (hoursOn(caregiver, date).length > 0) return date;
  }
  throw new Error(`demo data: ${caregiver.name} has no working day`);
}

/**
 * (Re)creates the demo clinics 1 and 2 and only their rows, in one transaction. With `onlyIfEmpty`
 * it does nothing when any clinic exists. Exceptions and booked appointments are placed relative
 * to `now` (default: the clock), so a fresh demo always shows upcoming ones. Returns whether it
 * seeded.
 */
export async function seedDemoClinic(
  db: Database,
  options: { onlyIfEmpty?: boolean; now?: number } = {},
): Promise<boolean> {
  const now = options.now ?? Date.now();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (options.onlyIfEmpty) {
      const [existing] = await tx.select({ id: clinics.id }).from(clinics).limit(1);
      if (existing) return false;
    }

    await tx.delete(appointments).where(inArray(appointments.clinicId, DEMO_CLINIC_IDS));
    await tx.delete(patients).where(inArray(patients.clinicId, DEMO_CLINIC_IDS));
    // Links, working hours, breaks and exceptions go with their caregivers (ON DELETE CASCADE).
    await tx.delete(caregivers).where(inArray(caregivers.clinicId, DEMO_CLINIC_IDS));
    await tx.delete(appointmentTypes).where(inArray(appointmentTypes.clinicId, DEMO_CLINIC_IDS));
    await tx.delete(clinics).where(inArray(clinics.id, DEMO_CLINIC_IDS));

    await tx.insert(clinics).values([demoClinic, demoSetupClinic]);
    // The explicit ids do not move the identity sequence: put it past every existing id.
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence('clinics', 'id'), (SELECT GREATEST(MAX(id), 1) FROM clinics))`,
    );

    await seedMainClinic(tx, now);
    await seedSetupClinic(tx);
    await seedDemoStaff(tx);
    // Templates, links and answers of the old demo clinic went with it (ON DELETE CASCADE).
    await seedDemoForm(tx);
    return true;
  });
}

/** Demo clinic 1's desk staff; their memberships went with the clinic (ON DELETE CASCADE). */
async function seedDemoStaff(tx: Tx): Promise<void> {
  for (const member of demoStaff) {
    await tx
      .insert(staffAccounts)
      .values({ phone: member.phone, name: member.name })
      .onConflictDoNothing({ target: staffAccounts.phone });
    const [account] = await tx
      .select({ id: staffAccounts.id })
      .from(staffAccounts)
      .where(eq(staffAccounts.phone, member.phone));
    if (!account) throw new Error('demo staff account not saved');
    await tx
      .insert(staffMemberships)
      .values({ clinicId: DEMO_CLINIC_ID, accountId: account.id, role: member.role });
  }
}

async function insertTypes(
  tx: Tx,
  clinicId: number,
  types: readonly { key: string; name: string; durationMinutes: number }[],
): Promise<Map<string, { id: number; durationMinutes: number }>> {
  const rows = await tx
    .insert(appointmentTypes)
    .values(types.map((t) => ({ clinicId, name: t.name, durationMinutes: t.durationMinutes })))
    .returning({ id: appointmentTypes.id, durationMinutes: appointmentTypes.durationMinutes });
  return new Map(
    types.map((t, i) => {
      const row = rows[i];
      if (!row) throw new Error(`demo data: type ${t.key} not inserted`);
      return [t.key, row];
    }),
  );
}

async function insertCaregivers(
  tx: Tx,
  clinicId: number,
  staff: readonly (Pick<DemoCaregiver, 'name' | 'licenseNumber' | 'rules'> & {
    image?: string | null;
    googleCalendarSyncCalendarId?: string | null;
    appointmentTypes: readonly string[];
  })[],
  typeByKey: Map<string, { id: number }>,
): Promise<number[]> {
  const inserted = await tx
    .insert(caregivers)
    .values(
      staff.map((c, i) => ({
        clinicId,
        name: c.name,
        image: c.image ?? null,
        licenseNumber: c.licenseNumber,
        googleCalendarSyncCalendarId: c.googleCalendarSyncCalendarId ?? null,
        sortOrder: i,
        slotStepMinutes: c.rules?.slotStepMinutes ?? null,
        minNoticeMinutes: c.rules?.minNoticeMinutes ?? null,
        bookingHorizonDays: c.rules?.bookingHorizonDays ?? null,
      })),
    )
    .returning({ id: caregivers.id });
  const ids = staff.map((c, i) => {
    const id = inserted[i]?.id;
    if (id === undefined) throw new Error(`demo data: caregiver ${c.name} not inserted`);
    return id;
  });
  const links = staff.flatMap((c, i) =>
    c.appointmentTypes.map((key) => {
      const type = typeByKey.get(key);
      if (!type) throw new Error(`demo data: cannot link ${c.name} to ${key}`);
      return { caregiverId: ids[i] as number, appointmentTypeId: type.id };
    }),
  );
  if (links.length > 0) await tx.insert(caregiverAppointmentTypes).values(links);
  return ids;
}

async function seedMainClinic(tx: Tx, now: number): Promise<void> {
  const timezone = demoClinic.timezone;
  const today = zonedDate(now, timezone);
  const typeByKey = await insertTypes(tx, DEMO_CLINIC_ID, demoAppointmentTypes);
  const ids = await insertCaregivers(tx, DEMO_CLINIC_ID, demoCaregivers, typeByKey);

  const hours = demoCaregivers.flatMap((c, i) =>
    Object.entries(c.weeklyHours ?? {}).flatMap(([day, ranges]) =>
      ranges.map((r) => ({
        caregiverId: ids[i] as number,
        weekDay: dayNumber(day as WeekDay),
        startTime: r.start,
        endTime: r.end,
      })),
    ),
  );
  if (hours.length > 0) await tx.insert(caregiverWorkingHours).values(hours);

  const breaks = demoCaregivers.flatMap((c, i) =>
    (c.breaks ?? []).map((b) => ({
      caregiverId: ids[i] as number,
      weekDay: b.day === null ? null : dayNumber(b.day),
      startTime: b.start,
      endTime: b.end,
    })),
  );
  if (breaks.length > 0) await tx.insert(caregiverBreaks).values(breaks);

  // Exception dates per caregiver index, so no booking lands on them.
  const exceptionDates = new Map<number, Set<string>>();
  for (const [i, c] of demoCaregivers.entries()) {
    for (const e of c.exceptions ?? []) {
      const date = nextWorkingDate(c, today, e.daysAhead);
      const dates = exceptionDates.get(i) ?? new Set<string>();
      dates.add(date);
      exceptionDates.set(i, dates);
      const [row] = await tx
        .insert(caregiverScheduleExceptions)
        .values({ caregiverId: ids[i] as number, date, note: e.note })
        .returning({ id: caregiverScheduleExceptions.id });
      if (row && e.hours.length > 0) {
        await tx
          .insert(caregiverScheduleExceptionHours)
          .values(
            e.hours.map((h) => ({ exceptionId: row.id, startTime: h.start, endTime: h.end })),
          );
      }
    }
  }

  const patientRows = await tx
    .insert(patients)
    .values(
      demoPatients.map((p) => ({
        clinicId: DEMO_CLINIC_ID,
        idNumber: withIdCheckDigit(p.idNumberBase),
        firstName: p.firstName,
        lastName: p.lastName,
        phone: p.phone,
      })),
    )
    .returning({ id: patients.id });

  // One booking per working caregiver per day, from tomorrow: an hour later each day within the
  // first working interval (on the slot grid of every demo caregiver), a different patient for
  // each caregiver of a date (one booking per patient per date), rotating through their types.
  // A patient's bookings past DEMO_UPCOMING_PER_PATIENT move two weeks back (the same weekday and
  // hours, so the same rules hold), where they are history rather than upcoming.
  const bookings: (typeof appointments.$inferInsert)[] = [];
  const upcomingOf = new Map<number, number>();
  for (let d = 1; d <= DEMO_BOOKING_DAYS; d++) {
    const date = addDaysToLocalDate(today, d);
    let patientIndex = d;
    for (const [i, c] of demoCaregivers.entries()) {
      const first = hoursOn(c, date)[0];
      if (!first || exceptionDates.get(i)?.has(date)) continue;
      const key = c.appointmentTypes[d % c.appointmentTypes.length];
      const type = key && typeByKey.get(key);
      const patient = patientRows[patientIndex++ % patientRows.length];
      if (!type || !patient) continue;
      const upcoming = upcomingOf.get(patient.id) ?? 0;
      const day = upcoming < DEMO_UPCOMING_PER_PATIENT ? date : addDaysToLocalDate(date, -14);
      if (day === date) upcomingOf.set(patient.id, upcoming + 1);
      const hour = Number(first.start.slice(0, 2)) + (d % 3);
      const startAt = zonedToEpoch(`${day} ${String(hour).padStart(2, '0')}:00`, timezone);
      bookings.push({
        clinicId: DEMO_CLINIC_ID,
        caregiverId: ids[i] as number,
        patientId: patient.id,
        appointmentTypeId: type.id,
        startAt: new Date(startAt),
        endAt: new Date(startAt + type.durationMinutes * 60_000),
        localDate: day,
      });
    }
  }
  if (bookings.length === 0) return;
  const booked = await tx
    .insert(appointments)
    .values(bookings)
    .returning({ id: appointments.id, startAt: appointments.startAt });

  await tx
    .insert(reminderSettings)
    .values({ clinicId: DEMO_CLINIC_ID, ...reminderSettingsValues(demoReminderSettings) });
  const [rules] = await tx
    .select({ cancelNoticeMinutes: clinics.cancelNoticeMinutes })
    .from(clinics)
    .where(eq(clinics.id, DEMO_CLINIC_ID));
  const policy = reminderPolicy(demoReminderSettings, {
    timezone,
    cancelNoticeMinutes: rules?.cancelNoticeMinutes ?? 0,
  });
  const reminders = booked
    .filter((b) => b.startAt.getTime() > now)
    .flatMap((b) =>
      planReminders(b.startAt.getTime(), policy, now).map((r) => ({
        appointmentId: b.id,
        clinicId: DEMO_CLINIC_ID,
        leadMinutes: r.leadMinutes,
        appointmentStartAt: b.startAt,
        dueAt: new Date(r.dueAt),
      })),
    );
  if (reminders.length > 0) await tx.insert(appointmentReminders).values(reminders);
}

async function seedSetupClinic(tx: Tx): Promise<void> {
  const typeByKey = await insertTypes(tx, DEMO_SETUP_CLINIC_ID, demoSetupAppointmentTypes);
  await insertCaregivers(tx, DEMO_SETUP_CLINIC_ID, demoSetupCaregivers, typeByKey);
}
