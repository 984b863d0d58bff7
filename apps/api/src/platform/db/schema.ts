// Over 400 lines: the whole database schema in one module: its tables refer to one another and
// drizzle-kit diffs it into the migrations as one.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  AppointmentSource,
  CalendarEventDetail,
  FormSchema,
  OpeningHours,
  PartOfDay,
  StaffRole,
  WebhookDeliveryStatus,
  WebhookEventType,
} from '@marpe/shared';
import type { MessageLanguage } from '../http/message-language.js';

// The booking EXCLUDE constraint and the one-appointment-per-date partial index live in the
// custom migration drizzle/0001_booking-constraints.sql: drizzle cannot express them. The
// no-overlap constraints of working hours and the change-notification triggers (the clinic data
// cache listens to them) live in drizzle/0003_schedule-constraints-and-notify.sql.

/** Ids are `integer` columns: a larger number names nothing (and must not reach a query: 22003). */
export const isStoredId = (id: number): boolean =>
  Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

export const messagingChannels = ['sms', 'whatsapp'] as const;
export type MessagingChannel = (typeof messagingChannels)[number];

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// The ranges of marpeRulesSchema (packages/shared). A NULL passes a CHECK: null means inherit.
const slotStepCheck = (c: AnyPgColumn) => sql`${c} BETWEEN 5 AND 240`;
const minNoticeCheck = (c: AnyPgColumn) => sql`${c} BETWEEN 0 AND 43200`;
const horizonCheck = (c: AnyPgColumn) => sql`${c} BETWEEN 1 AND 365`;

/** A time of day on whole minutes, as the contract's HH:mm; `time` reads back as 'HH:mm:ss'. */
const timeOfDay = (name: string) => time(name, { precision: 0 });
const wholeMinutes = (c: AnyPgColumn) => sql`extract(second FROM ${c}) = 0`;

const createdAt = () => instant('created_at').notNull().defaultNow();
const updatedAt = () =>
  instant('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const clinics = pgTable(
  'clinics',
  {
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
    // Booking rules every caregiver inherits unless it sets its own (see `caregivers`).
    defaultSlotStepMinutes: integer('default_slot_step_minutes').notNull().default(15),
    defaultMinNoticeMinutes: integer('default_min_notice_minutes').notNull().default(120),
    defaultBookingHorizonDays: integer('default_booking_horizon_days').notNull().default(60),
    /** A patient may cancel online until this long before the start (default 24 hours). */
    cancelNoticeMinutes: integer('cancel_notice_minutes').notNull().default(1440),
    /** The card provider's terminal its payment requests use unless a request names another. */
    cardTerminal: text('card_terminal'),
    /**
     * The card provider's API credentials (ADR 017): the app key, and the secret sealed
     * (`sealedAt('clinics', 'tranzila_secret', id)`). Without them, charges stay unverified.
     */
    tranzilaAppKey: text('tranzila_app_key'),
    tranzilaSecret: text('tranzila_secret'),
    /** How patients get appointment details and links: 'sms', or 'whatsapp' once connected. */
    messagingChannel: text('messaging_channel').$type<MessagingChannel>().notNull().default('sms'),
    /** Booked, not yet ended appointments one patient may hold at once (ADR 020). */
    maxUpcomingAppointments: integer('max_upcoming_appointments').notNull().default(3),
    /**
     * What an appointment shows in the caregiver's own calendar (the iCalendar feed, and the
     * Google write-back): 'full', 'initials' or 'minimal' (ADR 031; calendar-event-text.ts).
     */
    calendarEventDetail: text('calendar_event_detail')
      .$type<CalendarEventDetail>()
      .notNull()
      .default('full'),
    /**
     * Caps on the messages the integration API sends for the clinic (form links, payment links,
     * clinic bookings; ADR 027): per recipient per rolling hour and day, and in all per day.
     */
    messageCapPerRecipientHour: integer('message_cap_per_recipient_hour').notNull().default(3),
    messageCapPerRecipientDay: integer('message_cap_per_recipient_day').notNull().default(10),
    messageCapPerClinicDay: integer('message_cap_per_clinic_day').notNull().default(500),
    /** Waitlist offers one entry gets per clinic day at most (ADR 027). */
    waitlistOffersPerEntryPerDay: integer('waitlist_offers_per_entry_per_day').notNull().default(1),
    /**
     * Whether the patient is told of each change to an appointment, whoever made it
     * (appointments/change-notices.ts). A booking is off by default: the booking page shows it.
     */
    notifyBooked: boolean('notify_booked').notNull().default(false),
    notifyMoved: boolean('notify_moved').notNull().default(true),
    notifyCancelled: boolean('notify_cancelled').notNull().default(true),
    /**
     * Whether all-day events of the caregivers' synced calendars block their days even when
     * "Free" (Google's default for all-day); off, only a Busy one does (docs/calendar-sync.md).
     */
    calendarAllDayEventsBlock: boolean('calendar_all_day_events_block').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('clinics_default_slot_step_check', slotStepCheck(t.defaultSlotStepMinutes)),
    check('clinics_default_min_notice_check', minNoticeCheck(t.defaultMinNoticeMinutes)),
    check('clinics_default_booking_horizon_check', horizonCheck(t.defaultBookingHorizonDays)),
    check('clinics_cancel_notice_check', sql`${t.cancelNoticeMinutes} BETWEEN 0 AND 43200`),
    check('clinics_messaging_channel_check', sql`${t.messagingChannel} IN ('sms', 'whatsapp')`),
    check(
      'clinics_max_upcoming_appointments_check',
      sql`${t.maxUpcomingAppointments} BETWEEN 1 AND 20`,
    ),
    check(
      'clinics_calendar_event_detail_check',
      sql`${t.calendarEventDetail} IN ('full', 'initials', 'minimal')`,
    ),
    check(
      'clinics_message_caps_check',
      sql`${t.messageCapPerRecipientHour} BETWEEN 1 AND 100 AND ${t.messageCapPerRecipientDay} BETWEEN 1 AND 1000 AND ${t.messageCapPerClinicDay} BETWEEN 1 AND 100000`,
    ),
    check(
      'clinics_waitlist_offers_per_day_check',
      sql`${t.waitlistOffersPerEntryPerDay} BETWEEN 1 AND 10`,
    ),
  ],
);

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
    // Booking rules; null inherits the clinic's default.
    slotStepMinutes: integer('slot_step_minutes'),
    minNoticeMinutes: integer('min_notice_minutes'),
    bookingHorizonDays: integer('booking_horizon_days'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('caregivers_clinic_idx').on(t.clinicId, t.sortOrder),
    check('caregivers_slot_step_check', slotStepCheck(t.slotStepMinutes)),
    check('caregivers_min_notice_check', minNoticeCheck(t.minNoticeMinutes)),
    check('caregivers_booking_horizon_check', horizonCheck(t.bookingHorizonDays)),
  ],
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
    // The identities a phone signs in at a clinic, and their upcoming appointments (ADR 027).
    index('patients_clinic_phone_idx').on(t.clinicId, t.phone),
    // The desk's patient search (docs/integration.md "Patients"): prefixes of names, ID numbers and
    // phones, whatever the database's collation (text_pattern_ops serves LIKE 'x%'); names compared
    // lower-cased.
    index('patients_search_first_name_idx').on(
      t.clinicId,
      sql`lower(${t.firstName}) text_pattern_ops`,
    ),
    index('patients_search_last_name_idx').on(
      t.clinicId,
      sql`lower(${t.lastName}) text_pattern_ops`,
    ),
    index('patients_search_id_number_idx').on(t.clinicId, t.idNumber.op('text_pattern_ops')),
    index('patients_search_phone_idx').on(t.clinicId, t.phone.op('text_pattern_ops')),
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
    /** Details SMS queued for it (automatic and on request): a cap stops SMS flooding. */
    detailsSmsCount: integer('details_sms_count').notNull().default(0),
    /** The language the patient booked in: the appointment's messages speak it. */
    language: text('language').$type<MessageLanguage>().notNull().default('he'),
    /** Who booked it: the patient online, or the clinic through the integration API. */
    source: text('source').$type<AppointmentSource>().notNull().default('patient'),
    /** Why the clinic cancelled it (the desk asks); for the clinic's eyes, never sent to the patient. */
    cancelReason: text('cancel_reason'),
  },
  (t) => [
    index('appointments_patient_idx').on(t.patientId, t.startAt),
    index('appointments_clinic_start_idx').on(t.clinicId, t.startAt),
    // Busy intervals of a caregiver overlapping a window [from, to): end_at > from AND start_at < to.
    // Leading with end_at bounds the scan by the bookings after `from` (the future, for availability),
    // where (caregiver_id, start_at) would walk the caregiver's whole history up to `to`.
    index('appointments_caregiver_busy_idx')
      .on(t.caregiverId, t.endAt, t.startAt)
      .where(sql`status = 'booked'`),
    check('appointments_status_check', sql`${t.status} IN ('booked', 'cancelled')`),
    check('appointments_time_check', sql`${t.endAt} > ${t.startAt}`),
    check('appointments_details_sms_count_check', sql`${t.detailsSmsCount} >= 0`),
    check('appointments_language_check', sql`${t.language} IN ('he', 'en')`),
    check('appointments_source_check', sql`${t.source} IN ('patient', 'clinic')`),
  ],
);

/**
 * Times a caregiver is busy in the clinic's own diary (a practice-management system), pushed
 * through `PUT /api/integration/caregivers/:id/busy-times` a window at a time (ADR 028). They
 * block slots like booked appointments; `external_id` is the clinic's own id of the item.
 */
export const caregiverBusyTimes = pgTable(
  'caregiver_busy_times',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    label: text('label'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('caregiver_busy_times_external_unique').on(t.caregiverId, t.externalId),
    // The window query of availability and of the booking check, as appointments_caregiver_busy_idx.
    index('caregiver_busy_times_window_idx').on(t.caregiverId, t.endAt, t.startAt),
    check('caregiver_busy_times_time_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/**
 * A caregiver's secret iCalendar feed (docs/calendar-feed.md): one live URL per caregiver; only the
 * token's SHA-256 is kept. A new one replaces the row (rotation); deleting it revokes the URL.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    caregiverId: integer('caregiver_id')
      .primaryKey()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the URL's token. */
    tokenHash: text('token_hash').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [unique('calendar_feeds_token_hash_unique').on(t.tokenHash)],
);

/**
 * A clinic's reminder settings (ADR 022); a clinic without a row has the defaults of
 * `defaultReminderSettings` (packages/shared): reminders off.
 */
export const reminderSettings = pgTable(
  'reminder_settings',
  {
    clinicId: integer('clinic_id')
      .primaryKey()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    /** Minutes before the start; a whole number of days counts calendar days, clock time kept. */
    leadMinutes: integer('lead_minutes').array().notNull(),
    channel: text('channel').$type<MessagingChannel>().notNull(),
    quietStart: timeOfDay('quiet_start').notNull(),
    quietEnd: timeOfDay('quiet_end').notNull(),
    observeRestDays: boolean('observe_rest_days').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('reminder_settings_channel_check', sql`${t.channel} IN ('sms', 'whatsapp')`)],
);

/** refused: not sent, the clinic's message caps were full (audited as `message.refused`). */
export const reminderStatuses = ['scheduled', 'sent', 'withdrawn', 'missed', 'refused'] as const;
export type ReminderStatusValue = (typeof reminderStatuses)[number];

/**
 * One reminder of one appointment's start, written when it is booked or moved (or the clinic's
 * settings change) and claimed when due with FOR UPDATE SKIP LOCKED, so it goes exactly once
 * however many API instances poll (docs/booking.md, "Reminders").
 */
export const appointmentReminders = pgTable(
  'appointment_reminders',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    leadMinutes: integer('lead_minutes').notNull(),
    /** The start this reminder was planned for: one of a moved appointment's old time is void. */
    appointmentStartAt: instant('appointment_start_at').notNull(),
    /** When it goes: start − lead, moved earlier out of quiet hours and Shabbat. */
    dueAt: instant('due_at').notNull(),
    status: text('status').$type<ReminderStatusValue>().notNull().default('scheduled'),
    /** How it went; null until sent. */
    channel: text('channel').$type<MessagingChannel>(),
    createdAt: createdAt(),
    /** When it was sent, withdrawn or missed. */
    settledAt: instant('settled_at'),
  },
  (t) => [
    index('appointment_reminders_due_idx')
      .on(t.dueAt)
      .where(sql`status = 'scheduled'`),
    index('appointment_reminders_appointment_idx').on(t.appointmentId),
    // One waiting reminder per lead time of an appointment.
    uniqueIndex('appointment_reminders_scheduled_unique')
      .on(t.appointmentId, t.leadMinutes)
      .where(sql`status = 'scheduled'`),
    check(
      'appointment_reminders_status_check',
      sql`${t.status} IN ('scheduled', 'sent', 'withdrawn', 'missed', 'refused')`,
    ),
  ],
);

/** Week days as numbers, as JavaScript and PostgreSQL's `extract(dow)` count them: 0 = Sunday. */
const weekDay = (name: string) => smallint(name);
const weekDayCheck = (c: AnyPgColumn) => sql`${c} BETWEEN 0 AND 6`;

/** A caregiver's weekly working hours: several intervals a day, one row each. */
export const caregiverWorkingHours = pgTable(
  'caregiver_working_hours',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    weekDay: weekDay('week_day').notNull(),
    startTime: timeOfDay('start_time').notNull(),
    endTime: timeOfDay('end_time').notNull(),
  },
  (t) => [
    index('caregiver_working_hours_caregiver_idx').on(t.caregiverId, t.weekDay, t.startTime),
    check('caregiver_working_hours_week_day_check', weekDayCheck(t.weekDay)),
    check('caregiver_working_hours_range_check', sql`${t.startTime} < ${t.endTime}`),
    check(
      'caregiver_working_hours_minutes_check',
      sql`${wholeMinutes(t.startTime)} AND ${wholeMinutes(t.endTime)}`,
    ),
  ],
);

/** Breaks cut out of the working hours: on one week day, or every day when week_day is null. */
export const caregiverBreaks = pgTable(
  'caregiver_breaks',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    weekDay: weekDay('week_day'),
    startTime: timeOfDay('start_time').notNull(),
    endTime: timeOfDay('end_time').notNull(),
  },
  (t) => [
    index('caregiver_breaks_caregiver_idx').on(t.caregiverId),
    check('caregiver_breaks_week_day_check', weekDayCheck(t.weekDay)),
    check('caregiver_breaks_range_check', sql`${t.startTime} < ${t.endTime}`),
    check(
      'caregiver_breaks_minutes_check',
      sql`${wholeMinutes(t.startTime)} AND ${wholeMinutes(t.endTime)}`,
    ),
  ],
);

/**
 * A dated exception replacing that date's weekly hours with its own
 * (caregiver_schedule_exception_hours): no hours rows means a day off.
 */
export const caregiverScheduleExceptions = pgTable(
  'caregiver_schedule_exceptions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    /** A calendar date in the clinic's time zone. */
    date: date('date', { mode: 'string' }).notNull(),
    /** Why, for the clinic's staff (holiday, conference…); never sent to patients. */
    note: text('note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('caregiver_schedule_exceptions_caregiver_date_unique').on(t.caregiverId, t.date)],
);

export const caregiverScheduleExceptionHours = pgTable(
  'caregiver_schedule_exception_hours',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    exceptionId: integer('exception_id')
      .notNull()
      .references(() => caregiverScheduleExceptions.id, { onDelete: 'cascade' }),
    startTime: timeOfDay('start_time').notNull(),
    endTime: timeOfDay('end_time').notNull(),
  },
  (t) => [
    index('caregiver_schedule_exception_hours_exception_idx').on(t.exceptionId, t.startTime),
    check('caregiver_schedule_exception_hours_range_check', sql`${t.startTime} < ${t.endTime}`),
    check(
      'caregiver_schedule_exception_hours_minutes_check',
      sql`${wholeMinutes(t.startTime)} AND ${wholeMinutes(t.endTime)}`,
    ),
  ],
);

export const authChallengePurposes = ['login', 'sign_up'] as const;
export type AuthChallengePurpose = (typeof authChallengePurposes)[number];
export const authChallengeStatuses = ['pending', 'used', 'replaced', 'dead'] as const;
export type AuthChallengeStatus = (typeof authChallengeStatuses)[number];

/**
 * One one-time code sent by SMS, answered with `POST /api/patient-auth/two-factor`. Holds only
 * hashes of the code and of the two-factor token. Each row is one SMS sent: the send limits
 * count rows by phone and by client address. Rows older than a day are deleted.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** SHA-256 (hex) of the two-factor token. */
    tokenHash: text('token_hash').notNull(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AuthChallengePurpose>().notNull(),
    /** The patient logging in; null for a sign-up (the row is created on verification). */
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    idNumber: text('id_number').notNull(),
    phone: text('phone').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** HMAC-SHA-256 (hex) of the code, keyed from DATA_KEY and bound to this challenge's token. */
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    status: text('status').$type<AuthChallengeStatus>().notNull().default('pending'),
    clientAddress: text('client_address').notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [
    unique('auth_challenges_token_hash_unique').on(t.tokenHash),
    index('auth_challenges_patient_idx').on(t.clinicId, t.idNumber, t.createdAt),
    index('auth_challenges_phone_idx').on(t.phone, t.createdAt),
    index('auth_challenges_client_idx').on(t.clientAddress, t.createdAt),
    check('auth_challenges_purpose_check', sql`${t.purpose} IN ('login', 'sign_up')`),
    check(
      'auth_challenges_status_check',
      sql`${t.status} IN ('pending', 'used', 'replaced', 'dead')`,
    ),
  ],
);

/** One wrong code, for the per-patient limit that survives resends (patient = clinic + ID number). */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    idNumber: text('id_number').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('auth_failures_patient_idx').on(t.clinicId, t.idNumber, t.createdAt)],
);

/**
 * Counted actions for the per-subject limits of ADR 020: a phone hint disclosed (subject
 * `<clinic>:<ID number>`), a booking, a cancellation, a details message (subject: the patient's
 * id). Rows older than the longest window are deleted.
 */
export const limitEvents = pgTable(
  'limit_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').$type<LimitEventKind>().notNull(),
    subject: text('subject').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    index('limit_events_subject_idx').on(t.kind, t.subject, t.createdAt),
    check(
      'limit_events_kind_check',
      sql`${t.kind} IN ('phone_hint', 'book', 'cancel', 'details_message', 'waitlist_join', 'api_message', 'api_message_clinic')`,
    ),
  ],
);

export type LimitEventKind =
  | 'phone_hint'
  | 'book'
  | 'cancel'
  | 'details_message'
  | 'waitlist_join'
  /** A message the integration API sent, per clinic and recipient; and per clinic. */
  | 'api_message'
  | 'api_message_clinic';

/** A patient's session; the bearer token itself is never stored, only its SHA-256. */
export const patientSessions = pgTable(
  'patient_sessions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    createdAt: instant('created_at').notNull(),
    lastSeenAt: instant('last_seen_at').notNull(),
    /** The absolute end, whatever the activity. */
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [
    unique('patient_sessions_token_hash_unique').on(t.tokenHash),
    index('patient_sessions_patient_idx').on(t.patientId),
  ],
);

/**
 * Outbox rows are worked in lanes, each with its own claims and its own runs, so that one kind of work
 * never waits behind another: one-time codes ('codes') expire within minutes and must not queue
 * behind a hundred webhooks to a slow endpoint ('webhooks'); everything else is 'default'.
 * See docs/decisions/018-outbox-lanes-and-webhook-delivery.md.
 */
export const outboxLanes = ['codes', 'default', 'webhooks'] as const;
export type OutboxLane = (typeof outboxLanes)[number];

export const outboxStatuses = ['pending', 'sent', 'failed', 'expired'] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/**
 * Work to do after a change commits (SMS, WhatsApp, webhooks), written in the change's own
 * transaction and claimed by workers with FOR UPDATE SKIP LOCKED. The payload is encrypted
 * (it may hold a one-time code or health details) and erased once the work is done.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    topic: text('topic').notNull(),
    /** Which worker lane takes the row (platform/outbox: codes, default, webhooks). */
    lane: text('lane').$type<OutboxLane>().notNull().default('default'),
    /**
     * AES-256-GCM ciphertext of the JSON payload (platform/crypto.ts); null once processed, but for
     * a failed or expired message, which keeps whom and what it was for (platform/outbox, remains).
     */
    payload: text('payload'),
    status: text('status').$type<OutboxStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    /** A claim by a worker; past it, another worker may take the row again. */
    lockedUntil: instant('locked_until'),
    /** Past this, the work is pointless (a one-time code that has expired): not sent. */
    expiresAt: instant('expires_at'),
    lastError: text('last_error'),
    /** The clinic a message is sent for, so its owners see the ones that failed; null for none. */
    clinicId: integer('clinic_id').references(() => clinics.id, { onDelete: 'cascade' }),
    createdAt: instant('created_at').notNull(),
    processedAt: instant('processed_at'),
  },
  (t) => [
    index('outbox_clinic_failed_idx')
      .on(t.clinicId, t.id)
      .where(sql`status IN ('failed', 'expired')`),
    index('outbox_pending_idx')
      .on(t.lane, t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // Retention prunes processed rows by age (platform/retention.ts).
    index('outbox_processed_idx')
      .on(t.processedAt)
      .where(sql`status <> 'pending'`),
    check('outbox_status_check', sql`${t.status} IN ('pending', 'sent', 'failed', 'expired')`),
    check('outbox_lane_check', sql`${t.lane} IN ('codes', 'default', 'webhooks')`),
  ],
);

/** What an SMS provider last said of a message: sent, then delivered, undelivered or failed. */
export type DeliveryState = 'sent' | 'delivered' | 'undelivered' | 'failed';

/**
 * One SMS handed to (or refused by) a provider that reports delivery (Twilio, InforU), found by
 * its receipts through (provider, provider_message_id). No phone number or text: `ref` names a
 * login code's challenge (its token hash) so the code page can learn that the code did not
 * arrive, and `fallback` (sealed, like outbox payloads) holds what a WhatsApp fallback would send,
 * erased once the state is final.
 */
export const messageDeliveries = pgTable(
  'message_deliveries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    provider: text('provider').$type<'twilio' | 'inforu'>().notNull(),
    /** Null when the provider refused the message outright (no id was given). */
    providerMessageId: text('provider_message_id'),
    /** The outbox row that sent it (not a reference: processed rows are pruned). */
    outboxId: integer('outbox_id'),
    clinicId: integer('clinic_id').references(() => clinics.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    ref: text('ref'),
    state: text('state').$type<DeliveryState>().notNull(),
    /** The provider's error code for undelivered/failed ('30003', '21211', '-2'). */
    errorCode: text('error_code'),
    fallback: text('fallback'),
    /** When the message was queued again by WhatsApp because this one did not arrive. */
    fellBackAt: instant('fell_back_at'),
    createdAt: instant('created_at').notNull(),
    /** When the state last changed (the receipt's arrival). */
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('message_deliveries_provider_id_unique').on(t.provider, t.providerMessageId),
    index('message_deliveries_ref_idx')
      .on(t.ref)
      .where(sql`ref IS NOT NULL`),
    index('message_deliveries_created_idx').on(t.createdAt),
    check(
      'message_deliveries_state_check',
      sql`${t.state} IN ('sent', 'delivered', 'undelivered', 'failed')`,
    ),
    check('message_deliveries_provider_check', sql`${t.provider} IN ('twilio', 'inforu')`),
  ],
);

/** A clinic's intake form: the schema (steps and fields) its links are made from. */
export const formTemplates = pgTable(
  'form_templates',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    schema: jsonb('schema').$type<FormSchema>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('form_templates_clinic_name_unique').on(t.clinicId, t.name)],
);

export const formRequestStatuses = ['pending', 'submitted', 'cancelled'] as const;
export type FormRequestStatus = (typeof formRequestStatuses)[number];

/**
 * One patient's link to a form (`/q/<token>`). The schema is a snapshot of the template at
 * creation, so editing a template never changes a link already sent. Only the token's SHA-256
 * is kept. Past `expires_at` a pending link answers 404 like an unknown one.
 */
export const formRequests = pgTable(
  'form_requests',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    templateId: integer('template_id').references(() => formTemplates.id, {
      onDelete: 'set null',
    }),
    /** The template's name when the link was made: kept like the schema, whatever happens to it. */
    templateName: text('template_name'),
    schema: jsonb('schema').$type<FormSchema>().notNull(),
    /** AES-256-GCM ciphertext of the initData JSON: it names the patient. */
    initData: text('init_data').notNull(),
    /** The clinic's logo, absolute or root-relative; '' for none. */
    headerImage: text('header_image').notNull().default(''),
    /** SHA-256 (hex) of the link token. */
    tokenHash: text('token_hash').notNull(),
    status: text('status').$type<FormRequestStatus>().notNull().default('pending'),
    /** The patient the link was sent for (their ID number), '' when made without one. */
    patientIdNumber: text('patient_id_number').notNull().default(''),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    /** When the patient first opened the link (the desk shows "opened"). */
    openedAt: instant('opened_at'),
    submittedAt: instant('submitted_at'),
  },
  (t) => [
    unique('form_requests_token_hash_unique').on(t.tokenHash),
    index('form_requests_clinic_idx').on(t.clinicId, t.createdAt),
    index('form_requests_patient_idx').on(t.clinicId, t.patientIdNumber, t.id),
    check('form_requests_status_check', sql`${t.status} IN ('pending', 'submitted', 'cancelled')`),
    check('form_requests_expiry_check', sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

/** The answers of one form request (at most one), encrypted at rest. */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    requestId: integer('request_id')
      .notNull()
      .references(() => formRequests.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    /** AES-256-GCM ciphertext of the JSON of the validated values, signatures excepted. */
    answers: text('answers').notNull(),
    /** AES-256-GCM ciphertext of the JSON of the signature fields (name → image data URL). */
    signatures: text('signatures').notNull(),
    /** HMAC-SHA-256 (hex) of the canonical JSON of all values: recognises a repeated submit. */
    valuesHash: text('values_hash').notNull(),
    clientAddress: text('client_address').notNull(),
    submittedAt: instant('submitted_at').notNull(),
  },
  (t) => [
    unique('form_submissions_request_unique').on(t.requestId),
    index('form_submissions_clinic_idx').on(t.clinicId, t.submittedAt),
  ],
);

/**
 * The unsent answers of a pending form link (at most one per link), so a patient's work survives
 * a closed tab or a change of device without anything kept on the device. Deleted with the submit,
 * and pruned once the link is used, cancelled or expired.
 */
export const formDrafts = pgTable('form_drafts', {
  requestId: integer('request_id')
    .primaryKey()
    .references(() => formRequests.id, { onDelete: 'cascade' }),
  /** AES-256-GCM ciphertext of the JSON `{ inputData, stepIndex }`, signatures included. */
  draft: text('draft').notNull(),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * `verifying`: the provider reported an approved charge that is not confirmed yet (the
 * confirmation is queued, or the clinic has no provider credentials to confirm it with).
 */
export const paymentRequestStatuses = ['pending', 'verifying', 'paid', 'cancelled'] as const;
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];

/**
 * One payment link (`/p/<token>`): a sum in agorot (never floating point) for a clinic's card
 * terminal. Only the token's SHA-256 is kept. A paid request stays paid whatever comes later.
 */
export const paymentRequests = pgTable(
  'payment_requests',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    amountAgorot: integer('amount_agorot').notNull(),
    /** The provider's terminal name the frame is loaded for. */
    terminal: text('terminal').notNull(),
    /** The patient's ID number, passed to the frame as `contact`. */
    patientIdNumber: text('patient_id_number').notNull().default(''),
    /** Passed to the frame as `remarks` (usually the patient's name). */
    patientNameRemarks: text('patient_name_remarks').notNull().default(''),
    /** The receipt email the form starts with; the patient may change it. */
    patientEmail: text('patient_email').notNull().default(''),
    /** The most payments the patient may split the sum into (1 = a single payment). */
    maxPayments: smallint('max_payments').notNull().default(1),
    /** What the payment is for, shown to the clinic only. */
    description: text('description').notNull().default(''),
    /** What the payment is for, in the patient's words: shown on the payment page when set. */
    purpose: text('purpose').notNull().default(''),
    /** SHA-256 (hex) of the link token. */
    tokenHash: text('token_hash').notNull(),
    /**
     * The request's own reference, sent with the card frame (`marpe_ref`) and kept by the provider
     * with the charge: a charge carrying another request's reference never pays this one.
     */
    chargeRef: text('charge_ref').notNull(),
    status: text('status').$type<PaymentRequestStatus>().notNull().default('pending'),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    paidAt: instant('paid_at'),
  },
  (t) => [
    unique('payment_requests_token_hash_unique').on(t.tokenHash),
    unique('payment_requests_charge_ref_unique').on(t.chargeRef),
    // The target of payment_charges' (request_id, charge_ref) foreign key.
    unique('payment_requests_id_charge_ref_unique').on(t.id, t.chargeRef),
    index('payment_requests_clinic_idx').on(t.clinicId, t.createdAt),
    index('payment_requests_patient_idx').on(t.clinicId, t.patientIdNumber, t.id),
    check('payment_requests_amount_check', sql`${t.amountAgorot} BETWEEN 1 AND 100000000`),
    check('payment_requests_max_payments_check', sql`${t.maxPayments} BETWEEN 1 AND 36`),
    check(
      'payment_requests_status_check',
      sql`${t.status} IN ('pending', 'verifying', 'paid', 'cancelled')`,
    ),
    check('payment_requests_expiry_check', sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

/**
 * One callback of the card provider for a request, recorded once per provider transaction index.
 * `accepted` says whether it passed our checks (terminal, sum, instalments); only an accepted
 * `000` pays the request. The raw payload is kept minus any card data.
 */
export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    requestId: integer('request_id')
      .notNull()
      .references(() => paymentRequests.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    /** The provider's transaction index (`index`): the idempotency key of a callback. */
    providerIndex: text('provider_index').notNull(),
    responseCode: text('response_code').notNull(),
    confirmationCode: text('confirmation_code'),
    amountAgorot: integer('amount_agorot'),
    /** 1 for a single payment, 8 for instalments. */
    credType: text('cred_type'),
    payments: smallint('payments').notNull().default(1),
    firstPaymentAgorot: integer('first_payment_agorot'),
    laterPaymentAgorot: integer('later_payment_agorot'),
    /** Never a full card number. */
    cardLast4: text('card_last4'),
    accepted: boolean('accepted').notNull(),
    /** Why a callback was not accepted (terminal_mismatch, sum_mismatch, …); null when accepted. */
    rejectionReason: text('rejection_reason'),
    /**
     * What the provider's API said of this index when asked (ADR 017): 'confirmed' (exists,
     * approved, matching), 'refused' (missing, declined or not matching), 'unverifiable' (no
     * credentials); null until asked. `providerAnswer` keeps its answer, minus card data.
     */
    verification: text('verification').$type<'confirmed' | 'refused' | 'unverifiable'>(),
    providerAnswer: jsonb('provider_answer').$type<Record<string, unknown>>(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull(),
    receivedAt: instant('received_at').notNull(),
  },
  (t) => [
    unique('payment_transactions_request_index_unique').on(t.requestId, t.providerIndex),
    index('payment_transactions_clinic_idx').on(t.clinicId, t.receivedAt),
    check('payment_transactions_card_last4_check', sql`${t.cardLast4} ~ '^[0-9]{4}$'`),
    check(
      'payment_transactions_verification_check',
      sql`${t.verification} IN ('confirmed', 'refused', 'unverifiable')`,
    ),
  ],
);

/**
 * The provider charges that paid a request: one row per provider transaction (terminal, index),
 * so one real charge confirms at most one request, ever, whatever races between callbacks. The
 * terminal is kept lower-case (the provider's names are not case-sensitive).
 */
export const paymentCharges = pgTable(
  'payment_charges',
  {
    terminal: text('terminal').notNull(),
    providerIndex: text('provider_index').notNull(),
    requestId: integer('request_id')
      .notNull()
      .references(() => paymentRequests.id, { onDelete: 'cascade' }),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => paymentTransactions.id, { onDelete: 'cascade' }),
    /**
     * The reference the provider kept with the charge: the foreign key below holds it to the
     * paying request's own, so the database never binds a charge to a request it was not made for.
     */
    chargeRef: text('charge_ref').notNull(),
    confirmedAt: instant('confirmed_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'payment_charges_pkey', columns: [t.terminal, t.providerIndex] }),
    foreignKey({
      name: 'payment_charges_request_ref_fk',
      columns: [t.requestId, t.chargeRef],
      foreignColumns: [paymentRequests.id, paymentRequests.chargeRef],
    }).onDelete('cascade'),
    check('payment_charges_terminal_check', sql`${t.terminal} = lower(${t.terminal})`),
  ],
);

/**
 * A clinic's key to the integration API (`Authorization: Bearer <key>`). Only the key's SHA-256
 * is kept; `prefix` (its first characters) lets people tell keys apart in lists and logs.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text('key_hash').notNull(),
    createdAt: instant('created_at').notNull(),
    lastUsedAt: instant('last_used_at'),
    revokedAt: instant('revoked_at'),
  },
  (t) => [
    unique('api_keys_key_hash_unique').on(t.keyHash),
    index('api_keys_clinic_idx').on(t.clinicId),
  ],
);

/** Who changed what, when: every write through the integration API, the CLI and the connection pages. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id').references(() => clinics.id, { onDelete: 'cascade' }),
    /** `api_key:<id>`, `cli`, `whatsapp_signup`, `shaam_auth`, … */
    actor: text('actor').notNull(),
    /** `<resource>.<verb>`, e.g. `caregiver.create`, `appointment.cancel`. */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** What changed, never secrets or health details. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('audit_log_clinic_idx').on(t.clinicId, t.createdAt)],
);

/** Where a clinic receives events; `secret` (encrypted: it is needed to sign) keys the signature. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** AES-256-GCM ciphertext of the signing secret. */
    secret: text('secret').notNull(),
    /**
     * The secret a rotation replaced, encrypted like `secret`: it keeps signing beside the new one
     * until `previous_secret_until`, so a receiver can switch without refusing an event.
     */
    previousSecret: text('previous_secret'),
    previousSecretUntil: instant('previous_secret_until'),
    /** The event types it receives; empty means all. */
    events: jsonb('events').$type<WebhookEventType[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(true),
    /** Failed tries in a row, across deliveries: the circuit breaker opens at a threshold. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** While in the future, deliveries to the endpoint wait (not tried, not failed). */
    circuitOpenUntil: instant('circuit_open_until'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_clinic_idx').on(t.clinicId)],
);

/** One event to one endpoint: the delivery log (the work itself goes through the outbox). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    /** The event's unique id (sent in the body and a header): receivers de-duplicate by it. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').$type<WebhookEventType>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: instant('created_at').notNull(),
    lastAttemptAt: instant('last_attempt_at'),
    deliveredAt: instant('delivered_at'),
    /**
     * AES-256-GCM ciphertext (platform/crypto.ts) of the exact JSON body sent, bound to the row
     * (`sealedAt('webhook_deliveries', 'body', id)`): kept until the delivery succeeds, so that a
     * failed one can be sent again (`POST /webhook-deliveries/:id/retry`); null once delivered.
     */
    body: text('body'),
  },
  (t) => [
    unique('webhook_deliveries_endpoint_event_unique').on(t.endpointId, t.eventId),
    index('webhook_deliveries_clinic_idx').on(t.clinicId, t.createdAt),
    // Retention prunes settled deliveries by age (platform/retention.ts).
    index('webhook_deliveries_settled_idx')
      .on(t.createdAt)
      .where(sql`status <> 'pending'`),
    check(
      'webhook_deliveries_status_check',
      sql`${t.status} IN ('pending', 'delivered', 'failed')`,
    ),
  ],
);

export const connectionPurposes = ['whatsapp', 'shaam'] as const;
export type ConnectionPurpose = (typeof connectionPurposes)[number];

/**
 * A single-use, expiring token a clinic gets from the integration API to connect an outside
 * account: the WhatsApp page's `clientId`, or the Tax Authority's OAuth `state`. Hash only.
 */
export const connectionTokens = pgTable(
  'connection_tokens',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<ConnectionPurpose>().notNull(),
    /** SHA-256 (hex) of the token. */
    tokenHash: text('token_hash').notNull(),
    /** Where the browser goes when the connection is done (Tax Authority). */
    returnUrl: text('return_url'),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [
    unique('connection_tokens_token_hash_unique').on(t.tokenHash),
    check('connection_tokens_purpose_check', sql`${t.purpose} IN ('whatsapp', 'shaam')`),
    check('connection_tokens_expiry_check', sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

/** A clinic's WhatsApp Business number, connected through Meta's embedded sign-up. */
export const whatsappConnections = pgTable('whatsapp_connections', {
  clinicId: integer('clinic_id')
    .primaryKey()
    .references(() => clinics.id, { onDelete: 'cascade' }),
  wabaId: text('waba_id').notNull(),
  phoneNumberId: text('phone_number_id').notNull(),
  businessId: text('business_id').notNull(),
  /** AES-256-GCM ciphertext of the business token. */
  accessToken: text('access_token').notNull(),
  connectedAt: instant('connected_at').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A clinic's Tax Authority (SHAAM) OAuth client and tokens. The client secret and the tokens are
 * encrypted; the tokens are null until the clinic completes the connection.
 */
export const shaamConnections = pgTable('shaam_connections', {
  clinicId: integer('clinic_id')
    .primaryKey()
    .references(() => clinics.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  /** AES-256-GCM ciphertext. */
  clientSecret: text('client_secret').notNull(),
  /** AES-256-GCM ciphertext of the access token; null until connected. */
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  tokenExpiresAt: instant('token_expires_at'),
  connectedAt: instant('connected_at'),
  updatedAt: updatedAt(),
});

export const waitlistStatuses = ['waiting', 'booked', 'left'] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];

/**
 * A patient waiting for a time to free up with a caregiver, for a type, on the dates
 * [from_date, to_date] (clinic time) and a part of the day (docs/booking.md "Waitlist"). Past its
 * to_date a 'waiting' entry is expired: worked out from the date, never offered, listed or counted.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    appointmentTypeId: integer('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    partOfDay: text('part_of_day').$type<PartOfDay>().notNull(),
    /** The language the patient joined in: the offers speak it. */
    language: text('language').$type<MessageLanguage>().notNull(),
    status: text('status').$type<WaitlistStatus>().notNull().default('waiting'),
    createdAt: instant('created_at').notNull(),
    /** When it was booked or left. */
    closedAt: instant('closed_at'),
  },
  (t) => [
    // The offer worker's queue: a caregiver's waiting entries in the order they joined.
    index('waitlist_entries_caregiver_idx')
      .on(t.caregiverId, t.createdAt, t.id)
      .where(sql`status = 'waiting'`),
    index('waitlist_entries_patient_idx').on(t.patientId, t.status),
    check('waitlist_entries_range_check', sql`${t.toDate} >= ${t.fromDate}`),
    check(
      'waitlist_entries_part_of_day_check',
      sql`${t.partOfDay} IN ('morning', 'afternoon', 'any')`,
    ),
    check('waitlist_entries_language_check', sql`${t.language} IN ('he', 'en')`),
    check('waitlist_entries_status_check', sql`${t.status} IN ('waiting', 'booked', 'left')`),
  ],
);

/**
 * A freed slot offered to a waiting entry by message: one entry is never offered one slot twice,
 * and a slot is held for a few entries at a time (docs/booking.md "Waitlist").
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: 'cascade' }),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    offeredAt: instant('offered_at').notNull(),
  },
  (t) => [
    unique('waitlist_offers_entry_slot_unique').on(t.entryId, t.startAt),
    index('waitlist_offers_caregiver_idx').on(t.caregiverId, t.offeredAt),
    check('waitlist_offers_time_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/** Where a caregiver's Google Calendar sync stands (GET /api/integration/calendar-sync). */
export const calendarSyncStates = [
  'pending',
  'syncing',
  'read_only',
  'no_access',
  'not_found',
  'error',
] as const;
export type CalendarSyncState = (typeof calendarSyncStates)[number];

/**
 * One synced Google Calendar per caregiver (its `google_calendar_sync_calendar_id`), kept in step
 * with the caregivers by the sync worker (modules/calendar-sync). `next_sync_at` is when the next
 * pass is due (a push notification sets it to now, a poll every 5 minutes otherwise); `lease_until`
 * holds a pass for one worker. The push channel's token is kept as its SHA-256 only.
 */
export const calendarSyncs = pgTable(
  'calendar_syncs',
  {
    caregiverId: integer('caregiver_id')
      .primaryKey()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    calendarId: text('calendar_id').notNull(),
    state: text('state').$type<CalendarSyncState>().notNull().default('pending'),
    lastError: text('last_error'),
    lastSyncedAt: instant('last_synced_at'),
    /** Google's `nextSyncToken`; null means the next pass is a full one. */
    syncToken: text('sync_token'),
    /** The last full read; a day later the next pass reads everything again. */
    fullSyncedAt: instant('full_synced_at'),
    failures: integer('failures').notNull().default(0),
    nextSyncAt: instant('next_sync_at').notNull(),
    leaseUntil: instant('lease_until'),
    channelId: text('channel_id'),
    channelResourceId: text('channel_resource_id'),
    channelTokenHash: text('channel_token_hash'),
    channelExpiresAt: instant('channel_expires_at'),
  },
  (t) => [
    index('calendar_syncs_due_idx').on(t.nextSyncAt),
    unique('calendar_syncs_channel_unique').on(t.channelId),
    check(
      'calendar_syncs_state_check',
      sql`${t.state} IN ('pending', 'syncing', 'read_only', 'no_access', 'not_found', 'error')`,
    ),
  ],
);

/** The calendar providers a caregiver connects by consent. */
export const calendarProviders = ['google', 'microsoft'] as const;
export type CalendarProviderName = (typeof calendarProviders)[number];

/**
 * A caregiver's own calendar, connected by consent (OAuth 2.0 code + PKCE; docs/calendar-sync.md,
 * "Connecting by consent"): the Google account that consented, the calendar it chose, and its
 * refresh token sealed with DATA_KEY (bound to the caregiver's row). One connection per calendar
 * across every clinic (a unique index on lower(calendar_id), in the migration).
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    caregiverId: integer('caregiver_id')
      .primaryKey()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<CalendarProviderName>().notNull(),
    accountEmail: text('account_email').notNull(),
    calendarId: text('calendar_id').notNull(),
    /** Sealed (`encryptText`, purpose 'calendar'). */
    refreshToken: text('refresh_token').notNull(),
    scope: text('scope').notNull(),
    connectedAt: instant('connected_at').notNull(),
  },
  (t) => [
    uniqueIndex('calendar_connections_calendar_unique').on(sql`lower(${t.calendarId})`),
    check('calendar_connections_provider_check', sql`${t.provider} IN ('google', 'microsoft')`),
  ],
);

/**
 * A one-time connection link: its token kept as SHA-256 only, valid 24 hours, used once, voided
 * by a newer one. Opening it and pressing "continue" stores the PKCE verifier (sealed) and the
 * OAuth `state` (hashed) with it, and gives that browser the link in a cookie (Google's answer
 * must come back to it); Google's answer leaves the account and its tokens here (sealed)
 * until the caregiver chooses a calendar, which uses the link.
 */
export const calendarConnectionLinks = pgTable(
  'calendar_connection_links',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<CalendarProviderName>().notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    stateHash: text('state_hash'),
    /** Sealed. */
    codeVerifier: text('code_verifier'),
    accountEmail: text('account_email'),
    /** Sealed. */
    refreshToken: text('refresh_token'),
    /** Sealed. */
    accessToken: text('access_token'),
    accessExpiresAt: instant('access_expires_at'),
    scope: text('scope'),
  },
  (t) => [
    unique('calendar_connection_links_token_unique').on(t.tokenHash),
    unique('calendar_connection_links_state_unique').on(t.stateHash),
    index('calendar_connection_links_caregiver_idx').on(t.caregiverId),
    check(
      'calendar_connection_links_provider_check',
      sql`${t.provider} IN ('google', 'microsoft')`,
    ),
  ],
);

/**
 * The mirror of a synced calendar: its events that matter to availability, one row per event
 * instance (recurring events arrive expanded). Busy events (not free, not cancelled, not declined
 * by the calendar's owner) block slots; the events Marpe wrote itself (`appointment_id`) are kept
 * to notice when the caregiver deletes one, and never block (the appointment already does).
 */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    /** Marpe's own event: the appointment it shows (its private extended property). */
    appointmentId: integer('appointment_id'),
    /** false for Marpe's own events that are no longer busy (deleted in the calendar). */
    busy: boolean('busy').notNull(),
    /**
     * An all-day event marked "Free": it blocks only while its clinic's
     * `calendar_all_day_events_block` is on, decided when slots are read.
     */
    allDayFree: boolean('all_day_free').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'calendar_events_pkey', columns: [t.caregiverId, t.eventId] }),
    index('calendar_events_window_idx').on(t.caregiverId, t.startAt),
    check('calendar_events_time_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/** Where Marpe wrote an appointment's event (the write-back through the outbox). */
export const calendarEventLinks = pgTable('calendar_event_links', {
  appointmentId: integer('appointment_id')
    .primaryKey()
    .references(() => appointments.id, { onDelete: 'cascade' }),
  caregiverId: integer('caregiver_id').notNull(),
  calendarId: text('calendar_id').notNull(),
  eventId: text('event_id').notNull(),
  /** false once Marpe deleted the event (the appointment cancelled or moved to another calendar). */
  present: boolean('present').notNull(),
  writtenAt: instant('written_at').notNull(),
});

/**
 * A clash between the calendar and a Marpe booking that Marpe does not resolve by itself: the
 * caregiver deleted Marpe's event, or put another event over the appointment. Reported once
 * (webhook appointment.calendar_conflict) and listed in the integration API.
 */
export const calendarConflicts = pgTable(
  'calendar_conflicts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    caregiverId: integer('caregiver_id').notNull(),
    kind: text('kind').$type<'event_deleted' | 'overlap'>().notNull(),
    eventId: text('event_id').notNull(),
    detectedAt: instant('detected_at').notNull(),
  },
  (t) => [
    unique('calendar_conflicts_unique').on(t.appointmentId, t.kind, t.eventId),
    index('calendar_conflicts_clinic_idx').on(t.clinicId, t.detectedAt),
    check('calendar_conflicts_kind_check', sql`${t.kind} IN ('event_deleted', 'overlap')`),
  ],
);

/** Raw bytes (images the clinic uploads). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A day the whole clinic is closed (a holiday, a move): no caregiver is offered on it, whatever
 * their weekly hours or exceptions say. A date in the clinic's time zone.
 */
export const clinicClosures = pgTable(
  'clinic_closures',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    /** For the clinic's staff (which holiday); never shown to patients. */
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [unique('clinic_closures_clinic_date_unique').on(t.clinicId, t.date)],
);

/**
 * An image a clinic uploaded (its logo, a caregiver's photo), served publicly at
 * `/api/images/<id>.<ext>` with a long cache: the clinic page and the desk show it.
 */
export const clinicImages = pgTable(
  'clinic_images',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('clinic_images_clinic_idx').on(t.clinicId),
    check(
      'clinic_images_content_type_check',
      sql`${t.contentType} IN ('image/png', 'image/jpeg', 'image/webp')`,
    ),
  ],
);

/** The desk's set-up steps an owner marked done (the checklist they can leave and resume). */
export const clinicSetupSteps = pgTable(
  'clinic_setup_steps',
  {
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    step: text('step').notNull(),
    doneAt: instant('done_at').notNull(),
    /** The audit actor who marked it. */
    doneBy: text('done_by').notNull(),
  },
  (t) => [primaryKey({ name: 'clinic_setup_steps_pkey', columns: [t.clinicId, t.step] })],
);

/**
 * A person who works at one or more clinics and signs in to the desk with their mobile number.
 * Separate from patients: a patient and a staff member with one phone are two accounts.
 */
export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Normalised: 05XXXXXXXX. */
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('staff_accounts_phone_unique').on(t.phone)],
);

/** A staff account's role at one clinic. Removing someone deletes the row (audited). */
export const staffMemberships = pgTable(
  'staff_memberships',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    role: text('role').$type<StaffRole>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('staff_memberships_clinic_account_unique').on(t.clinicId, t.accountId),
    index('staff_memberships_account_idx').on(t.accountId),
    check('staff_memberships_role_check', sql`${t.role} IN ('owner', 'front_desk')`),
  ],
);

/**
 * A one-time link that makes its holder a member of a clinic once they prove the invited phone
 * with an SMS code. Hash only; it ends when used, revoked or at `expires_at`.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    role: text('role').$type<StaffRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The audit actor who invited. */
    invitedBy: text('invited_by').notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    revokedAt: instant('revoked_at'),
  },
  (t) => [
    unique('staff_invitations_token_hash_unique').on(t.tokenHash),
    index('staff_invitations_clinic_idx').on(t.clinicId, t.createdAt),
    check('staff_invitations_role_check', sql`${t.role} IN ('owner', 'front_desk')`),
  ],
);

/**
 * One sign-in code sent to a staff phone (the patients' code machinery: the same lifetime,
 * resend cooldown, send limits and wrong-code limits). `invitation_id` when the code accepts an
 * invitation (the account may not exist yet). Rows older than a day are deleted.
 */
export const staffChallenges = pgTable(
  'staff_challenges',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    phone: text('phone').notNull(),
    invitationId: integer('invitation_id').references(() => staffInvitations.id, {
      onDelete: 'cascade',
    }),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    status: text('status').$type<AuthChallengeStatus>().notNull().default('pending'),
    clientAddress: text('client_address').notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [
    unique('staff_challenges_token_hash_unique').on(t.tokenHash),
    index('staff_challenges_phone_idx').on(t.phone, t.createdAt),
    index('staff_challenges_client_idx').on(t.clientAddress, t.createdAt),
    check(
      'staff_challenges_status_check',
      sql`${t.status} IN ('pending', 'used', 'replaced', 'dead')`,
    ),
  ],
);

/** One wrong staff sign-in code, for the per-phone limit that survives resends. */
export const staffFailures = pgTable(
  'staff_failures',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    phone: text('phone').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('staff_failures_phone_idx').on(t.phone, t.createdAt)],
);

/** A desk session (an httpOnly cookie holds the token; only its SHA-256 is kept). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    /** How the person proved themselves: 'sms' or 'passkey'. */
    method: text('method').$type<'sms' | 'passkey'>().notNull(),
    createdAt: instant('created_at').notNull(),
    lastSeenAt: instant('last_seen_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [
    unique('staff_sessions_token_hash_unique').on(t.tokenHash),
    index('staff_sessions_account_idx').on(t.accountId),
    check('staff_sessions_method_check', sql`${t.method} IN ('sms', 'passkey')`),
  ],
);

/** A passkey (WebAuthn credential) a staff account signs in with instead of an SMS code. */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    /** base64url, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    /** What the person called it ("office laptop"). */
    name: text('name').notNull(),
    createdAt: instant('created_at').notNull(),
    lastUsedAt: instant('last_used_at'),
  },
  (t) => [
    unique('staff_passkeys_credential_unique').on(t.credentialId),
    index('staff_passkeys_account_idx').on(t.accountId),
  ],
);

/** A WebAuthn challenge handed out for one registration or sign-in, used once. */
export const staffPasskeyChallenges = pgTable(
  'staff_passkey_challenges',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose').$type<'register' | 'sign_in'>().notNull(),
    /** The account registering; null for a sign-in (the passkey names its account). */
    accountId: integer('account_id').references(() => staffAccounts.id, { onDelete: 'cascade' }),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [
    unique('staff_passkey_challenges_challenge_unique').on(t.challenge),
    check('staff_passkey_challenges_purpose_check', sql`${t.purpose} IN ('register', 'sign_in')`),
  ],
);

/**
 * The data keys whose ciphertexts the database may hold, by key id (`dataKeyId`): a server
 * registers its DATA_KEY at start-up, and refuses to start when one of these is neither its
 * DATA_KEY nor in DATA_KEY_PREVIOUS (platform/key-rotation.ts). A completed rotation drops the ids
 * no value carries any more.
 */
export const dataKeys = pgTable(
  'data_keys',
  {
    keyId: text('key_id').primaryKey(),
    firstUsedAt: instant('first_used_at').notNull().defaultNow(),
  },
  (t) => [check('data_keys_key_id_check', sql`${t.keyId} ~ '^[0-9a-f]{8}$'`)],
);
