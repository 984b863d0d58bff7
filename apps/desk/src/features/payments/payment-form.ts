import {
  createPaymentRequestBodySchema,
  formatAmount,
  MAX_PAYMENTS,
  toAgorot,
  type CreatePaymentRequestBody,
  type IntegrationPatient,
} from '@marpe/shared';
import type { TFunction } from 'i18next';
import { validate, type FieldErrors } from '../../lib/field-errors';

/** How long a link works unless changed: the API's own default. */
export const DEFAULT_EXPIRY_DAYS = 30;
export const MAX_EXPIRY_DAYS = 365;
export const MAX_PURPOSE_LENGTH = 200;

/** The request dialog's fields as typed. */
export interface PaymentForm {
  patient: IntegrationPatient | null;
  /** Shekels as typed: "1250.5", "1,250.50", "₪ 80". */
  amount: string;
  purpose: string;
  /** The clinic's own note, never shown to the patient. */
  description: string;
  maxPayments: string;
  expiresInDays: string;
  /** Send the link to the patient's mobile (else it is only copied). */
  send: boolean;
}

export const emptyPaymentForm = (patient: IntegrationPatient | null = null): PaymentForm => ({
  patient,
  amount: '',
  purpose: '',
  description: '',
  maxPayments: '1',
  expiresInDays: String(DEFAULT_EXPIRY_DAYS),
  send: true,
});

/** Shekels from what was typed (the sign and thousands' commas aside); NaN when it is no number. */
export function parseShekels(text: string): number {
  const clean = text.replace(/[₪\s,]/g, '');
  return /^\d+(\.\d*)?$|^\.\d+$/.test(clean) ? Number(clean) : Number.NaN;
}

/** A whole number as typed, or NaN. */
const parseWhole = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The create call's body: the patient's ID number and name go to the card frame as well. */
export function paymentRequestBody(form: PaymentForm): CreatePaymentRequestBody {
  const { patient } = form;
  return {
    amount: parseShekels(form.amount),
    max_payments: parseWhole(form.maxPayments),
    expires_in_days: parseWhole(form.expiresInDays),
    ...(form.purpose.trim() ? { purpose: form.purpose.trim() } : {}),
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    ...(patient
      ? {
          patient_id_number: patient.id_number,
          patient_name_remarks: `${patient.first_name} ${patient.last_name}`.trim(),
          ...(form.send ? { send_to_phone: patient.phone } : {}),
        }
      : {}),
  };
}

/** The body's fields as the dialog names them (the patient's go to the patient field). */
const fieldOf: Record<string, keyof PaymentForm> = {
  amount: 'amount',
  max_payments: 'maxPayments',
  expires_in_days: 'expiresInDays',
  purpose: 'purpose',
  description: 'description',
  patient_id_number: 'patient',
  patient_name_remarks: 'patient',
  send_to_phone: 'send',
};

/**
 * Errors by the dialog's fields, each in this dialog's words (the rule it breaks, with its limits);
 * what no field holds (the clinic's terminal or provider not set up) under `form`.
 */
export function paymentFormErrors(
  t: TFunction,
  errors: FieldErrors,
  amountAgorot: number | null = null,
): FieldErrors {
  const texts: Record<keyof PaymentForm, string> = {
    patient: t('payments:form.errors.patient'),
    amount: t('payments:form.errors.amount'),
    maxPayments:
      amountAgorot !== null && amountAgorot < MAX_PAYMENTS
        ? t('payments:form.errors.maxPaymentsSmall', { max: amountAgorot })
        : t('payments:form.errors.maxPayments', { max: MAX_PAYMENTS }),
    expiresInDays: t('payments:form.errors.expires', { max: MAX_EXPIRY_DAYS }),
    purpose: t('payments:form.errors.purpose', { max: MAX_PURPOSE_LENGTH }),
    description: t('payments:form.errors.description'),
    send: t('payments:form.errors.phone'),
  };
  const shown: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = fieldOf[path];
    if (field) {
      shown[field] ??= texts[field];
    } else if (path === 'terminal' || path === 'payment_provider') {
      shown.form ??= t('payments:form.errors.notSetUp');
    } else {
      shown.form ??= message;
    }
  }
  return shown;
}

/**
 * Checks the dialog as the server will (the shared body schema, the days and the instalments'
 * rules): the body to send, or the errors by field.
 */
export function checkPaymentForm(
  t: TFunction,
  form: PaymentForm,
): { body: CreatePaymentRequestBody; errors: null } | { body: null; errors: FieldErrors } {
  const body = paymentRequestBody(form);
  const checked = validate(t, createPaymentRequestBodySchema, body);
  const raw: FieldErrors = { ...(checked.errors ?? {}) };
  if (!form.patient) raw.patient_id_number = 'required';
  const days = body.expires_in_days ?? Number.NaN;
  if (!(days >= 1 && days <= MAX_EXPIRY_DAYS)) raw.expires_in_days ??= 'range';
  const agorot = toAgorot(body.amount);
  const payments = body.max_payments ?? 1;
  if (agorot !== null && payments > agorot) raw.max_payments ??= 'more than agorot';
  if ((body.purpose ?? '').length > MAX_PURPOSE_LENGTH) raw.purpose ??= 'too long';
  if (Object.keys(raw).length > 0) {
    return { body: null, errors: paymentFormErrors(t, raw, agorot) };
  }
  return { body, errors: null };
}

/** A sum as the desk and the payment page show it: ₪1,250.50, ₪300. */
export const shekels = (amount: number): string =>
  `₪${formatAmount(toAgorot(amount) ?? Math.round(amount * 100))}`;
