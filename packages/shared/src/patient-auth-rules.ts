// The patient-verification rules that hold no schema: zod-free, so that the web's login step can
// apply them without bringing zod into the browser. patient-auth.ts builds its schemas on them.

/** docs/product/login.md#limits. */
export const OTP_LENGTH = 6;
/** Seconds before the code can be sent again. */
export const OTP_RESEND_SECONDS = 60;
/** How many of the phone's last digits an invalid_phone answer reveals. */
export const PHONE_HINT_DIGITS = 3;
/**
 * ID numbers one phone may sign in at one clinic: a family sharing a phone fits; one phone holding
 * a crowd of identities (each with its own limits) does not.
 */
export const MAX_IDENTITIES_PER_PHONE = 6;
/** The longest first or last name, counted once cleaned. */
export const NAME_MAX_LENGTH = 50;

/** Control, format and unassigned characters have no place in a name (and could hide text). */
export function cleanName(value: string): string {
  return value.replace(/[\p{Cc}\p{Cf}\p{Cn}]/gu, '').trim();
}

/**
 * What the code page is told of a login code's SMS (`POST /api/patient-auth/code-delivery`):
 * `pending` until a provider that reports delivery has it; `not_delivered` covers undelivered and
 * failed, when the page offers another code or the clinic's phone.
 */
export const CODE_DELIVERY_STATES = ['pending', 'sent', 'delivered', 'not_delivered'] as const;
export type CodeDeliveryState = (typeof CODE_DELIVERY_STATES)[number];
