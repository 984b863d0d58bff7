import { z } from 'zod';
import { idNumberSchema, nameSchema, phoneSchema } from '../patient-auth.js';

// The clinic's own diary in the integration API (issue 24; docs/integration.md, "The clinic's
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

const instantSchema = z.iso.datetime({
  offset: true,
  error: 'Expected an ISO 8601 date-time with an offset, e.g. 2027-03-26T09:00:00+03:00',
});

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
  /** true: the patient gets the appointment's details by SMS (or WhatsApp). Default false. */
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
