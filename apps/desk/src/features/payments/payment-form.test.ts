import type { IntegrationPatient } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { initDeskI18n } from '../../app/i18n/init';
import {
  checkPaymentForm,
  emptyPaymentForm,
  parseShekels,
  paymentFormErrors,
  shekels,
} from './payment-form';

const dana: IntegrationPatient = {
  id: 4,
  id_number: '039845128',
  first_name: 'דנה',
  last_name: 'לוי',
  phone: '0521234567',
};

describe('the payment request form', async () => {
  const i18n = await initDeskI18n('en');
  const t = i18n.t.bind(i18n);

  it('reads shekels as people type them', () => {
    expect(parseShekels('1250.5')).toBe(1250.5);
    expect(parseShekels(' ₪ 1,250.50 ')).toBe(1250.5);
    expect(parseShekels('.5')).toBe(0.5);
    expect(parseShekels('')).toBeNaN();
    expect(parseShekels('12a')).toBeNaN();
    expect(parseShekels('-5')).toBeNaN();
    expect(shekels(1250.5)).toBe('₪1,250.50');
    expect(shekels(300)).toBe('₪300');
  });

  it('sends the patient’s ID, name and mobile, and the terms', () => {
    const checked = checkPaymentForm(t, {
      ...emptyPaymentForm(dana),
      amount: '1,250.50',
      purpose: '  טיפול שורש ',
      maxPayments: '3',
      expiresInDays: '7',
    });
    expect(checked.errors).toBeNull();
    expect(checked.body).toEqual({
      amount: 1250.5,
      max_payments: 3,
      expires_in_days: 7,
      purpose: 'טיפול שורש',
      patient_id_number: '039845128',
      patient_name_remarks: 'דנה לוי',
      send_to_phone: '0521234567',
    });
    // Copying the link instead: no phone.
    const copied = checkPaymentForm(t, { ...emptyPaymentForm(dana), amount: '80', send: false });
    expect(copied.body).not.toHaveProperty('send_to_phone');
  });

  it('names each field that breaks a rule, in the dialog’s words', () => {
    const checked = checkPaymentForm(t, {
      ...emptyPaymentForm(null),
      amount: '12.345',
      maxPayments: '37',
      expiresInDays: '0',
      purpose: 'x'.repeat(201),
    });
    expect(checked.errors).toEqual({
      patient: 'Choose a patient',
      amount: 'Enter a sum in shekels from 0.01 to 1,000,000, with at most 2 decimals',
      maxPayments: 'Enter a whole number of payments from 1 to 36',
      expiresInDays: 'Enter a whole number of days from 1 to 365',
      purpose: 'At most 200 characters',
    });
    // Each payment is at least 1 agora.
    const tiny = checkPaymentForm(t, {
      ...emptyPaymentForm(dana),
      amount: '0.05',
      maxPayments: '6',
    });
    expect(tiny.errors).toEqual({
      maxPayments: 'A sum this small can be split into at most 5 payments',
    });
    expect(checkPaymentForm(t, { ...emptyPaymentForm(dana), amount: '' }).errors).toEqual({
      amount: 'Enter a sum in shekels from 0.01 to 1,000,000, with at most 2 decimals',
    });
  });

  it('puts the server’s refusals at the fields, and what no field holds above them', () => {
    expect(
      paymentFormErrors(t, {
        send_to_phone: 'Expected an Israeli mobile',
        payment_provider: 'is not set up',
      }),
    ).toEqual({
      send: expect.stringContaining('no valid Israeli mobile'),
      form: expect.stringContaining('card terminal is not set up'),
    });
  });
});
