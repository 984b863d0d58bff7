import { z } from 'zod';
import { CARD_PROVIDERS, MAX_PAYMENTS } from './payments-rules.js';

// The payment request contract (docs/product/payments.md); its rules are in payments-rules.ts.
export * from './payments-rules.js';

/** A link token as the address carries it. */
const paymentTokenSchema = z.string().min(1).max(200);

/** `POST /api/get-payment-request`. */
export const getPaymentRequestBodySchema = z.object({ token: paymentTokenSchema });

/** The confirmed charge of a paid request, as the payment result page shows it. */
export const paymentReceiptSchema = z.object({
  /** The sum charged, in shekels. */
  amount: z.number(),
  /** The number of payments the patient chose. */
  payments: z.number().int().min(1).max(MAX_PAYMENTS),
  /** The card's last 4 digits; null when the provider sent none. */
  cardLast4: z.string().nullable(),
  /** The provider's confirmation (authorisation) number; null when it sent none. */
  confirmationCode: z.string().nullable(),
  /** Where the provider sends the receipt: the email given with the frame ('' when unknown). */
  email: z.string(),
  /** When it was paid (ISO 8601), shown on the clinic's clock. */
  paidAt: z.string(),
});
export type PaymentReceipt = z.infer<typeof paymentReceiptSchema>;

/**
 * docs/product/payments.md#payment-request. `amount` is in shekels with at most 2 decimals (1250.5
 * is ₪1,250.50). `status` is ours: the page shows a paid request as paid instead of the form.
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
  /** The clinic that asks: its name beside its logo. */
  clinicName: z.string(),
  /** Its page, the way onward from the result (public, as the clinic page is). */
  clinicId: z.number().int(),
  /** Its phone ('' when none), for a patient whose payment did not go through. */
  clinicPhone: z.string(),
  /** Its clock, on which the page shows the date paid. */
  clinicTimeZone: z.string(),
  /** What the payment is for, in the patient's words ('' when the clinic set none). */
  purpose: z.string(),
  /**
   * Whose page the card is typed on: the clinic's card provider, or (demo mode) the built-in
   * sandbox standing in for it.
   */
  cardProvider: z.enum(CARD_PROVIDERS),
  /**
   * A paid request's confirmed charge, for the result page: from the provider callback the
   * provider's API confirmed. Null until paid, and past the link's expiry (like the patient's
   * details above).
   */
  receipt: paymentReceiptSchema.nullable(),
});
export type PaymentRequestData = z.infer<typeof paymentRequestDataSchema>;

export const getPaymentRequestResponseSchema = z.object({ data: paymentRequestDataSchema });
