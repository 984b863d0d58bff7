import {
  cleanName,
  isValidIsraeliId,
  NAME_MAX_LENGTH,
  normaliseIsraeliMobile,
  PHONE_HINT_DIGITS,
} from '@marpe/shared/rules';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../lib/api-client';

/** A field's problem, as the key of its translated text. */
export type FieldError = Extract<
  ParseKeys,
  | 'patientAuth.validation.required'
  | 'patientAuth.validation.invalidIdNumber'
  | 'patientAuth.validation.invalidPhone'
  | 'patientAuth.validation.nameTooLong'
  | 'errors.invalid_phone'
>;

/** A message about the whole step, shown above its buttons. */
export type StepError = Extract<
  ParseKeys,
  | 'errors.too_many_requests'
  | 'errors.too_many_identities'
  | 'errors.invalid_two_factor_token'
  | 'errors.wrong_code'
  | 'patientAuth.sendFailed'
  | 'common.error'
>;

export function idNumberError(value: string): FieldError | null {
  if (value.trim() === '') return 'patientAuth.validation.required';
  return isValidIsraeliId(value) ? null : 'patientAuth.validation.invalidIdNumber';
}

/** With a hint (docs/product/login.md#rules), the phone must also end with the hinted digits. */
export function phoneError(value: string, hint: string | null): FieldError | null {
  if (value.trim() === '') return 'patientAuth.validation.required';
  const phone = normaliseIsraeliMobile(value);
  if (phone === null) return 'patientAuth.validation.invalidPhone';
  if (hint !== null && phone.slice(-PHONE_HINT_DIGITS) !== hint) return 'errors.invalid_phone';
  return null;
}

/** The last digits of a valid phone, to name it without repeating it whole. */
export function phoneEnding(value: string): string {
  return (normaliseIsraeliMobile(value) ?? '').slice(-PHONE_HINT_DIGITS);
}

/** The sign-up rules of the shared contract: required, and not too long once cleaned. */
export function nameError(value: string): FieldError | null {
  const name = cleanName(value);
  if (name === '') return 'patientAuth.validation.required';
  return name.length > NAME_MAX_LENGTH ? 'patientAuth.validation.nameTooLong' : null;
}

/** A wait the server asked for (429): `seconds` as it said them, ending at `until` (epoch ms). */
export interface Wait {
  until: number;
  seconds: number;
}

/** The wait a 429 says (its `details.retryAfterSeconds`), or null when it does not say. */
export function waitOf(error: unknown, now: number): Wait | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0
    ? { until: now + seconds * 1000, seconds }
    : null;
}

/**
 * What a failed login means (docs/product/login.md#errors, ADR 006): a hint to fix the phone; the
 * patient is new and signs up; a wait before another code (a 429 with its time); or a failure to
 * report on the first step (too many requests, the server unreachable or failing, a request it
 * refused as malformed).
 */
export type LoginFailure =
  | { kind: 'hint'; hint: string }
  | { kind: 'signUp' }
  | { kind: 'wait'; wait: Wait }
  | { kind: 'error'; message: StepError };

export function loginFailure(error: unknown, now = Date.now()): LoginFailure {
  if (!(error instanceof ApiError)) return { kind: 'error', message: 'patientAuth.sendFailed' };
  if (error.code === 'invalid_phone' && error.hint) return { kind: 'hint', hint: error.hint };
  const wait = waitOf(error, now);
  if (wait !== null) return { kind: 'wait', wait };
  if (error.status === 429) return { kind: 'error', message: 'errors.too_many_requests' };
  if (
    error.isNetworkError ||
    error.status >= 500 ||
    error.status < 400 ||
    error.code === 'validation_failed' ||
    error.code === 'xsrf'
  ) {
    return { kind: 'error', message: 'patientAuth.sendFailed' };
  }
  return { kind: 'signUp' };
}

/** What a failed sign-up (or a failed resend) means. */
export type SendFailure =
  | { kind: 'hint'; hint: string }
  | { kind: 'notAcceptingNewPatients' }
  | { kind: 'wait'; wait: Wait }
  | { kind: 'error'; message: StepError };

export function sendFailure(error: unknown, now = Date.now()): SendFailure {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_phone' && error.hint) return { kind: 'hint', hint: error.hint };
    if (error.code === 'not_accepting_new_patients') return { kind: 'notAcceptingNewPatients' };
    if (error.code === 'too_many_identities') {
      return { kind: 'error', message: 'errors.too_many_identities' };
    }
    const wait = waitOf(error, now);
    if (wait !== null) return { kind: 'wait', wait };
    if (error.status === 429) return { kind: 'error', message: 'errors.too_many_requests' };
  }
  return { kind: 'error', message: 'patientAuth.sendFailed' };
}

/** The two-factor errors (docs/product/login.md#errors); `lock` disables the code input (429). */
export function codeFailure(error: unknown): { message: StepError; lock: boolean } {
  if (error instanceof ApiError) {
    if (error.status === 400) return { message: 'errors.invalid_two_factor_token', lock: false };
    if (error.status === 404) return { message: 'errors.wrong_code', lock: false };
    if (error.status === 429) return { message: 'errors.too_many_requests', lock: true };
  }
  return { message: 'common.error', lock: false };
}
