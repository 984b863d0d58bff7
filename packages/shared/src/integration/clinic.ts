// Over 400 lines: the integration API's clinic data and appointment schemas, one module as
// docs/integration.md has one section.
import { z } from 'zod';
import {
  appointmentTypeSchema,
  clinicSchema,
  localDateSchema,
  marpeRulesSchema,
  openingHoursSchema,
  timeOfDaySchema,
  timeRangeSchema,
  weekDays,
} from '../clinic.js';
import { isValidIsraeliId, normaliseIdNumber } from '../identity.js';
import { instantSchema } from '../instant.js';

// The integration API's clinic data and appointments (docs/integration.md, "Clinic data and
// appointments"): what a clinic's practice-management software reads and writes with its API key.
// Entities are snake_case like the public API. Write bodies are strict: a misspelt or misplaced
// field is a 400 naming it rather than a change silently not made.

const MAX_STORED_ID = 2_147_483_647;

const idSchema = z
  .number({ error: 'Expected a whole number' })
  .int('Expected a whole number')
  .positive('Expected a positive whole number')
  .max(MAX_STORED_ID, 'Expected a stored id');

/** `:id` of an integration path; a number past the stored range names nothing (404). */
export const integrationIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Expected a whole number' })
    .int('Expected a whole number')
    .positive('Expected a positive whole number'),
});

/** Ids listed once each. */
const idListSchema = z
  .array(idSchema)
  .max(200)
  .refine((ids) => new Set(ids).size === ids.length, 'An id is listed twice');

const text = (max: number) => z.string().trim().min(1, 'Must not be empty').max(max);

/** An absolute http(s) URL, or a path on this site ('/demo/logo.svg'). */
export const imageUrlSchema = z
  .string()
  .max(2000)
  .refine(
    (value) => /^\/(?!\/)/.test(value) || (/^https?:\/\//i.test(value) && URL.canParse(value)),
    'Expected an http(s) URL or a path starting with /',
  );

export const clinicNameSchema = text(200);
/** A landline or mobile number as the clinic shows it ('03-5551234', '+972 3 555 1234'). */
export const clinicPhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 -]{5,18}[0-9]$/, 'Expected a phone number (digits, spaces, dashes)');
/** A part of the clinic's address: street, home number or city. */
export const addressPartSchema = text(200);

export const messagingChannelSchema = z.enum(['sms', 'whatsapp']);

/**
 * What an appointment shows in the caregiver's own calendar (the iCalendar feed, the Google
 * write-back): `full` (patient name, phone, type), `initials` (type and initials), `minimal`
 * (only that it is an appointment). Never the ID number.
 */
export const calendarEventDetails = ['full', 'initials', 'minimal'] as const;
export const calendarEventDetailSchema = z.enum(calendarEventDetails);
export type CalendarEventDetail = z.infer<typeof calendarEventDetailSchema>;

/** Who booked an appointment: the patient online, or the clinic through this API. */
export const appointmentSources = ['patient', 'clinic'] as const;
export const appointmentSourceSchema = z.enum(appointmentSources);
export type AppointmentSource = z.infer<typeof appointmentSourceSchema>;

/** The booking rules a caregiver inherits from its clinic unless it sets its own. */
const bookingRuleSchemas = {
  slot_step_minutes: marpeRulesSchema.shape.slot_step_minutes,
  min_notice_minutes: marpeRulesSchema.shape.min_notice_minutes,
  booking_horizon_days: marpeRulesSchema.shape.booking_horizon_days,
};
const cancelNoticeMinutesSchema = z
  .number()
  .int()
  .min(0)
  .max(60 * 24 * 30);

/** Which changes to an appointment its patient is told of, per kind. */
export const changeNoticesSchema = z.object({
  booked: z.boolean(),
  moved: z.boolean(),
  cancelled: z.boolean(),
});
export type ChangeNotices = z.infer<typeof changeNoticesSchema>;

const messageCapsSchema = z.object({
  per_recipient_per_hour: z.number().int(),
  per_recipient_per_day: z.number().int(),
  per_clinic_per_day: z.number().int(),
});

/** `GET /api/integration/clinic`: the public clinic and what only the clinic sees. */
export const integrationClinicSchema = clinicSchema.extend({
  settings: clinicSchema.shape.settings.extend({
    /** How patients get appointment details and links; 'whatsapp' once WhatsApp is connected. */
    messaging_channel: messagingChannelSchema,
    /** The card terminal payment requests use unless one names another. */
    card_terminal: z.string().nullable(),
    /** A patient may cancel online until this many minutes before the start. */
    cancel_notice_minutes: z.number().int(),
    /** Booked, not yet ended appointments one patient may hold (1–20, default 3). */
    max_upcoming_appointments: z.number().int(),
    /** What appointments show in the caregivers' calendars (feed, Google); default `full`. */
    calendar_event_detail: calendarEventDetailSchema,
    /**
     * The caps in force on every message the clinic sends its patients (reminders, offers,
     * links, details; not login codes): the clinic's own, but never above the operator's ceilings.
     */
    message_caps: messageCapsSchema,
    /** Waitlist offers one entry gets per clinic day at most (1–10, default 1). */
    waitlist_offers_per_entry_per_day: z.number().int(),
    /**
     * Whether the patient is told of each change to an appointment, whoever made it (the
     * patient, the clinic by key or desk): booked (default off), moved and cancelled (default on).
     */
    change_notices: changeNoticesSchema,
    /**
     * Whether all-day events of the caregivers' synced calendars block their days even when
     * marked "Free" (Google's default for all-day; default true). False: an all-day event blocks
     * only when marked "Busy", like a timed one (docs/calendar-sync.md, "What blocks a slot").
     */
    calendar_all_day_events_block: z.boolean(),
  }),
  /** What a caregiver's rule set to null stands for. */
  default_marpe_rules: z.object(bookingRuleSchemas),
  /** The operator's ceilings (MESSAGE_CAP_*_MAX): `settings.message_caps` may not exceed them. */
  message_cap_ceilings: messageCapsSchema,
});
export type IntegrationClinic = z.infer<typeof integrationClinicSchema>;

/** `PATCH /api/integration/clinic`: only the fields given change; `opening_hours` is replaced whole. */
export const updateClinicBodySchema = z.strictObject({
  name: clinicNameSchema.optional(),
  description: z.string().max(5000).optional(),
  image_url: imageUrlSchema.nullable().optional(),
  logo_url: imageUrlSchema.nullable().optional(),
  phone: clinicPhoneSchema.optional(),
  email: z.email('Expected an email address').max(254).nullable().optional(),
  address: z
    .strictObject({
      street: addressPartSchema,
      home_number: addressPartSchema,
      city: addressPartSchema,
    })
    .partial()
    .optional(),
  opening_hours: openingHoursSchema.optional(),
  /** An IANA zone name ('Asia/Jerusalem'), checked by the server. */
  timezone: z.string().max(100).optional(),
  settings: z
    .strictObject({
      is_accept_new_patients: z.boolean(),
      is_auto_sms_enabled: z.boolean(),
      messaging_channel: messagingChannelSchema,
      card_terminal: text(100).nullable(),
      cancel_notice_minutes: cancelNoticeMinutesSchema,
      max_upcoming_appointments: z.number().int().min(1).max(20),
      calendar_event_detail: calendarEventDetailSchema,
      message_caps: z
        .strictObject({
          per_recipient_per_hour: z.number().int().min(1).max(100),
          per_recipient_per_day: z.number().int().min(1).max(1000),
          per_clinic_per_day: z.number().int().min(1).max(100_000),
        })
        .partial(),
      waitlist_offers_per_entry_per_day: z.number().int().min(1).max(10),
      change_notices: z.strictObject(changeNoticesSchema.shape).partial(),
      calendar_all_day_events_block: z.boolean(),
    })
    .partial()
    .optional(),
  default_marpe_rules: z.strictObject(bookingRuleSchemas).partial().optional(),
});
export type UpdateClinicBody = z.infer<typeof updateClinicBodySchema>;

/** Names every range (by start) starting before an earlier one ends. */
function refineDisjoint(
  ranges: readonly { start: string; end: string }[],
  ctx: z.core.$RefinementCtx,
  pathOf: (index: number) => (string | number)[],
): void {
  // Ranges already refused by their own schema are left to that message.
  const valid = ranges
    .map((range, index) => ({ ...range, index }))
    .filter((r) => typeof r.start === 'string' && typeof r.end === 'string' && r.start < r.end)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  // The earlier range reaching furthest: a later one overlaps some earlier one iff it overlaps this.
  let reach = valid[0];
  for (const range of valid.slice(1)) {
    if (reach && range.start < reach.end) {
      ctx.addIssue({
        code: 'custom',
        path: pathOf(range.index),
        message: `Overlaps ${reach.start}-${reach.end}`,
      });
    }
    if (!reach || range.end > reach.end) reach = range;
  }
}

/** One day's working intervals: not overlapping (touching is fine: 08:00-12:00, 12:00-16:00). */
const dayHoursSchema = z
  .array(timeRangeSchema)
  .max(24)
  .superRefine((ranges, ctx) => refineDisjoint(ranges, ctx, (i) => [i]));

/** The weekly hours as written: a missing day has no hours. */
const weeklyHoursInputSchema = z.strictObject(
  Object.fromEntries(weekDays.map((day) => [day, dayHoursSchema.default([])])) as Record<
    (typeof weekDays)[number],
    z.ZodDefault<typeof dayHoursSchema>
  >,
);

const breakSchema = z
  .object({
    /** null: every day. */
    day: z.enum(weekDays).nullable(),
    start: timeOfDaySchema,
    end: timeOfDaySchema,
  })
  .refine((b) => b.start < b.end, { message: 'start must be before end', path: ['end'] });

/** Breaks; two of the same `day` must not overlap. */
const breaksSchema = z
  .array(breakSchema)
  .max(100)
  .superRefine((breaks, ctx) => {
    for (const day of [null, ...weekDays]) {
      const indexes = breaks.flatMap((b, i) => (b.day === day ? [i] : []));
      refineDisjoint(
        indexes.map((i) => breaks[i] as { start: string; end: string }),
        ctx,
        (j) => [indexes[j] as number],
      );
    }
  });

const exceptionSchema = z.object({
  /** A date in the clinic's time zone, today or later. */
  date: localDateSchema,
  /** For the clinic's staff only (holiday, conference…). */
  note: z.string().trim().max(500).nullable().optional(),
  /** Replace that date's weekly hours; none is a day off. */
  hours: dayHoursSchema,
});

const exceptionsSchema = z
  .array(exceptionSchema)
  .max(500)
  .superRefine((exceptions, ctx) => {
    const seen = new Set<string>();
    exceptions.forEach((e, i) => {
      if (seen.has(e.date)) {
        ctx.addIssue({ code: 'custom', path: [i, 'date'], message: 'This date is listed twice' });
      }
      seen.add(e.date);
    });
  });

/**
 * A caregiver's `marpe_rules` as written: null rules inherit the clinic's `default_marpe_rules`.
 * Each part given replaces the caregiver's whole part: all weekly hours, all breaks, all
 * exceptions from today (clinic time) on.
 */
const caregiverRulesInputSchema = z.strictObject({
  slot_step_minutes: bookingRuleSchemas.slot_step_minutes.nullable().optional(),
  min_notice_minutes: bookingRuleSchemas.min_notice_minutes.nullable().optional(),
  booking_horizon_days: bookingRuleSchemas.booking_horizon_days.nullable().optional(),
  weekly_hours: weeklyHoursInputSchema.optional(),
  breaks: breaksSchema.optional(),
  exceptions: exceptionsSchema.optional(),
});
export type CaregiverRulesInput = z.infer<typeof caregiverRulesInputSchema>;

/** A caregiver as the clinic manages it, inactive ones included. */
export const integrationCaregiverSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  license_number: z.string(),
  google_calendar_sync_calendar_id: z.string().nullable(),
  /** Inactive caregivers are off the clinic page and take no bookings; their appointments stay. */
  is_active: z.boolean(),
  /** Place on the clinic page, smallest first. */
  sort_order: z.number().int(),
  /** The appointment types the caregiver offers. */
  appointment_type_ids: z.array(z.number().int()),
  /** The caregiver's own rules (null: the clinic's default) and schedule. */
  marpe_rules: z.object({
    slot_step_minutes: z.number().int().nullable(),
    min_notice_minutes: z.number().int().nullable(),
    booking_horizon_days: z.number().int().nullable(),
    weekly_hours: marpeRulesSchema.shape.weekly_hours,
    breaks: marpeRulesSchema.shape.breaks,
    /** From today (clinic time) on, by date. */
    exceptions: z.array(
      z.object({ date: z.string(), note: z.string().nullable(), hours: z.array(timeRangeSchema) }),
    ),
  }),
});
export type IntegrationCaregiver = z.infer<typeof integrationCaregiverSchema>;

export const integrationCaregiversSchema = z.array(integrationCaregiverSchema);

/** `POST /api/integration/caregivers`. */
export const createCaregiverBodySchema = z.strictObject({
  name: text(200),
  license_number: text(50),
  image: imageUrlSchema.nullable().optional(),
  google_calendar_sync_calendar_id: text(300).nullable().optional(),
  is_active: z.boolean().optional(),
  sort_order: z.number().int().min(0).max(100_000).optional(),
  appointment_type_ids: idListSchema.optional(),
  marpe_rules: caregiverRulesInputSchema.optional(),
});
export type CreateCaregiverBody = z.infer<typeof createCaregiverBodySchema>;

/** `PATCH /api/integration/caregivers/:id`: only the fields given change. */
export const updateCaregiverBodySchema = createCaregiverBodySchema.partial();
export type UpdateCaregiverBody = z.infer<typeof updateCaregiverBodySchema>;

export const integrationAppointmentTypeSchema = appointmentTypeSchema.extend({
  /** The caregivers offering it. */
  caregiver_ids: z.array(z.number().int()),
});
export type IntegrationAppointmentType = z.infer<typeof integrationAppointmentTypeSchema>;

export const integrationAppointmentTypesSchema = z.array(integrationAppointmentTypeSchema);

/** `POST /api/integration/appointment-types`. */
export const createAppointmentTypeBodySchema = z.strictObject({
  name: text(200),
  duration_minutes: z.number().int().min(1).max(480),
  caregiver_ids: idListSchema.optional(),
});
export type CreateAppointmentTypeBody = z.infer<typeof createAppointmentTypeBodySchema>;

export const updateAppointmentTypeBodySchema = createAppointmentTypeBodySchema.partial();
export type UpdateAppointmentTypeBody = z.infer<typeof updateAppointmentTypeBodySchema>;

/** The longest date range one `GET /api/integration/appointments` covers, both ends included. */
export const MAX_APPOINTMENT_RANGE_DAYS = 93;

/** Days from `from` to `to`; NaN unless both are dates (their own schema says what is wrong). */
function daysBetween(from: string, to: string): number {
  const dayNumber = (date: string) =>
    localDateSchema.safeParse(date).success
      ? Date.parse(`${date}T00:00:00Z`) / 86_400_000
      : Number.NaN;
  return dayNumber(to) - dayNumber(from);
}

/** The most appointments one `GET /api/integration/appointments?patient_id_number=` answers. */
export const MAX_PATIENT_APPOINTMENTS_LIMIT = 500;

/**
 * `GET /api/integration/appointments`: dates in the clinic's time zone, both included. With
 * `patient_id_number`, that patient's only, and `from` and `to` may be left out (no bound).
 */
export const integrationAppointmentsQuerySchema = z
  .object({
    from: localDateSchema.optional(),
    to: localDateSchema.optional(),
    status: z.enum(['booked', 'cancelled']).optional(),
    patient_id_number: z
      .string()
      .max(20)
      .refine(isValidIsraeliId, 'Expected a valid Israeli ID number')
      .transform(normaliseIdNumber)
      .optional()
      .describe("One patient's appointments (their ID number); from and to become optional"),
    order: z
      .enum(['asc', 'desc'])
      .default('asc')
      .describe('By start: asc (default, earliest first) or desc (latest first)'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PATIENT_APPOINTMENTS_LIMIT)
      .optional()
      .describe(
        `At most this many (1 to ${MAX_PATIENT_APPOINTMENTS_LIMIT}); with patient_id_number 100 unless said, else every appointment of the range`,
      ),
  })
  .superRefine((q, ctx) => {
    if (q.patient_id_number === undefined) {
      for (const key of ['from', 'to'] as const) {
        if (q[key] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'Required field (unless patient_id_number is given)',
          });
        }
      }
    }
    if (q.from === undefined || q.to === undefined) return;
    const days = daysBetween(q.from, q.to);
    if (days < 0) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
    } else if (days >= MAX_APPOINTMENT_RANGE_DAYS && q.patient_id_number === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `At most ${MAX_APPOINTMENT_RANGE_DAYS} days, from and to included`,
      });
    }
  });
export type IntegrationAppointmentsQuery = z.infer<typeof integrationAppointmentsQuerySchema>;

export const integrationAppointmentSchema = z.object({
  id: z.number().int(),
  status: z.enum(['booked', 'cancelled']),
  /** ISO 8601 with the clinic's offset: `2027-03-26T09:00:00+03:00`. */
  start_date: z.string(),
  end_date: z.string(),
  caregiver: z.object({ id: z.number().int(), name: z.string() }),
  appointment_type: z.object({ id: z.number().int(), name: z.string() }),
  patient: z.object({
    id: z.number().int(),
    id_number: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** As the patient verified it: 05XXXXXXXX. */
    phone: z.string(),
  }),
  /** Who booked it: `patient` online, or `clinic` through `POST /api/integration/appointments`. */
  source: appointmentSourceSchema,
  /** ISO 8601, UTC. */
  created_at: z.string(),
  cancelled_at: z.string().nullable(),
  /** Why the clinic cancelled it (`POST /appointments/:id/cancel` with a reason); else null. */
  cancel_reason: z.string().nullable(),
});
export type IntegrationAppointment = z.infer<typeof integrationAppointmentSchema>;

export const integrationAppointmentsSchema = z.array(integrationAppointmentSchema);

/** One of the clinic's API keys; the key itself is shown once, when it is created. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  created_at: z.string(),
  /** Noted at most once a minute. */
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysSchema = z.array(apiKeySchema);

/** `POST /api/integration/api-keys`: a name telling the key apart (the system that will use it). */
export const createApiKeyBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Must not be empty')
    .max(100)
    .describe(
      'What the key is for, e.g. the clinic software that will use it; 1 to 100 characters',
    ),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The answer of creating a key: the key itself (`mrp_…`), shown this once and never stored. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

const auditInstantSchema = instantSchema('2027-03-24T09:00:00+02:00');

/**
 * `GET /api/integration/audit-log`: newest first; `before` pages on from an entry id. The filters
 * narrow it: one actor (`staff:12`, `api_key:3`, `cli`), actions starting with a prefix
 * (`staff.`, `appointment.cancel`), a time window [from, to).
 */
export const auditLogQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: z.coerce.number().int().positive().max(MAX_STORED_ID).optional(),
    actor: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Exactly this actor: staff:12, api_key:3, cli'),
    action: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Actions starting with this: staff. or appointment.cancel'),
    from: auditInstantSchema.optional().describe('Entries at or after this instant'),
    to: auditInstantSchema.optional().describe('Entries before this instant'),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to && Date.parse(query.to) <= Date.parse(query.from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'start must be before end' });
    }
  });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogEntrySchema = z.object({
  id: z.number().int(),
  /** `api_key:<id>`, `staff:<account id>`, `cli`, … */
  actor: z.string(),
  /** Who that is: the staff member's or the key's name; null for the CLI and the like. */
  actor_name: z.string().nullable(),
  /** `<resource>.<verb>`: `caregiver.update`, `appointment.cancel`… */
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogSchema = z.array(auditLogEntrySchema);

/** What an uploaded image may be: its type (checked against its first bytes) and size. */
export const imageContentTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageContentType = (typeof imageContentTypes)[number];
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** `POST /api/integration/images`: where the uploaded image is served from now on. */
export const uploadedImageSchema = z.object({
  id: z.number().int(),
  /** A path on this site (`/api/images/12.png`): set it as a logo or a caregiver's image. */
  url: z.string(),
  content_type: z.enum(imageContentTypes),
  bytes: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
