import { z } from 'zod';
import { isValidIsraeliMobile } from '../identity.js';
import { MAX_AMOUNT_AGOROT, MAX_PAYMENTS, toAgorot, toShekels } from '../payments.js';

// Payment requests through the integration API (docs/integration.md, "Payment requests"): the
// links a clinic sends and the card provider's callbacks on them. Entities are snake_case; the
// write body is strict, so a misspelt property is a 400 naming it. Sums are shekels with at most
// 2 decimals, as in the public contract; the server counts in agorot.

export const PAYMENT_REQUESTS_DEFAULT_LIMIT = 50;
export const PAYMENT_REQUESTS_MAX_LIMIT = 200;

const MAX_STORED_ID = 2_147_483_647;

/** A sum of shekels that is a whole number of agorot, 0.01 to MAX_AMOUNT_AGOROT. */
const amountSchema = z.number({ error: 'Expected a number of shekels' }).refine(
  (shekels) => {
    const agorot = toAgorot(shekels);
    return agorot !== null && agorot >= 1 && agorot <= MAX_AMOUNT_AGOROT;
  },
  `Expected shekels with at most 2 decimals, from 0.01 to ${toShekels(MAX_AMOUNT_AGOROT)}`,
);

/**
 * `POST /api/integration/payment-requests`. The text fields' rules (lengths, the terminal's and the
 * ID number's characters, the email) and the days' range are the payments service's, checked there
 * and named by these fields.
 */
export const createPaymentRequestBodySchema = z.strictObject({
  amount: amountSchema.describe(
    'The sum in shekels, at most 2 decimals (1250.5 is ₪1,250.50), from 0.01 to 1000000',
  ),
  max_payments: z
    .number()
    .int('Expected a whole number of payments')
    .min(1)
    .max(MAX_PAYMENTS)
    .optional()
    .describe(`The most payments the patient may choose, 1 to ${MAX_PAYMENTS}; default 1`),
  terminal: z
    .string()
    .optional()
    .describe("The card provider's terminal; default: the clinic's card_terminal"),
  patient_id_number: z
    .string()
    .optional()
    .describe("The patient's ID number, passed to the card frame as `contact`"),
  patient_name_remarks: z
    .string()
    .optional()
    .describe('Passed to the card frame as `remarks` (usually the patient’s name)'),
  patient_email: z
    .string()
    .optional()
    .describe('The receipt email the payment form starts with (the patient may change it)'),
  description: z
    .string()
    .optional()
    .describe('What the payment is for: the clinic’s own note, never shown to the patient'),
  purpose: z
    .string()
    .optional()
    .describe(
      'What the payment is for, in words for the patient (at most 200 characters): shown on the payment page when set',
    ),
  expires_in_days: z
    .number()
    .int('Expected a whole number of days')
    .optional()
    .describe('How long the link works, 1 to 365 days; default 30'),
  send_to_phone: z
    .string()
    .max(30)
    .refine(isValidIsraeliMobile, 'Expected an Israeli mobile number (05X-XXXXXXX or +972…)')
    .optional()
    .describe('An Israeli mobile number: the link is sent there by SMS in the clinic’s name'),
});
export type CreatePaymentRequestBody = z.infer<typeof createPaymentRequestBodySchema>;

/**
 * `pending` until paid or cancelled; `verifying` while a charge the provider reported waits for
 * the provider's API to confirm it (for good, when the clinic has set no provider credentials);
 * `expired` is a pending request past its `expires_at` (its link answers 404 like a cancelled one,
 * though a charge the provider confirms within a day still pays it).
 */
export const paymentRequestStatuses = [
  'pending',
  'verifying',
  'paid',
  'cancelled',
  'expired',
] as const;
export const paymentRequestStatusSchema = z.enum(paymentRequestStatuses);
export type PaymentRequestStatus = z.infer<typeof paymentRequestStatusSchema>;

/**
 * Where a request stands as the desk shows it: its status, except that a pending one whose
 * latest card attempt was declined is `failed` (the patient may still try again).
 */
export const paymentRequestStages = [
  'pending',
  'verifying',
  'paid',
  'failed',
  'cancelled',
  'expired',
] as const;
export const paymentRequestStageSchema = z.enum(paymentRequestStages);
export type PaymentRequestStage = z.infer<typeof paymentRequestStageSchema>;

/** A payment request without its link. Sums in shekels; times ISO 8601 UTC. */
export const paymentRequestSchema = z.object({
  id: z.number().int(),
  status: paymentRequestStatusSchema,
  stage: paymentRequestStageSchema,
  /** The paying card's last 4 digits, once paid (or verifying). */
  card_last4: z.string().nullable(),
  /** The card company's approval number, once paid (or verifying). */
  approval_number: z.string().nullable(),
  amount: z.number(),
  max_payments: z.number().int(),
  terminal: z.string(),
  patient_id_number: z.string(),
  patient_name_remarks: z.string(),
  patient_email: z.string(),
  description: z.string(),
  /** What the payment is for, as the patient's page shows it ('' when not set). */
  purpose: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
});
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

export const paymentRequestsSchema = z.array(paymentRequestSchema);

/** `201` of a create: the request and its link, which is in this answer only. */
export const createdPaymentRequestSchema = paymentRequestSchema.extend({ url: z.string() });
export type CreatedPaymentRequest = z.infer<typeof createdPaymentRequestSchema>;

/** `GET /api/integration/payment-requests`: newest first; `before` pages on from a request id. */
export const paymentRequestsQuerySchema = z.object({
  status: paymentRequestStatusSchema.optional(),
  stage: paymentRequestStageSchema
    .optional()
    .describe(
      'Only requests at this stage (as `stage` reads: `failed` is pending whose latest card attempt was declined; `pending` then excludes those)',
    ),
  patient_id_number: z.string().max(20).optional().describe("Only this patient's requests"),
  before: z.coerce.number().int().positive().max(MAX_STORED_ID).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAYMENT_REQUESTS_MAX_LIMIT)
    .default(PAYMENT_REQUESTS_DEFAULT_LIMIT),
});
export type PaymentRequestsQuery = z.infer<typeof paymentRequestsQuerySchema>;

/**
 * One callback of the card provider on a request, as recorded: never card data beyond the last 4
 * digits. Only an accepted `000` pays a request (the first one, while it is unpaid).
 */
export const paymentTransactionSchema = z.object({
  id: z.number().int(),
  /** The provider's transaction index: one record per index, however often it calls. */
  transaction_index: z.string(),
  /** The provider's response code; '000' is success. */
  response_code: z.string(),
  /** The code's Hebrew description ('' for a code the provider's list does not have). */
  response_description: z.string(),
  /** Whether the callback matched the request (terminal, sum, currency, payments). */
  accepted: z.boolean(),
  /** Why it did not, comma-separated (`terminal_mismatch,sum_mismatch`); null when accepted. */
  rejection_reason: z.string().nullable(),
  /**
   * What the provider's API said of the index: `confirmed`, `refused` (no such approved, matching
   * charge), `unverifiable` (no provider credentials); null until asked.
   */
  verification: z.enum(['confirmed', 'refused', 'unverifiable']).nullable(),
  confirmation_code: z.string().nullable(),
  /** The sum the provider reported, in shekels; null when it sent none we could read. */
  amount: z.number().nullable(),
  payments: z.number().int(),
  card_last4: z.string().nullable(),
  received_at: z.string(),
});
export type PaymentTransaction = z.infer<typeof paymentTransactionSchema>;

export const paymentTransactionsSchema = z.array(paymentTransactionSchema);

/**
 * `PUT /api/integration/payment-provider`: the clinic's card provider API credentials, with which
 * Marpe confirms each charge and pins each payment frame to its sum. The secret is stored
 * encrypted and never returned.
 */
export const paymentProviderBodySchema = z.strictObject({
  app_key: z.string().trim().min(1).max(200).describe("The provider API's app key"),
  secret: z.string().min(8).max(500).describe("The provider API's secret; write-only"),
});
export type PaymentProviderBody = z.infer<typeof paymentProviderBodySchema>;

/** The clinic's provider API settings as the integration API shows them: never the secret. */
export const paymentProviderSchema = z.object({
  /** false: charges stay `verifying` (webhooks say `verified: false`) until credentials are set. */
  configured: z.boolean(),
  app_key: z.string().nullable(),
});
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;
