import { z } from 'zod';
import { localDateSchema } from './clinic.js';
import { daysBetween, partsOfDay, WAITLIST_MAX_DAYS } from './waitlist-rules.js';

// The waitlist's contract (docs/decisions/023-waitlist.md); its rules are in waitlist-rules.ts.
export * from './waitlist-rules.js';

const idSchema = (what: string) =>
  z
    .number({ error: `Expected ${what}` })
    .int(`Expected ${what}`)
    .positive(`Expected ${what}`)
    .max(2_147_483_647, `Expected ${what}`);

/**
 * `POST /api/waitlist`. Whether `fromDate` is today or later is the server's to say (today in the
 * clinic's zone); the shape of the range is checked here, by the rules the booking page's dialog
 * applies too.
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
