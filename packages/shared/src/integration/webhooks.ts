import { z } from 'zod';
import {
  integrationAppointmentSchema,
  integrationIdParamsSchema,
  type IntegrationAppointment,
} from './clinic.js';

// Webhooks of the integration API (docs/integration.md, "Webhooks"): what a clinic subscribes to,
// the endpoint and delivery-log resources, and the body every event is POSTed with.

/** The event types a clinic can subscribe an endpoint to. */
export const webhookEventTypes = [
  'appointment.booked',
  'appointment.cancelled',
  'appointment.rescheduled',
  'appointment.reminded',
  'appointment.calendar_conflict',
  'calendar.sync_failed',
  'form.submitted',
  'payment.succeeded',
  'payment.failed',
  'payment.duplicate',
  'payment.unverified',
] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** `pending` until the endpoint answers 2xx (`delivered`) or the retries run out (`failed`). */
export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export const webhookDeliveryStatusSchema = z.enum(webhookDeliveryStatuses);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** Signing secrets the server makes look like `whsec_<32 base64 characters>` (24 random bytes). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_MIN_LENGTH = 16;

const eventsSchema = z
  .array(webhookEventTypeSchema)
  .max(webhookEventTypes.length)
  .describe(`The event types to receive (${webhookEventTypes.join(', ')}); empty means all`);

const urlSchema = z
  .string()
  .min(1)
  .max(2000)
  .describe('Where events are POSTed: https (http is accepted outside production)');

/** `POST /api/integration/webhooks`. */
export const createWebhookEndpointBodySchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema.optional(),
  /** Omitted: the server generates one (`whsec_…`). Either way it is shown in this answer only. */
  secret: z
    .string()
    .min(WEBHOOK_SECRET_MIN_LENGTH)
    .max(200)
    .regex(/^\S+$/, 'Expected no spaces')
    .optional()
    .describe(
      `The signing secret, at least ${WEBHOOK_SECRET_MIN_LENGTH} characters; omit it to get a generated one`,
    ),
  is_active: z.boolean().optional(),
});
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBodySchema>;

/** `PATCH /api/integration/webhooks/:id`: the fields to change. */
export const updateWebhookEndpointBodySchema = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    is_active: z.boolean().optional(),
    /** true: a new generated secret signs from now on (the old one beside it for 24 hours); in this answer only. */
    rotate_secret: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send at least one of url, events, is_active, rotate_secret',
  });
export type UpdateWebhookEndpointBody = z.infer<typeof updateWebhookEndpointBodySchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The answer of a create, and of a PATCH that rotated the secret: the only time it is shown. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().optional(),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookEndpointsSchema = z.array(webhookEndpointSchema);

export const WEBHOOK_DELIVERIES_DEFAULT_LIMIT = 50;
export const WEBHOOK_DELIVERIES_MAX_LIMIT = 200;

/** `GET /api/integration/webhook-deliveries`: newest first; `before` pages on from a delivery id. */
export const webhookDeliveriesQuerySchema = z.object({
  endpoint_id: integrationIdParamsSchema.shape.id.optional(),
  status: webhookDeliveryStatusSchema.optional(),
  before: integrationIdParamsSchema.shape.id
    .optional()
    .describe('The id of the last delivery of the previous page: the ones listed after it'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_DELIVERIES_MAX_LIMIT)
    .default(WEBHOOK_DELIVERIES_DEFAULT_LIMIT),
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuerySchema>;

/** One event sent (or being sent) to one endpoint. Times are ISO 8601 UTC. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  event_id: z.string(),
  event_type: webhookEventTypeSchema,
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  /** The HTTP status of the last attempt; null when it got no answer. */
  last_status_code: z.number().int().nullable(),
  /** Why the last attempt failed (`The endpoint answered 500`, `No answer in time`…). */
  last_error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = z.array(webhookDeliverySchema);

/**
 * Why `POST /api/integration/webhook-deliveries/:id/retry` answered 409 (`details.reason`):
 * `not_failed`: only a failed delivery is sent again (a pending one is on its way, a delivered one
 * arrived); `endpoint_paused`: resume the endpoint first; `body_gone`: the event's body was not kept
 * (a delivery that failed before retries existed).
 */
export const webhookRetryRefusals = ['not_failed', 'endpoint_paused', 'body_gone'] as const;
export type WebhookRetryRefusal = (typeof webhookRetryRefusals)[number];

/** `data` of appointment.booked and appointment.cancelled: the appointment as the API lists it. */
export const appointmentEventDataSchema = integrationAppointmentSchema;
export type AppointmentEventData = IntegrationAppointment;

/** `data` of appointment.rescheduled: the appointment as it now stands, and where it was before. */
export const appointmentRescheduledEventDataSchema = integrationAppointmentSchema.extend({
  previous: z.object({
    caregiver_id: z.number().int(),
    appointment_type_id: z.number().int(),
    start_date: z.string(),
    end_date: z.string(),
  }),
});
export type AppointmentRescheduledEventData = z.infer<typeof appointmentRescheduledEventDataSchema>;

/** `data` of appointment.reminded: the appointment, and the reminder the patient was sent. */
export const appointmentRemindedEventDataSchema = integrationAppointmentSchema.extend({
  reminder: z.object({
    id: z.number().int(),
    lead_minutes: z.number().int(),
    channel: z.enum(['sms', 'whatsapp']),
    /** ISO 8601, UTC. */
    sent_at: z.string(),
  }),
});
export type AppointmentRemindedEventData = z.infer<typeof appointmentRemindedEventDataSchema>;

/** `data` of form.submitted: where to fetch the answers (with the API key), never the answers. */
export const formSubmittedEventDataSchema = z.object({
  request_id: z.number().int(),
  /** null when the template was deleted since the link was made. */
  template_id: z.number().int().nullable(),
  submitted_at: z.string(),
  submission_url: z.string(),
});
export type FormSubmittedEventData = z.infer<typeof formSubmittedEventDataSchema>;

/**
 * `data` of appointment.calendar_conflict: the appointment as it stands, and what clashes with it
 * in the caregiver's calendar. Marpe never cancels the patient for it: the clinic decides.
 */
export const appointmentCalendarConflictEventDataSchema = integrationAppointmentSchema.extend({
  conflict: z.object({
    /** `event_deleted`: Marpe's event of the appointment was deleted in the calendar; `overlap`: another busy event covers the appointment's time. */
    kind: z.enum(['event_deleted', 'overlap']),
    /** The calendar event's id. */
    event_id: z.string(),
    detected_at: z.string(),
  }),
});
export type AppointmentCalendarConflictEventData = z.infer<
  typeof appointmentCalendarConflictEventDataSchema
>;

/** `data` of calendar.sync_failed: a caregiver's calendar stopped syncing (sent on the change). */
export const calendarSyncFailedEventDataSchema = z.object({
  caregiver_id: z.number().int(),
  state: z.enum(['read_only', 'no_access', 'not_found', 'error']),
  error: z.string(),
  /** Passes failed in a row; Marpe keeps trying, with growing pauses up to 30 minutes. */
  failures: z.number().int(),
});
export type CalendarSyncFailedEventData = z.infer<typeof calendarSyncFailedEventDataSchema>;

/** `data` of payment.succeeded and payment.failed. */
export const paymentEventDataSchema = z.object({
  request_id: z.number().int(),
  /** Shekels, at most 2 decimals (1250.5 is ₪1,250.50). */
  amount: z.number(),
  /** The payment request's status after this transaction. */
  status: z.enum(['pending', 'verifying', 'paid', 'cancelled']),
  /**
   * true when the card provider's API confirmed the transaction (or, for payment.failed, denied
   * it); false for what only the callback said (a clinic without provider credentials).
   */
  verified: z.boolean(),
  /** The card provider's response code; '000' is success. */
  response_code: z.string(),
  payments: z.number().int(),
  /** The card provider's transaction index. */
  transaction_index: z.string(),
});
export type PaymentEventData = z.infer<typeof paymentEventDataSchema>;

/** The `data` of each event type. */
export interface WebhookEventData {
  'appointment.booked': AppointmentEventData;
  'appointment.cancelled': AppointmentEventData;
  'appointment.rescheduled': AppointmentRescheduledEventData;
  'appointment.reminded': AppointmentRemindedEventData;
  'appointment.calendar_conflict': AppointmentCalendarConflictEventData;
  'calendar.sync_failed': CalendarSyncFailedEventData;
  'form.submitted': FormSubmittedEventData;
  'payment.succeeded': PaymentEventData;
  'payment.failed': PaymentEventData;
  /** A second confirmed charge on a request already paid (two tabs): refund one of them. */
  'payment.duplicate': PaymentEventData;
  /**
   * The provider reported an approved charge that cannot be confirmed (the clinic has no provider
   * credentials): the request stays payable; check the charge in the provider's console.
   */
  'payment.unverified': PaymentEventData;
}

/** An event as `type` and its `data`: what the server emits. */
export type WebhookEventPayload = {
  [T in WebhookEventType]: { type: T; data: WebhookEventData[T] };
}[WebhookEventType];

/** The JSON body of every webhook request. */
export const webhookEventSchema = z.object({
  /** `evt_…`, the same in the `Marpe-Event-Id` header and on every retry: de-duplicate by it. */
  id: z.string(),
  type: webhookEventTypeSchema,
  /** When the event happened, ISO 8601 UTC. */
  created_at: z.string(),
  clinic_id: z.number().int(),
  data: z.union([
    appointmentRescheduledEventDataSchema,
    appointmentRemindedEventDataSchema,
    appointmentEventDataSchema,
    formSubmittedEventDataSchema,
    paymentEventDataSchema,
  ]),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
