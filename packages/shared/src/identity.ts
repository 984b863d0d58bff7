/**
 * Israeli identity rules both sides use: the ID number's check digit and mobile phone numbers.
 * Pure functions; the zod schemas built on them live in patient-auth.ts.
 */

/** Up to 9 digits; shorter numbers are left-padded with zeros before the check. */
const idDigits = /^\d{1,9}$/;

/** The ID number as stored and compared: 9 digits, left-padded. Assumes `isValidIsraeliId`. */
export function normaliseIdNumber(idNumber: string): string {
  return idNumber.trim().padStart(9, '0');
}

/**
 * The Israeli ID check: 9 digits after left-padding, weights 1,2,1,2…, each product's digits
 * summed, the total divisible by 10. All zeros is refused (it passes the arithmetic).
 */
export function isValidIsraeliId(idNumber: string): boolean {
  const text = idNumber.trim();
  if (!idDigits.test(text)) return false;
  const padded = text.padStart(9, '0');
  if (/^0+$/.test(padded)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const product = Number(padded[i]) * ((i % 2) + 1);
    sum += product > 9 ? product - 9 : product;
  }
  return sum % 10 === 0;
}

/**
 * An 8-digit number completed with the check digit that makes it a valid ID number (for demo data
 * and tests: the same weighting as isValidIsraeliId, solved for the last digit).
 */
export function withIdCheckDigit(base8: string): string {
  if (!/^\d{8}$/.test(base8)) throw new RangeError('withIdCheckDigit takes exactly 8 digits');
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const product = Number(base8[i]) * ((i % 2) + 1);
    sum += product > 9 ? product - 9 : product;
  }
  return `${base8}${(10 - (sum % 10)) % 10}`;
}

/** Separators people type inside a phone number. */
const phoneSeparators = /[\s\-().\u200e\u200f\u202a-\u202e]/g;

/**
 * An Israeli mobile number in its national form `05XXXXXXXX`, from what people type:
 * `050-123-4567`, `050 1234567`, `+972 50-123-4567`, `972501234567`, `00972501234567`,
 * `+972 (0)50…`. Null when it is not an Israeli mobile number.
 */
export function normaliseIsraeliMobile(phone: string): string | null {
  let digits = phone.replace(phoneSeparators, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  else if (digits.startsWith('00')) digits = digits.slice(2);
  if (!/^\d+$/.test(digits)) return null;
  if (digits.startsWith('972')) {
    digits = digits.slice(3);
    if (digits.startsWith('0')) digits = digits.slice(1);
    digits = `0${digits}`;
  }
  return /^05\d{8}$/.test(digits) ? digits : null;
}

export function isValidIsraeliMobile(phone: string): boolean {
  return normaliseIsraeliMobile(phone) !== null;
}

/** E.164 (`+972501234567`) for a number `normaliseIsraeliMobile` accepted. */
export function israeliMobileToE164(normalised: string): string {
  return `+972${normalised.slice(1)}`;
}
