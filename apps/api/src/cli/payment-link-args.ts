import { MAX_AMOUNT_AGOROT, MAX_PAYMENTS } from '@marpe/shared';
import {
  DEFAULT_PAYMENT_LINK_DAYS,
  MAX_PAYMENT_LINK_DAYS,
  type CreatePaymentLinkInput,
} from '../modules/payments/create-payment-link.js';
import { positiveInteger, readArgs, UsageError } from './args.js';

/** The service's input with the defaults the command fills in: `days` is `expiresInDays`. */
export interface PaymentLinkArgs extends Omit<
  CreatePaymentLinkInput,
  'maxPayments' | 'expiresInDays'
> {
  maxPayments: number;
  days: number;
}

/**
 * Shekels as typed ("1250.50", "1250.5", "1,250.50", "1250") to agorot, exactly: the digits are
 * read as integers, never through a floating-point number.
 */
export function parseShekels(text: string): number | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const whole = Number((match[1] ?? '').replaceAll(',', ''));
  const agorot = whole * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(agorot) ? agorot : null;
}

const textFlags = {
  terminal: 'terminal',
  'patient-id': 'patientIdNumber',
  remarks: 'patientNameRemarks',
  email: 'patientEmail',
  description: 'description',
  purpose: 'purpose',
} as const;

export function parsePaymentLinkArgs(args: readonly string[]): PaymentLinkArgs {
  const { values } = readArgs(args, {
    clinic: { type: 'string' },
    amount: { type: 'string' },
    payments: { type: 'string' },
    days: { type: 'string' },
    ...Object.fromEntries(Object.keys(textFlags).map((flag) => [flag, { type: 'string' }])),
  } as Record<string, { type: 'string' }>);
  const clinicId =
    values.clinic === undefined ? undefined : positiveInteger('--clinic', values.clinic);
  let amountAgorot: number | undefined;
  if (values.amount !== undefined) {
    const agorot = parseShekels(values.amount);
    if (agorot === null || agorot < 1 || agorot > MAX_AMOUNT_AGOROT) {
      throw new UsageError(
        '--amount needs a sum in shekels with at most 2 decimals, from 0.01 to 1000000 (e.g. 1250.50)',
      );
    }
    amountAgorot = agorot;
  }
  const result: Omit<PaymentLinkArgs, 'clinicId' | 'amountAgorot'> = {
    maxPayments:
      values.payments === undefined
        ? 1
        : positiveInteger('--payments', values.payments, MAX_PAYMENTS),
    days:
      values.days === undefined
        ? DEFAULT_PAYMENT_LINK_DAYS
        : positiveInteger('--days', values.days, MAX_PAYMENT_LINK_DAYS),
  };
  for (const [flag, field] of Object.entries(textFlags)) {
    const value = values[flag];
    if (value !== undefined) result[field] = value;
  }
  if (clinicId === undefined) throw new UsageError('--clinic <id> is required');
  if (amountAgorot === undefined) throw new UsageError('--amount <shekels> is required');
  return { clinicId, amountAgorot, ...result };
}
