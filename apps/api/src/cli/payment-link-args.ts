import { MAX_AMOUNT_AGOROT, MAX_PAYMENTS } from '@marpe/shared';
import {
  DEFAULT_PAYMENT_LINK_DAYS,
  MAX_PAYMENT_LINK_DAYS,
} from '../modules/payments/payments-service.js';
import { positiveInteger, splitInlineValue, UsageError } from './args.js';

export interface PaymentLinkArgs {
  clinicId: number;
  amountAgorot: number;
  maxPayments: number;
  terminal?: string;
  patientIdNumber?: string;
  patientNameRemarks?: string;
  patientEmail?: string;
  description?: string;
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
  '--terminal': 'terminal',
  '--patient-id': 'patientIdNumber',
  '--remarks': 'patientNameRemarks',
  '--email': 'patientEmail',
  '--description': 'description',
} as const;

export function parsePaymentLinkArgs(args: readonly string[]): PaymentLinkArgs {
  let clinicId: number | undefined;
  let amountAgorot: number | undefined;
  const result: Omit<PaymentLinkArgs, 'clinicId' | 'amountAgorot'> = {
    maxPayments: 1,
    days: DEFAULT_PAYMENT_LINK_DAYS,
  };

  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] = splitInlineValue(arg);
    const next = () => inline ?? args[++i];
    switch (flag) {
      case '--clinic':
        clinicId = positiveInteger('--clinic', next());
        break;
      case '--amount': {
        const value = next();
        const agorot = value === undefined ? null : parseShekels(value);
        if (agorot === null || agorot < 1 || agorot > MAX_AMOUNT_AGOROT) {
          throw new UsageError(
            '--amount needs a sum in shekels with at most 2 decimals, from 0.01 to 1000000 (e.g. 1250.50)',
          );
        }
        amountAgorot = agorot;
        break;
      }
      case '--payments':
        result.maxPayments = positiveInteger('--payments', next(), MAX_PAYMENTS);
        break;
      case '--days':
        result.days = positiveInteger('--days', next(), MAX_PAYMENT_LINK_DAYS);
        break;
      default: {
        if (!Object.hasOwn(textFlags, flag)) throw new UsageError(`unknown argument "${arg}"`);
        const value = next();
        if (value === undefined || (inline === undefined && value.startsWith('--'))) {
          throw new UsageError(`${flag} needs a value`);
        }
        result[textFlags[flag as keyof typeof textFlags]] = value;
      }
    }
  }
  if (clinicId === undefined) throw new UsageError('--clinic <id> is required');
  if (amountAgorot === undefined) throw new UsageError('--amount <shekels> is required');
  return { clinicId, amountAgorot, ...result };
}
