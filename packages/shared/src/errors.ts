import { z } from 'zod';

/**
 * Every error code the API can answer with. The web maps each to a translated text,
 * so a code added here must gain a translation there.
 */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  'clinic_not_found',
  'caregiver_not_found',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

/** `details` of a `validation_failed` answer: one entry per bad field, path dotted (`address.city`). */
export const validationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const validationDetailsSchema = z.object({ issues: z.array(validationIssueSchema) });
export type ValidationDetails = z.infer<typeof validationDetailsSchema>;
