import { isReceiptEmail, MAX_AMOUNT_AGOROT, MAX_PAYMENTS } from '@marpe/shared';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { invalid, type PaymentsServiceDeps } from './payments-deps.js';

const DAY = 86_400_000;

/** How long a new payment link works unless the caller says otherwise. */
export const DEFAULT_PAYMENT_LINK_DAYS = 30;
export const MAX_PAYMENT_LINK_DAYS = 365;

/** The longest `purpose`: a line on the payment page, not a letter. */
export const MAX_PURPOSE_LENGTH = 200;

/** A card provider terminal name. */
export const TERMINAL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface CreatePaymentLinkInput {
  clinicId: number;
  /** The sum, in agorot (1250.50 shekels is 125050). */
  amountAgorot: number;
  /** The most payments the patient may choose, 1 (default) to MAX_PAYMENTS. */
  maxPayments?: number;
  /** Default: the clinic's card terminal. */
  terminal?: string;
  patientIdNumber?: string;
  patientNameRemarks?: string;
  patientEmail?: string;
  /** The clinic's own note on the payment; never shown to the patient. */
  description?: string;
  /** What the payment is for, in words for the patient: shown on the payment page when set. */
  purpose?: string;
  /** Default DEFAULT_PAYMENT_LINK_DAYS. */
  expiresInDays?: number;
}

export interface PaymentLink {
  requestId: number;
  token: string;
  url: string;
  expiresAt: Date;
}

const hasControlCharacters = (text: string) => /\p{Cc}/u.test(text.replace(/\n/g, ''));

function text(
  field: string,
  value: string | undefined,
  max: number,
  pattern?: { test: RegExp; message: string },
): string {
  const clean = (value ?? '').trim();
  if (clean.length > max) throw invalid(field, `must be at most ${max} characters`);
  if (hasControlCharacters(clean)) throw invalid(field, 'must not hold control characters');
  if (clean !== '' && pattern && !pattern.test.test(clean)) throw invalid(field, pattern.message);
  return clean;
}

/** A new link, inserted in `ex` when given (the integration API sends it in the same commit). */
export async function createPaymentLink(
  deps: Pick<
    PaymentsServiceDeps,
    'repository' | 'clock' | 'publicOrigin' | 'requireProviderCredentials'
  >,
  input: CreatePaymentLinkInput,
  ex?: Executor,
): Promise<PaymentLink> {
  const { repository, clock, publicOrigin } = deps;
  const clinic = await repository.findClinic(input.clinicId, ex);
  if (!clinic) throw new AppError('clinic_not_found', 404, 'No such clinic');

  const amount = input.amountAgorot;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_AGOROT) {
    throw invalid(
      'amountAgorot',
      `must be a whole number of agorot from 1 to ${MAX_AMOUNT_AGOROT} (₪0.01 to ₪1,000,000)`,
    );
  }
  const maxPayments = input.maxPayments ?? 1;
  if (!Number.isInteger(maxPayments) || maxPayments < 1 || maxPayments > MAX_PAYMENTS) {
    throw invalid('maxPayments', `must be a whole number from 1 to ${MAX_PAYMENTS}`);
  }
  if (maxPayments > amount) {
    throw invalid('maxPayments', 'must not exceed the sum in agorot (each payment ≥ 1 agora)');
  }
  const terminal = input.terminal?.trim() || clinic.cardTerminal;
  if (!terminal) {
    throw invalid('terminal', `is required: clinic ${clinic.id} has no card terminal`);
  }
  if (!TERMINAL_PATTERN.test(terminal)) {
    throw invalid('terminal', 'must be 1-64 letters, digits, _ or -');
  }
  const patientIdNumber = text('patientIdNumber', input.patientIdNumber, 20, {
    test: /^[0-9A-Za-z-]+$/,
    message: 'must be letters, digits or -',
  });
  const patientNameRemarks = text('patientNameRemarks', input.patientNameRemarks, 200);
  const patientEmail = text('patientEmail', input.patientEmail, 254);
  if (patientEmail !== '' && !isReceiptEmail(patientEmail)) {
    throw invalid('patientEmail', 'must be an email address');
  }
  const description = text('description', input.description, 500);
  const purpose = text('purpose', input.purpose, MAX_PURPOSE_LENGTH);
  if (deps.requireProviderCredentials) {
    const credentials = await repository.findProviderCredentials(ex ?? repository.db, clinic.id);
    if (!credentials?.appKey || !credentials.secret) {
      throw invalid(
        'payment_provider',
        `is not set up: clinic ${clinic.id} has no card provider API credentials to confirm charges with (PUT /api/integration/payment-provider)`,
      );
    }
  }
  const days = input.expiresInDays ?? DEFAULT_PAYMENT_LINK_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_PAYMENT_LINK_DAYS) {
    throw invalid('expiresInDays', `must be 1 to ${MAX_PAYMENT_LINK_DAYS} days`);
  }

  const now = clock();
  const token = randomToken();
  const expiresAt = new Date(now + days * DAY);
  const requestId = await repository.insertRequest(
    {
      clinicId: clinic.id,
      amountAgorot: amount,
      terminal,
      patientIdNumber,
      patientNameRemarks,
      patientEmail,
      maxPayments,
      description,
      purpose,
      tokenHash: sha256Hex(token),
      chargeRef: randomToken(12),
      status: 'pending',
      createdAt: new Date(now),
      expiresAt,
    },
    ex,
  );
  return { requestId, token, url: `${publicOrigin}/p/${token}`, expiresAt };
}
