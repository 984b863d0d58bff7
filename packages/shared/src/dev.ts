import { z } from 'zod';

/**
 * `GET /api/dev/messages` (demo mode only): what the demo `log` provider "sent", newest first.
 * This is how someone trying the demo reads a one-time code.
 */
export const devMessageSchema = z.object({
  /** The recipient as stored: the national mobile number `05XXXXXXXX`. */
  to: z.string(),
  body: z.string(),
  channel: z.enum(['sms', 'whatsapp']),
  /** ISO 8601, UTC. */
  created_at: z.iso.datetime(),
});
export type DevMessage = z.infer<typeof devMessageSchema>;

export const devMessagesSchema = z.array(devMessageSchema);
