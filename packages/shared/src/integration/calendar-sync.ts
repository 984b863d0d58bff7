import { z } from 'zod';

// Google Calendar sync (docs/calendar-sync.md): what a clinic reads of each caregiver's synced
// calendar, and the conflicts between the calendar and Marpe's bookings.

export const calendarSyncStateSchema = z.enum([
  'pending',
  'syncing',
  'read_only',
  'no_access',
  'not_found',
  'error',
]);

/** The calendar providers a caregiver can connect by consent. */
export const calendarProviderSchema = z.enum(['google', 'microsoft']);
export type CalendarProvider = z.infer<typeof calendarProviderSchema>;

export const calendarConnectionKindSchema = z.enum(['oauth', 'service_account']);
export type CalendarConnectionKind = z.infer<typeof calendarConnectionKindSchema>;

export const caregiverCalendarSyncSchema = z.object({
  caregiver_id: z.number().int(),
  /** The caregiver's `google_calendar_sync_calendar_id`. */
  calendar_id: z.string(),
  /**
   * `pending`: not synced yet; `syncing`: in step; `read_only`: in step, but shared for reading
   * only, so Marpe's bookings are not written into it; `no_access`: the calendar is not shared with
   * the service account (or not with "make changes to events"); `not_found`: no such calendar;
   * `error`: Google failed otherwise (`last_error` says how). Marpe keeps trying in every state.
   */
  state: calendarSyncStateSchema,
  last_error: z.string().nullable(),
  /** The last successful pass, ISO 8601 UTC. */
  last_synced_at: z.string().nullable(),
  /** Whether Google pushes changes (else the 5-minute poll alone keeps it fresh). */
  push: z.boolean(),
  /**
   * How Marpe reaches the calendar: `oauth`, the caregiver connected it by consent (a connection
   * link); `service_account`, the clinic typed its id and shared it with the service account.
   */
  connection: calendarConnectionKindSchema,
  /** The account that consented (`oauth`); null for the service account. */
  account_email: z.string().nullable(),
  /** Whose calendar it is: `google` (also every service-account one) or `microsoft`. */
  provider: calendarProviderSchema,
});

export const calendarSyncStatusSchema = z.object({
  /** Share each caregiver's calendar with this address ("make changes to events"); null when the server has no service account. */
  service_account_email: z.string().nullable(),
  /** The providers a connection link can be made for on this server (each needs its OAuth client). */
  connect_providers: z.array(calendarProviderSchema),
  caregivers: z.array(caregiverCalendarSyncSchema),
});
export type CalendarSyncStatus = z.infer<typeof calendarSyncStatusSchema>;

export const calendarConflictSchema = z.object({
  id: z.number().int(),
  appointment_id: z.number().int(),
  caregiver_id: z.number().int(),
  kind: z.enum(['event_deleted', 'overlap']),
  event_id: z.string(),
  detected_at: z.string(),
});
export const calendarConflictListSchema = z.array(calendarConflictSchema);
export type CalendarConflict = z.infer<typeof calendarConflictSchema>;

export const calendarConflictsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const caregiverCalendarConnectionParamsSchema = z.object({
  caregiverId: z.coerce.number().int().min(1).max(2_147_483_647),
});

/**
 * `POST /api/integration/caregivers/:caregiverId/calendar-connection`. Google when not said: the
 * route took no body before Microsoft was offered, and callers written then still get a link.
 */
export const createCalendarConnectionBodySchema = z.preprocess(
  (body) => body ?? {},
  z.object({ provider: calendarProviderSchema.default('google') }),
);
export type CreateCalendarConnectionBody = z.infer<typeof createCalendarConnectionBodySchema>;

/**
 * A one-time link for the caregiver to open on any device: valid 24 hours, used once, and a newer
 * one voids it. The caregiver consents at Google and picks one of their calendars.
 */
export const calendarConnectionLinkSchema = z.object({
  url: z.string(),
  /** ISO 8601 UTC. */
  expires_at: z.string(),
});
export type CalendarConnectionLink = z.infer<typeof calendarConnectionLinkSchema>;
