import { describeResponseCode } from '@marpe/shared/rules';
import type { CustomTypeOptions, TFunction } from 'i18next';

/** A provider response code's text in the locale files: the code, or a group of codes. */
export type ResponseCodeKey =
  keyof CustomTypeOptions['resources']['translation']['payment']['responseCode'];

/**
 * The 100–180 group of docs/product/payments.md#response-codes: terminal permissions and card
 * restrictions.
 */
const isRestrictionCode = (code: string) =>
  /^\d{3}$/.test(code) && Number(code) >= 100 && Number(code) <= 180;

/**
 * Which text describes a provider response code, or null for a code
 * docs/product/payments.md#response-codes does not know (its description is then empty). The Hebrew
 * texts are the product's (the shared describeResponseCode, which response-description.test.ts
 * holds them to); the English ones translate them, so the English page no longer shows "Payment
 * error: פג תוקף הכרטיס".
 */
export function responseCodeKey(
  code: string,
  has: (key: string) => boolean,
): ResponseCodeKey | null {
  const text = code.trim();
  if (describeResponseCode(text) === '') return null;
  if (has(`payment.responseCode.${text}`)) return text as ResponseCodeKey;
  return isRestrictionCode(text) ? 'restricted' : 'other';
}

/** The response code's description in the page's language ('' for an unknown code). */
export function describeResponse(
  code: string,
  t: TFunction,
  has: (key: string) => boolean,
): string {
  const key = responseCodeKey(code, has);
  return key === null ? '' : t(`payment.responseCode.${key}`);
}
