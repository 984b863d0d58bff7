import { z } from 'zod';
import { MAX_PAYMENTS } from './payments-rules.js';

// The payment request contract (SPEC § 3, § 7); its rules are in payments-rules.ts.
export * from './payments-rules.js';

/** A link token as the address carries it. */
const paymentTokenSchema = z.string().min(1).max(200);

/** `POST /api/get-payment-request`. */
export const getPaymentRequestBodySchema = z.object({ token: paymentTokenSchema });

/**
 * SPEC § 3 "Payment request". `amount` is in shekels with at most 2 decimals (1250.5 is
 * ₪1,250.50). `status` is ours: the page shows a paid request as paid instead of the form.
 */
export const paymentRequestDataSchema = z.object({
  amount: z.number(),
  terminal: z.string(),
  patientId: z.string(),
  patientNameRemarks: z.string(),
  patientEmail: z.string(),
  clinicLogo: z.string(),
  numPayments: z.number().int().min(1).max(MAX_PAYMENTS),
  /** `verifying`: a charge was reported and awaits the provider's confirmation (show "processing"). */
  status: z.enum(['pending', 'verifying', 'paid']),
  /** The provider's handshake token pinning the frame to this sum; null without provider credentials. */
  thtk: z.string().nullable(),
  /**
   * The request's own reference, sent with the frame (`marpe_ref`) so the provider keeps it with
   * the charge: a charge made for another request never pays this one.
   */
  chargeRef: z.string(),
});
export type PaymentRequestData = z.infer<typeof paymentRequestDataSchema>;

export const getPaymentRequestResponseSchema = z.object({ data: paymentRequestDataSchema });
