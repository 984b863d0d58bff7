import type { FormLink } from '../modules/forms/form-links.js';
import type { FormsService } from '../modules/forms/forms-service.js';
import { AppError } from '../platform/errors.js';
import type { PaymentLink } from '../modules/payments/create-payment-link.js';
import type { PaymentsService } from '../modules/payments/payments-service.js';
import { DEMO_CLINIC_ID } from './demo-clinic.js';
import { DEMO_FORM_NAME, demoFormInitData } from './demo-form.js';
import { demoPaymentRequest } from './demo-payment.js';

/** A new link to the demo clinic's intake form (demo start-up and POST /api/dev/demo-links). */
export async function createDemoFormLink(
  forms: Pick<FormsService, 'createLink' | 'findTemplateId'>,
): Promise<FormLink> {
  const templateId = await forms.findTemplateId(DEMO_CLINIC_ID, DEMO_FORM_NAME);
  // A database whose demo clinic was deleted or never seeded: say what to do, not a 500.
  if (templateId === null)
    throw new AppError(
      'conflict',
      409,
      'The demo clinic has no intake form: run npm run seed:demo',
    );
  return forms.createLink({ clinicId: DEMO_CLINIC_ID, templateId, initData: demoFormInitData });
}

/**
 * A new demo payment link (demo start-up and POST /api/dev/demo-links): ₪1,250.50 in up to 3
 * payments, paid in the card sandbox.
 */
export async function createDemoPaymentLink(
  payments: Pick<PaymentsService, 'createLink'>,
): Promise<PaymentLink> {
  return payments.createLink(demoPaymentRequest);
}
