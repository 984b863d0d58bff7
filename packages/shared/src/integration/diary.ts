// Over 400 lines: the clinic diary's schemas (busy times, clinic bookings, feeds), one module as
// docs/integration.md has one section.
import { z } from 'zod';
import { localDateSchema } from '../clinic.js';
import { instantSchema as boundedInstantSchema } from '../instant.js';
import { idNumberSchema, nameSchema, phoneSchema } from '../patient-auth.js';
import { partsOfDay } from '../waitlist-rules.js';

// The clinic's own diary in the integration API (ADR 028; docs/integration.md, "The clinic's
// diary"): busy times pushed from a practice-management system, bookings the clinic makes itself,
// and the caregivers' iCalendar feeds.

const DAY_MS = 86_400_000;

/** The longest window one busy-times call replaces. */
export const MAX_BUSY_TIMES_WINDOW_DAYS = 180;
/** The most items one busy-times call carries. */
export const MAX_BUSY_TIMES_PER_CALL = 5000;
/** The longest one busy time may last. */
export const MAX_BUSY_TIME_DAYS = 180;
export const BUSY_TIME_EXTERNAL_ID_MAX_LENGTH = 200;
export const BUSY_TIME_LABEL_MAX_LENGTH = 200;

const instantSchema = boundedInstantSchema('2027-03-26T09:00:00+03:00');

const hasNoControlCharacters = (value: string) =>
  ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const busyTimeSchema = z.strictObject({
  /** The clinic's own id of the item: the same id in a later call is the same item. */
  external_id: z
    .string()
    .min(1, 'Must not be empty')
    .max(BUSY_TIME_EXTERNAL_ID_MAX_LENGTH)
    .refine(hasNoControlCharacters, 'Must not contain control characters'),
  start: instantSchema,
  end: instantSchema,
  /** For the clinic's eyes only (never shown to patients). */
  label: z.string().max(BUSY_TIME_LABEL_MAX_LENGTH).nullable().optional(),
});

/**
 * `PUT /api/integration/caregivers/:id/busy-times`: the caregiver's busy times overlapping
 * [from, to), all of them. What is stored for that window is replaced by `items` in one
 * transaction: items not sent are removed, the others added or updated by `external_id`.
 */
export const busyTimesBodySchema = z
  .strictObject({
    from: instantSchema.describe("The window's start (included), ISO 8601 with an offset"),
    to: instantSchema.describe(
      `The window's end (excluded): after from, at most ${MAX_BUSY_TIMES_WINDOW_DAYS} days later`,
    ),
    items: z
      .array(busyTimeSchema)
      .max(MAX_BUSY_TIMES_PER_CALL, `At most ${MAX_BUSY_TIMES_PER_CALL} items a call`)
      .describe(
        `Every busy time overlapping the window, at most ${MAX_BUSY_TIMES_PER_CALL}; each overlaps [from, to), ends after it starts and lasts at most ${MAX_BUSY_TIME_DAYS} days; external_id once per call`,
      ),
  })
  .superRefine((body, ctx) => {
    const from = Date.parse(body.from);
    const to = Date.parse(body.to);
    if (!(to > from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    } else if (to - from > MAX_BUSY_TIMES_WINDOW_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `The window is at most ${MAX_BUSY_TIMES_WINDOW_DAYS} days`,
      });
    }
    const seen = new Set<string>();
    body.items.forEach((item, i) => {
      const start = Date.parse(item.start);
      const end = Date.parse(item.end);
      if (!(end > start)) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'end'],
          message: 'end must be after start',
        });
      } else if (end - start > MAX_BUSY_TIME_DAYS * DAY_MS) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'end'],
          message: `A busy time lasts at most ${MAX_BUSY_TIME_DAYS} days`,
        });
      } else if (to > from && !(start < to && end > from)) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'start'],
          message: 'The item does not overlap the window [from, to)',
        });
      }
      if (seen.has(item.external_id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'external_id'],
          message: 'This external_id is listed twice',
        });
      }
      seen.add(item.external_id);
    });
  });
export type BusyTimesBody = z.infer<typeof busyTimesBodySchema>;

/** The answer of a busy-times call: what the window now holds and what changed. */
export const busyTimesResultSchema = z.object({
  caregiver_id: z.number().int(),
  /** The window as sent, with the clinic's offset. */
  from: z.string(),
  to: z.string(),
  /** Busy times now stored that overlap the window. */
  count: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Stored items of the window missing from `items`. */
  removed: z.number().int(),
});
export type BusyTimesResult = z.infer<typeof busyTimesResultSchema>;

/** `GET /api/integration/caregivers/:id/busy-times`: the stored items overlapping [from, to). */
export const busyTimesQuerySchema = z
  .object({ from: instantSchema, to: instantSchema })
  .superRefine((q, ctx) => {
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (!(to > from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    } else if (to - from > MAX_BUSY_TIMES_WINDOW_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `The window is at most ${MAX_BUSY_TIMES_WINDOW_DAYS} days`,
      });
    }
  });
export type BusyTimesQuery = z.infer<typeof busyTimesQuerySchema>;

export const busyTimeViewSchema = z.object({
  external_id: z.string(),
  /** ISO 8601 with the clinic's offset. */
  start: z.string(),
  end: z.string(),
  label: z.string().nullable(),
});
export type BusyTimeView = z.infer<typeof busyTimeViewSchema>;

export const busyTimesListSchema = z.array(busyTimeViewSchema);

const storedIdSchema = (what: string) =>
  z
    .number({ error: `Expected ${what}` })
    .int(`Expected ${what}`)
    .positive(`Expected ${what}`)
    .max(2_147_483_647, `Expected ${what}`);

/**
 * `POST /api/integration/appointments`: the clinic books a patient. The patient is found by ID
 * number, or signed up with these details; a known patient's phone must be the one on file.
 */
export const clinicBookingBodySchema = z.strictObject({
  caregiver_id: storedIdSchema('a caregiver id'),
  appointment_type_id: storedIdSchema('an appointment type id'),
  /** The start; the end is the start plus the type's length. */
  start_date: instantSchema,
  patient: z.strictObject({
    id_number: idNumberSchema,
    /** An Israeli mobile number (where the SMS go), any usual spelling. */
    phone: phoneSchema,
    first_name: nameSchema,
    last_name: nameSchema,
  }),
  /**
   * true: any time the caregiver is free (not only a slot the booking page offers: working hours,
   * the slot grid, the minimum notice and the horizon are not applied). Default false.
   */
  outside_working_hours: z.boolean().optional(),
  /** true: may overlap the caregiver's busy times (never another appointment). Default false. */
  ignore_busy_times: z.boolean().optional(),
  /**
   * true: the patient gets the appointment's details by SMS (or WhatsApp); false: nothing about
   * this booking; absent: the clinic's `change_notices.booked` decides.
   */
  send_sms: z.boolean().optional(),
  /** The language of the patient's messages about it (details, reminders). Default `he`. */
  language: z.enum(['he', 'en']).optional(),
});
export type ClinicBookingBody = z.infer<typeof clinicBookingBodySchema>;

/** The answer of creating (or rotating) a caregiver's calendar feed: the URL, shown this once. */
export const calendarFeedCreatedSchema = z.object({
  caregiver_id: z.number().int(),
  /** `https://…/api/calendar-feed/<token>.ics`; subscribe to it (or its `webcal://` twin). */
  url: z.string(),
  created_at: z.string(),
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;

/** Whether a caregiver has a live feed, never its URL. */
export const calendarFeedStateSchema = z.object({
  caregiver_id: z.number().int(),
  active: z.boolean(),
  created_at: z.string().nullable(),
});
export type CalendarFeedState = z.infer<typeof calendarFeedStateSchema>;

// The desk's diary (docs/desk.md "5. The diary"): every busy time of the clinic, moving and
// cancelling with a reason, finding a patient, and who waits on the waitlist for a day.

/** The longest window one `GET /api/integration/busy-times` covers. */
export const MAX_CLINIC_BUSY_TIMES_DAYS = 31;

/** An id in a query string (`?caregiver_id=3`). */
const queryIdSchema = (what: string) =>
  z.coerce
    .number({ error: `Expected ${what}` })
    .int(`Expected ${what}`)
    .positive(`Expected ${what}`)
    .max(2_147_483_647, `Expected ${what}`);

/** `GET /api/integration/busy-times`: the window [from, to), optionally one caregiver's. */
export const clinicBusyTimesQuerySchema = z
  .object({
    from: instantSchema.describe("The window's start (included), ISO 8601 with an offset"),
    to: instantSchema.describe(
      `The window's end (excluded): after from, at most ${MAX_CLINIC_BUSY_TIMES_DAYS} days later`,
    ),
    caregiver_id: queryIdSchema('a caregiver id').optional(),
  })
  .superRefine((q, ctx) => {
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (!(to > from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    } else if (to - from > MAX_CLINIC_BUSY_TIMES_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `The window is at most ${MAX_CLINIC_BUSY_TIMES_DAYS} days`,
      });
    }
  });
export type ClinicBusyTimesQuery = z.infer<typeof clinicBusyTimesQuerySchema>;

export const busyTimeSources = ['api', 'calendar'] as const;
export type BusyTimeSource = (typeof busyTimeSources)[number];

/** One busy time of a caregiver, from either source. */
export const clinicBusyTimeSchema = z.object({
  caregiver_id: z.number().int(),
  /** ISO 8601 with the clinic's offset. */
  start: z.string(),
  end: z.string(),
  /** `api`: pushed by the clinic's system (busy-times); `calendar`: the caregiver's synced calendar. */
  source: z.enum(busyTimeSources),
  /** The pushed item's label; null for calendar events (Marpe keeps no titles of them). */
  label: z.string().nullable(),
});
export type ClinicBusyTime = z.infer<typeof clinicBusyTimeSchema>;
export const clinicBusyTimesSchema = z.array(clinicBusyTimeSchema);

/**
 * `POST /api/integration/appointments/:id/reschedule`: the booked appointment's new start (same
 * type, same patient), and its caregiver when it changes.
 */
export const clinicRescheduleBodySchema = z.strictObject({
  start_date: instantSchema,
  /** Default: the appointment's caregiver. */
  caregiver_id: storedIdSchema('a caregiver id').optional(),
  /** true: any time the caregiver is free, as in a clinic booking. Default false. */
  outside_working_hours: z.boolean().optional(),
  /** true: may overlap the caregiver's busy times (never another appointment). Default false. */
  ignore_busy_times: z.boolean().optional(),
  /**
   * true: the patient is told of the move (both times) by SMS (or WhatsApp); false: not told;
   * absent: the clinic's `change_notices.moved` decides (on by default).
   */
  send_sms: z.boolean().optional(),
});
export type ClinicRescheduleBody = z.infer<typeof clinicRescheduleBodySchema>;

export const CANCEL_REASON_MAX_LENGTH = 500;

/** `POST /api/integration/appointments/:id/cancel`: an optional body. */
export const clinicCancelBodySchema = z
  .strictObject({
    /** Why (for the clinic's eyes: kept on the appointment, never sent to the patient). */
    reason: z.string().trim().max(CANCEL_REASON_MAX_LENGTH).optional(),
    /**
     * true: the patient is told of the cancellation, in their language; false: not told; absent:
     * the clinic's `change_notices.cancelled` decides (on by default).
     */
    send_sms: z.boolean().optional(),
  })
  .nullish();
export type ClinicCancelBody = z.infer<typeof clinicCancelBodySchema>;

export const PATIENT_SEARCH_MAX_LIMIT = 50;
/** The deepest page a search reaches (`offset`). */
export const PATIENT_SEARCH_MAX_OFFSET = 100_000;

/** `GET /api/integration/patients?q=&limit=&offset=`. */
export const patientSearchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(100)
    .default('')
    .describe(
      'Words of the first or last name (each a prefix, any order), an ID number prefix, or a phone number prefix in any spelling; empty or absent: every patient, by last and first name',
    ),
  limit: z.coerce.number().int().min(1).max(PATIENT_SEARCH_MAX_LIMIT).default(20),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(PATIENT_SEARCH_MAX_OFFSET)
    .default(0)
    .describe('How many matches to skip: the next page starts at offset + limit'),
});
export type PatientSearchQuery = z.infer<typeof patientSearchQuerySchema>;

/** `GET /api/integration/waitlist` and `/waitlist/entries`: who waits, on a date, with a caregiver. */
export const waitlistFilterQuerySchema = z.object({
  /** Entries whose dates include this one (clinic time). */
  date: localDateSchema.optional(),
  caregiver_id: queryIdSchema('a caregiver id').optional(),
});
export type WaitlistFilterQuery = z.infer<typeof waitlistFilterQuerySchema>;

/** The most entries one `GET /api/integration/waitlist/entries` answers (and its default). */
export const WAITLIST_ENTRIES_MAX_LIMIT = 500;

/**
 * `GET /api/integration/waitlist/entries`: the filter, one patient's entries, and a page of the
 * queue in joining order: `after` an entry id answers the entries that joined after it.
 */
export const waitlistEntriesQuerySchema = waitlistFilterQuerySchema.extend({
  patient_id_number: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, 'Expected an ID number: up to 9 digits')
    .transform((value) => value.padStart(9, '0'))
    .optional()
    .describe("Only this patient's entries"),
  after: queryIdSchema('an entry id')
    .optional()
    .describe('The last entry of the previous page: the entries that joined after it'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(WAITLIST_ENTRIES_MAX_LIMIT)
    .default(WAITLIST_ENTRIES_MAX_LIMIT),
});
export type WaitlistEntriesQuery = z.infer<typeof waitlistEntriesQuerySchema>;

/** One waiting patient: `GET /api/integration/waitlist/entries`. */
export const integrationWaitlistEntrySchema = z.object({
  id: z.number().int(),
  patient: z.object({
    id: z.number().int(),
    id_number: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string(),
  }),
  caregiver: z.object({ id: z.number().int(), name: z.string() }),
  appointment_type: z.object({ id: z.number().int(), name: z.string() }),
  from_date: z.string(),
  to_date: z.string(),
  part_of_day: z.enum(partsOfDay),
  /** ISO 8601 instant. */
  joined_at: z.string(),
});
export type IntegrationWaitlistEntry = z.infer<typeof integrationWaitlistEntrySchema>;
export const integrationWaitlistEntriesSchema = z.array(integrationWaitlistEntrySchema);

/** `GET /api/integration/waitlist/entries/:id/slots`: another caregiver's (of the type) instead. */
export const waitlistSlotsQuerySchema = z.object({
  caregiver_id: queryIdSchema('a caregiver id').optional(),
});
export type WaitlistSlotsQuery = z.infer<typeof waitlistSlotsQuerySchema>;

/** A free time to offer an entry: what the booking page would offer now. */
export const waitlistSlotSchema = z.object({
  /** ISO 8601 with the clinic's offset: send it as start_date to offer it. */
  start: z.string(),
  end: z.string(),
  /** Whether it starts in the part of the day the patient asked for. */
  in_part_of_day: z.boolean(),
  /** Whether this entry was offered this time already (by hand or by the automatic offers). */
  offered: z.boolean(),
});
export type WaitlistSlot = z.infer<typeof waitlistSlotSchema>;

export const waitlistSlotsSchema = z.object({
  entry_id: z.number().int(),
  caregiver_id: z.number().int(),
  /** By start, on the entry's dates (cut to the booking window). */
  slots: z.array(waitlistSlotSchema),
});
export type WaitlistSlots = z.infer<typeof waitlistSlotsSchema>;

/** `POST /api/integration/waitlist/entries/:id/offer`: offer the patient a free time by hand. */
export const waitlistOfferBodySchema = z.strictObject({
  /** Default: the entry's caregiver. Another must offer the entry's type. */
  caregiver_id: storedIdSchema('a caregiver id').optional(),
  /** The time's start; its end is the start plus the type's length. */
  start_date: instantSchema,
});
export type WaitlistOfferBody = z.infer<typeof waitlistOfferBodySchema>;

/** The offer made. */
export const waitlistOfferSchema = z.object({
  entry_id: z.number().int(),
  caregiver_id: z.number().int(),
  /** ISO 8601 with the clinic's offset. */
  start_date: z.string(),
  end_date: z.string(),
  /** ISO 8601 instant: when the patient is told. */
  offered_at: z.string(),
  /**
   * Set when the message waits for the clinic's quiet hours (or Shabbat) to end: then (ISO 8601
   * instant), and only if the time is still free then; null when it went now.
   */
  quiet_until: z.string().nullable(),
});
export type WaitlistOffer = z.infer<typeof waitlistOfferSchema>;
