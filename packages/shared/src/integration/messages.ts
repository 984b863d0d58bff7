import { z } from 'zod';

const MAX_STORED_ID = 2_147_483_647;

/**
 * What a message to a patient (or a staff invitation) was for: the outbox keeps it with the
 * recipient when a message fails or expires, so the clinic's owners see which one did not go.
 * `other`: anything not named, and messages queued before kinds were recorded.
 */
export const messageKinds = [
  'login_code',
  'appointment_details',
  'appointment_cancelled',
  'appointment_booked',
  'appointment_moved',
  'reminder',
  'waitlist_offer',
  'form_link',
  'payment_link',
  'staff_invitation',
  'other',
] as const;
export const messageKindSchema = z.enum(messageKinds);
export type MessageKind = (typeof messageKinds)[number];

/** `GET /api/integration/message-failures`: newest first; `before` pages on from a message id. */
export const messageFailuresQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().positive().max(MAX_STORED_ID).optional(),
});
export type MessageFailuresQuery = z.infer<typeof messageFailuresQuerySchema>;

export const messageFailureSchema = z.object({
  id: z.number().int(),
  kind: messageKindSchema,
  /** The channel it was queued for (a WhatsApp message may have fallen back to SMS). */
  channel: z.enum(['sms', 'whatsapp']),
  /** The mobile number masked: `052-***-0001`; null when it was not kept. Never the text. */
  recipient: z.string().nullable(),
  /**
   * `failed`: given up after 48 hours of tries; `expired`: not sent before it stopped being of
   * use (a code past its validity, an offer for a time already begun).
   */
  status: z.enum(['failed', 'expired']),
  /** How many times it was tried. */
  attempts: z.number().int(),
  /** The last try's error (the gateway's answer), never quoting the message. */
  last_error: z.string().nullable(),
  /** When it was queued, ISO 8601 UTC. */
  created_at: z.string(),
  /** When it was given up or found expired, ISO 8601 UTC. */
  ended_at: z.string().nullable(),
});
export type MessageFailure = z.infer<typeof messageFailureSchema>;
export const messageFailureListSchema = z.array(messageFailureSchema);
