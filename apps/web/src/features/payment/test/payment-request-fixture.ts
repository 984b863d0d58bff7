import type { PaymentRequestData } from '@marpe/shared';

/** A pending request for ₪1,250.50 in up to 3 payments, as get-payment-request answers it. */
export function paymentRequestFixture(
  overrides: Partial<PaymentRequestData> = {},
): PaymentRequestData {
  return {
    amount: 1250.5,
    terminal: 'demo',
    patientId: '123456782',
    patientNameRemarks: 'דנה לוי',
    patientEmail: 'dana@example.com',
    clinicLogo: '/logo.png',
    numPayments: 3,
    status: 'pending',
    thtk: null,
    chargeRef: 'ref_abc123',
    clinicName: 'מרפאת השן הלבנה',
    clinicId: 7,
    clinicPhone: '03-5551234',
    clinicTimeZone: 'Asia/Jerusalem',
    purpose: 'טיפול שורש – שן 36',
    cardProvider: 'tranzila',
    receipt: null,
    ...overrides,
  };
}
