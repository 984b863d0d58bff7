import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../platform/db/client.js';
import { clinics } from '../platform/db/schema.js';
import type { CreatePaymentLinkInput } from '../modules/payments/create-payment-link.js';
import type { PaymentsService } from '../modules/payments/payments-service.js';
import { DEMO_CARD_TERMINAL, DEMO_CLINIC_ID, demoClinic } from './demo-clinic.js';

/** The demo payment link: ₪1,250.50 in up to 3 payments, for demo patient דנה לוי. */
export const demoPaymentRequest = {
  clinicId: DEMO_CLINIC_ID,
  amountAgorot: 125_050,
  maxPayments: 3,
  patientIdNumber: '039845128',
  patientNameRemarks: 'דנה לוי',
  patientEmail: 'dana@example.com',
  description: 'טיפול שיניים (הדגמה)',
  purpose: 'טיפול שורש – שן 36',
} as const satisfies CreatePaymentLinkInput;

/**
 * Gives the demo clinic its card terminal when it has none (a database seeded before payments
 * existed). Returns whether the demo clinic is there with a terminal; idempotent.
 */
export async function ensureDemoCardTerminal(ex: Executor): Promise<boolean> {
  await ex
    .update(clinics)
    .set({ cardTerminal: DEMO_CARD_TERMINAL })
    .where(
      and(
        eq(clinics.id, DEMO_CLINIC_ID),
        eq(clinics.name, demoClinic.name),
        isNull(clinics.cardTerminal),
      ),
    );
  const [clinic] = await ex
    .select({ name: clinics.name, cardTerminal: clinics.cardTerminal })
    .from(clinics)
    .where(eq(clinics.id, DEMO_CLINIC_ID));
  return clinic?.name === demoClinic.name && clinic.cardTerminal !== null;
}

/**
 * The card provider API credentials of the demo clinic: what the sandbox's provider API accepts
 * (modules/payments/sandbox-api.ts), so demo payments are confirmed like real ones. Demo only.
 */
export const DEMO_PROVIDER_CREDENTIALS = {
  appKey: 'marpe-demo-app-key',
  secret: 'marpe-demo-api-secret',
} as const;

/** Gives the demo clinic those credentials when it has none; idempotent. */
export async function ensureDemoProviderCredentials(
  db: Executor,
  payments: Pick<PaymentsService, 'providerSettings' | 'setProviderCredentials'>,
): Promise<void> {
  if ((await payments.providerSettings(DEMO_CLINIC_ID)).appKey !== null) return;
  await payments.setProviderCredentials(db, DEMO_CLINIC_ID, DEMO_PROVIDER_CREDENTIALS);
}
