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
  // A state-changing call without a matching X-XSRF-TOKEN header (403).
  'xsrf',
  // Patient verification (docs/product/login.md#errors).
  'invalid_phone',
  'patient_not_found',
  'not_accepting_new_patients',
  // One phone already signs in this many ID numbers at the clinic (details.max; ADR 027).
  'too_many_identities',
  'invalid_two_factor_token',
  'wrong_code',
  // Booking and my appointments (docs/product/booking.md); existingAppointment is a UI key.
  'existingAppointment',
  // More booked, not yet ended appointments than the clinic allows one patient (default 3).
  'too_many_upcoming',
  'slot_taken',
  'not_cancellable',
  'appointment_not_found',
  'appointment_type_not_found',
  // The waitlist (docs/booking.md): too many active entries (details.max); not the patient's.
  'waitlist_full',
  'waitlist_entry_not_found',
  // The desk's staff (docs/desk.md): an ended or unknown invitation link; removing or demoting
  // the clinic's last owner; a staff session acting for a clinic it does not belong to, or for
  // one of several without naming it (x-marpe-clinic); a passkey the server cannot verify.
  'invitation_not_found',
  'staff_member_not_found',
  'last_owner',
  'clinic_required',
  'passkey_not_found',
  'passkey_failed',
  // An uploaded image that is not a PNG, JPEG or WebP of at most 1 MiB.
  'invalid_image',
  // Typing a calendar id for a caregiver whose calendar is connected by consent (409): the
  // connection would go on holding the old one (docs/calendar-sync.md, "Disconnecting").
  'calendar_connected',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
  /** invalid_phone only: the last digits of the phone on file (docs/product/login.md#rules). */
  hint: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

/** `details` of a `validation_failed` answer: one entry per bad field, path dotted (`address.city`). */
export const validationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const validationDetailsSchema = z.object({ issues: z.array(validationIssueSchema) });
export type ValidationDetails = z.infer<typeof validationDetailsSchema>;

/**
 * `details` of the 404 of a form or payment link that existed and has ended: how it ended and
 * whose it was, so the page can say so and offer the clinic's phone instead of "not valid". An
 * unknown token has no details (nothing is known of it).
 */
export const endedLinkDetailsSchema = z.object({
  ended: z.enum(['submitted', 'expired', 'cancelled']),
  clinicId: z.number().int(),
});
export type EndedLinkDetails = z.infer<typeof endedLinkDetailsSchema>;
