import { z } from 'zod';
import { localDateSchema } from './clinic.js';

// The waitlist (issue 16, docs/booking.md "Waitlist"): a patient asks to be told when a time
// frees up with a caregiver, for a type, on a range of dates and a part of the day.

/** Morning: slots starting before 12:00 clinic time; afternoon: from 12:00; any: both. */
export const partsOfDay = ['morning', 'afternoon', 'any'] as const;
export type PartOfDay = (typeof partsOfDay)[number];

/** The first afternoon minute, clinic time ('HH:mm' compares in time order). */
export const AFTERNOON_STARTS_AT = '12:00';

/** The longest range one entry may ask for, both ends counted (fromDate + 13 days). */
export const WAITLIST_MAX_DAYS = 14;

/** Active entries (waiting, range not over) one patient may hold at once: 409 waitlist_full. */
export const WAITLIST_MAX_ACTIVE = 3;

/** Does a slot starting at this clinic wall time 'HH:mm' fall in the part of day? */
export function isInPartOfDay(time: string, partOfDay: PartOfDay): boolean {
  if (partOfDay === 'any') return true;
  return partOfDay === 'morning' ? time < AFTERNOON_STARTS_AT : time >= AFTERNOON_STARTS_AT;
}

/** Whole days from `from` to `to` (both 'YYYY-MM-DD'); negative when `to` is before. */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

const idSchema = (what: string) =>
  z
    .number({ error: `Expected ${what}` })
    .int(`Expected ${what}`)
    .positive(`Expected ${what}`)
    .max(2_147_483_647, `Expected ${what}`);

/**
 * `POST /api/waitlist`. Whether `fromDate` is today or later is the server's to say (today in the
 * clinic's zone); the shape of the range is checked here, on both sides.
 */
export const joinWaitlistBodySchema = z
  .object({
    clinicId: idSchema('a clinic id'),
    caregiverId: idSchema('a caregiver id'),
    appointmentTypeId: idSchema('an appointment type id'),
    fromDate: localDateSchema,
    toDate: localDateSchema,
    partOfDay: z.enum(partsOfDay),
  })
  .superRefine((body, context) => {
    const days = daysBetween(body.fromDate, body.toDate);
    if (days < 0) {
      context.addIssue({
        code: 'custom',
        path: ['toDate'],
        message: 'toDate must not be before fromDate',
      });
    } else if (days >= WAITLIST_MAX_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['toDate'],
        message: `The range may span at most ${WAITLIST_MAX_DAYS} days`,
      });
    }
  });
export type JoinWaitlistBody = z.infer<typeof joinWaitlistBodySchema>;

/** One active entry of the patient: `GET /api/waitlist`, and the answer of a join. */
export const waitlistEntrySchema = z.object({
  id: z.number().int(),
  caregiver_id: z.number().int(),
  appointment_type_id: z.number().int(),
  caregiver_name: z.string(),
  type_name: z.string(),
  from_date: z.string(),
  to_date: z.string(),
  part_of_day: z.enum(partsOfDay),
  /** ISO 8601 instant. */
  joined_at: z.string(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

/** The patient's active entries, in the order they joined. */
export const waitlistEntriesSchema = z.array(waitlistEntrySchema);

/** `DELETE /api/waitlist/:id`. */
export const waitlistEntryParamsSchema = z.object({
  id: z.coerce.number().pipe(idSchema('a waitlist entry id')),
});

/** `GET /api/integration/waitlist`: one row per caregiver with waiting entries. */
export const integrationWaitlistRowSchema = z.object({
  caregiver_id: z.number().int(),
  name: z.string(),
  /** Active entries: waiting, their range not over. */
  waiting: z.number().int(),
  /** ISO 8601 instant: when the longest-waiting entry joined. */
  oldest_joined_at: z.string(),
});
export type IntegrationWaitlistRow = z.infer<typeof integrationWaitlistRowSchema>;
export const integrationWaitlistSchema = z.array(integrationWaitlistRowSchema);
