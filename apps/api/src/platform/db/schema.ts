import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type { OpeningHours } from '@marpe/shared';

// The booking EXCLUDE constraint and the one-appointment-per-date partial index live in the
// custom migration drizzle/0001_booking-constraints.sql: drizzle cannot express them.

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

const createdAt = () => instant('created_at').notNull().defaultNow();
const updatedAt = () =>
  instant('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const clinics = pgTable('clinics', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url'),
  logoUrl: text('logo_url'),
  phone: text('phone').notNull(),
  email: text('email'),
  street: text('street').notNull(),
  homeNumber: text('home_number').notNull(),
  city: text('city').notNull(),
  openingHours: jsonb('opening_hours').$type<OpeningHours>().notNull(),
  isAcceptNewPatients: boolean('is_accept_new_patients').notNull().default(true),
  isAutoSmsEnabled: boolean('is_auto_sms_enabled').notNull().default(false),
  timezone: text('timezone').notNull().default('Asia/Jerusalem'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const caregivers = pgTable(
  'caregivers',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    name: text('name').notNull(),
    image: text('image'),
    licenseNumber: text('license_number').notNull(),
    googleCalendarSyncCalendarId: text('google_calendar_sync_calendar_id'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('caregivers_clinic_idx').on(t.clinicId, t.sortOrder)],
);

export const appointmentTypes = pgTable(
  'appointment_types',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    name: text('name').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('appointment_types_clinic_idx').on(t.clinicId),
    check(
      'appointment_types_duration_check',
      sql`${t.durationMinutes} > 0 AND ${t.durationMinutes} <= 480`,
    ),
  ],
);

/** A caregiver's default appointment types. */
export const caregiverAppointmentTypes = pgTable(
  'caregiver_appointment_types',
  {
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    appointmentTypeId: integer('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.caregiverId, t.appointmentTypeId] }),
    index('caregiver_appointment_types_type_idx').on(t.appointmentTypeId),
  ],
);

export const patients = pgTable(
  'patients',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    idNumber: text('id_number').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('patients_clinic_id_number_unique').on(t.clinicId, t.idNumber),
    check('patients_id_number_check', sql`${t.idNumber} ~ '^[0-9]{9}$'`),
  ],
);

export const appointmentStatuses = ['booked', 'cancelled'] as const;
export type AppointmentStatus = (typeof appointmentStatuses)[number];

export const appointments = pgTable(
  'appointments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    appointmentTypeId: integer('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id),
    status: text('status').$type<AppointmentStatus>().notNull().default('booked'),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    /** The start's calendar date in the clinic's time zone; written by whoever books. */
    localDate: date('local_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    cancelledAt: instant('cancelled_at'),
  },
  (t) => [
    index('appointments_patient_idx').on(t.patientId, t.startAt),
    index('appointments_clinic_start_idx').on(t.clinicId, t.startAt),
    check('appointments_status_check', sql`${t.status} IN ('booked', 'cancelled')`),
    check('appointments_time_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);
