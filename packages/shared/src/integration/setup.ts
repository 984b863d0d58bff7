import { z } from 'zod';
import { localDateSchema } from '../clinic.js';

// The desk's set-up checklist (docs/desk.md "4. Setting up the clinic") and the clinic's closures:
// what an owner sets up before patients book, through the same `/api/integration` routes an API key
// calls.

/** The checklist's steps, in the order the desk shows them. */
export const setupSteps = [
  'profile',
  'hours',
  'closures',
  'caregivers',
  'types',
  'rules',
  'reminders',
  'channel',
  'terminal',
] as const;
export const setupStepSchema = z.enum(setupSteps);
export type SetupStep = z.infer<typeof setupStepSchema>;

/** The steps patients depend on: the clinic is ready for patients when all three are complete. */
export const requiredSetupSteps: readonly SetupStep[] = ['profile', 'caregivers', 'types'];

/**
 * The steps whose completeness the clinic's data shows; the others are complete once an owner
 * marks them done.
 */
export const derivedSetupSteps: readonly SetupStep[] = ['profile', 'hours', 'caregivers', 'types'];

export const setupStepStateSchema = z.object({
  step: setupStepSchema,
  /** An owner marked the step done. */
  done: z.boolean(),
  /** When, ISO 8601 UTC; null unless done. */
  done_at: z.string().nullable(),
  /**
   * Read from the clinic's data where it can be (profile: name, phone and address; hours: some
   * opening hours; caregivers: an active caregiver with weekly hours offering a type; types: at
   * least one); for the other steps, the same as `done`.
   */
  complete: z.boolean(),
  /** Patients depend on it: the clinic is not ready for them until it is complete. */
  required: z.boolean(),
});
export type SetupStepState = z.infer<typeof setupStepStateSchema>;

/** `GET /api/integration/setup`. */
export const setupChecklistSchema = z.object({
  steps: z.array(setupStepStateSchema),
  /** Every required step is complete: patients can find a caregiver and book. */
  ready_for_patients: z.boolean(),
  /** The clinic page as patients see it (`/clinic/<id>/<name>`). */
  clinic_page_path: z.string(),
});
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;

export const setupStepParamsSchema = z.object({ step: setupStepSchema });

/** `PUT /api/integration/setup/steps/:step`: marks the step done, or not done. */
export const markSetupStepBodySchema = z.strictObject({ done: z.boolean() });
export type MarkSetupStepBody = z.infer<typeof markSetupStepBodySchema>;

/** A date the whole clinic is closed: no caregiver is offered a time on it. */
export const closureSchema = z.object({
  id: z.number().int(),
  /** Clinic time, YYYY-MM-DD. */
  date: z.string(),
  /** For the clinic's staff (which holiday); never shown to patients. */
  note: z.string().nullable(),
  /**
   * Appointments booked on that date: a closure offers no new times but cancels none, so the
   * clinic tells those patients itself (and moves or cancels them in the diary).
   */
  booked_appointments: z.number().int(),
  created_at: z.string(),
});
export type Closure = z.infer<typeof closureSchema>;
export const closuresSchema = z.array(closureSchema);

/** `GET /api/integration/closures`: dates in the clinic's time zone, both included. */
export const closuresQuerySchema = z
  .object({
    /** Default: today (clinic time). */
    from: localDateSchema.optional(),
    /** Default: no end. */
    to: localDateSchema.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'to must not be before from',
    path: ['to'],
  });
export type ClosuresQuery = z.infer<typeof closuresQuerySchema>;

export const MAX_CLOSURE_NOTE_LENGTH = 200;

/** `POST /api/integration/closures`: today or later (clinic time). */
export const createClosureBodySchema = z.strictObject({
  date: localDateSchema,
  note: z.string().trim().max(MAX_CLOSURE_NOTE_LENGTH).nullable().optional(),
});
export type CreateClosureBody = z.infer<typeof createClosureBodySchema>;

/** The holidays the desk suggests closing on: Israel's Yom Tov days and Independence Day. */
export const israeliHolidays = [
  'rosh_hashana_1',
  'rosh_hashana_2',
  'yom_kippur',
  'sukkot',
  'shmini_atzeret',
  'pesach_1',
  'pesach_7',
  'yom_haatzmaut',
  'shavuot',
] as const;
export const israeliHolidaySchema = z.enum(israeliHolidays);
export type IsraeliHoliday = z.infer<typeof israeliHolidaySchema>;

/** `GET /api/integration/closures/holiday-suggestions?year=YYYY`. */
export const holidaySuggestionsQuerySchema = z.object({
  year: z.coerce
    .number({ error: 'Expected a year' })
    .int('Expected a year')
    .min(2000, 'Expected a year from 2000')
    .max(2200, 'Expected a year until 2200'),
});

export const holidaySuggestionSchema = z.object({
  /** YYYY-MM-DD: the day itself (it begins the evening before). */
  date: z.string(),
  holiday: israeliHolidaySchema,
  name_he: z.string(),
  name_en: z.string(),
});
export type HolidaySuggestion = z.infer<typeof holidaySuggestionSchema>;
export const holidaySuggestionsSchema = z.array(holidaySuggestionSchema);
