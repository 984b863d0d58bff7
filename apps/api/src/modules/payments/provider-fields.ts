import { CHARGE_REF_FIELD, parseProviderSum, splitInstalments } from '@marpe/shared';

// What the card provider (Tranzila) sends us: the server-to-server notify and the browser's
// return, as `key=value` fields. They carry no signature, so nothing in them is trusted beyond
// what we can check against the request (see docs/decisions/008-payment-callbacks.md).

/** Provider fields as text, whatever the body's encoding (form or JSON). */
export type ProviderFields = Record<string, string>;

const MAX_FIELDS = 200;
const MAX_KEY_LENGTH = 100;
const MAX_VALUE_LENGTH = 1000;

/**
 * A form-encoded or JSON body (or a query) as text fields: strings kept, numbers and booleans
 * written as text, a repeated key's last value; nested values dropped. Keys and values are cut
 * to sane lengths and values trimmed.
 */
export function providerFieldsOf(input: unknown): ProviderFields {
  const fields: ProviderFields = {};
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return fields;
  let count = 0;
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    if (count >= MAX_FIELDS) break;
    if (key === '' || key.length > MAX_KEY_LENGTH || key === '__proto__') continue;
    const value = Array.isArray(raw) ? raw.at(-1) : raw;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      continue;
    }
    fields[key] = String(value).trim().slice(0, MAX_VALUE_LENGTH);
    count++;
  }
  return fields;
}

/** Fields that are card data whatever their value (compared lower-case). */
const cardFieldNames = new Set([
  'ccno',
  'cardnum',
  'cardnumber',
  'card_no',
  'ccnum',
  'expmonth',
  'expyear',
  'expdate',
  'mycvv',
  'cvv',
  'cvv2',
  'myid',
  'tranzilatk',
  'tranzilapw',
]);

/** A value holding 12 or more digits in a row (spaces and dashes ignored) may be a card number. */
const looksLikeCardNumber = (value: string): boolean => /\d{12,}/.test(value.replace(/[\s-]/g, ''));

export function isCardData(key: string, value: string): boolean {
  const name = key.toLowerCase();
  if (cardFieldNames.has(name)) return true;
  // The transaction index is ours to keep (the idempotency key), however long.
  return name !== 'index' && looksLikeCardNumber(value);
}

/** The fields minus card data (card number, expiry, CVV, card holder's ID, card token). */
export function withoutCardData(fields: ProviderFields): ProviderFields {
  const kept: ProviderFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (!isCardData(key, value)) kept[key] = value;
  }
  return kept;
}

/** The last 4 digits of `ccno` (the provider sends the last 4, or a masked number); else null. */
export function cardLast4(fields: ProviderFields): string | null {
  const digits = (fields.ccno ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/**
 * The result page's `results` (docs/product/payments.md#result): the return's fields minus card
 * data, `Response` first, as one URL-encoded `key=value&…` string.
 */
export function resultsQueryOf(fields: ProviderFields): string {
  const kept = withoutCardData(fields);
  const params = new URLSearchParams();
  if (kept.Response !== undefined) params.set('Response', kept.Response);
  for (const [key, value] of Object.entries(kept)) {
    if (key !== 'Response') params.set(key, value);
  }
  return params.toString();
}

const INT4_MAX = 2_147_483_647;

/** A provider sum in agorot when it is one that fits the database; else null. */
export function providerAgorot(text: string | undefined): number | null {
  if (text === undefined || text === '') return null;
  const agorot = parseProviderSum(text);
  return agorot !== null && agorot <= INT4_MAX ? agorot : null;
}

/** Why a callback is not accepted; a callback may fail several checks. */
export type RejectionReason =
  | 'request_cancelled'
  | 'terminal_mismatch'
  | 'currency_mismatch'
  | 'sum_mismatch'
  | 'cred_type_not_allowed'
  | 'too_many_payments'
  | 'instalments_mismatch'
  /** The charge carries another request's reference (CHARGE_REF_FIELD). */
  | 'reference_mismatch'
  /**
   * The charge carries no reference at all, so nothing says which request it was made for: it is
   * unverifiable, never a match.
   */
  | 'reference_missing'
  /** The provider charge (terminal, index) already paid another request. */
  | 'charge_of_another_request';

export interface CallbackRequest {
  terminal: string;
  chargeRef: string;
  amountAgorot: number;
  maxPayments: number;
  status: string;
}

/** What a callback says, read for storage, and whether it passes our checks. */
export interface CallbackVerdict {
  accepted: boolean;
  reasons: RejectionReason[];
  amountAgorot: number | null;
  credType: string | null;
  /** 1 for a single payment, npay + 1 for instalments (1 when npay is not a count). */
  payments: number;
  firstPaymentAgorot: number | null;
  laterPaymentAgorot: number | null;
}

/**
 * The checks an unsigned callback must pass to count (docs/payments.md): the request's terminal
 * (`supplier`), its sum to the agora, shekels (`currency` 1 or absent), and for instalments
 * (`cred_type` 8) at most the request's number of payments, split as
 * docs/product/payments.md#instalments says (so `fpay + npay × spay` is the sum exactly). A single
 * payment (`cred_type` 1 or absent) has no later payments.
 */
export function checkCallback(request: CallbackRequest, fields: ProviderFields): CallbackVerdict {
  const reasons: RejectionReason[] = [];
  if (request.status === 'cancelled') reasons.push('request_cancelled');
  // Every request has a reference and its frame is opened with it, so a charge reported without
  // one was made through a frame stripped of it (or is someone else's charge): taking it would let
  // whichever link is verified first claim a charge that cannot be told apart.
  const reference = fields[CHARGE_REF_FIELD];
  if (reference === undefined) {
    if (request.chargeRef !== '') reasons.push('reference_missing');
  } else if (reference !== request.chargeRef) {
    reasons.push('reference_mismatch');
  }
  const supplier = (fields.supplier ?? '').toLowerCase();
  if (supplier === '' || supplier !== request.terminal.toLowerCase()) {
    reasons.push('terminal_mismatch');
  }
  const currency = fields.currency ?? '';
  if (currency !== '' && currency !== '1') reasons.push('currency_mismatch');
  const amountAgorot = providerAgorot(fields.sum);
  if (amountAgorot !== request.amountAgorot) reasons.push('sum_mismatch');

  const credType = fields.cred_type ? fields.cred_type.slice(0, 10) : null;
  const npayText = fields.npay ?? '';
  const npay = /^\d{1,3}$/.test(npayText) ? Number(npayText) : null;
  const firstPaymentAgorot = providerAgorot(fields.fpay);
  const laterPaymentAgorot = providerAgorot(fields.spay);
  let payments = 1;

  if (credType === '8') {
    if (npay === null || npay < 1) {
      reasons.push('instalments_mismatch');
    } else {
      payments = npay + 1;
      if (payments > request.maxPayments) reasons.push('too_many_payments');
      // Our frame always asks for the product's split; any other one, even adding up, was altered
      // on the way (the frame's address is in the patient's hands).
      const split =
        payments <= request.amountAgorot ? splitInstalments(request.amountAgorot, payments) : null;
      if (
        split === null ||
        firstPaymentAgorot !== split.firstAgorot ||
        laterPaymentAgorot !== split.laterAgorot ||
        firstPaymentAgorot + npay * laterPaymentAgorot !== request.amountAgorot
      ) {
        reasons.push('instalments_mismatch');
      }
    }
  } else if (credType === null || credType === '1') {
    if (npayText !== '' && npay !== 0) reasons.push('instalments_mismatch');
  } else {
    reasons.push('cred_type_not_allowed');
  }

  return {
    accepted: reasons.length === 0,
    reasons,
    amountAgorot,
    credType,
    payments,
    firstPaymentAgorot,
    laterPaymentAgorot,
  };
}
