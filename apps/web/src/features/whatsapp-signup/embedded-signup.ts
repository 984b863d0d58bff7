import { META_MESSAGE_ORIGINS } from '@marpe/shared/rules';

/** What Meta's embedded sign-up window tells the page through `postMessage`. */
export type SignupEvent =
  | { event: 'finish'; phoneNumberId: string; wabaId: string; businessId: string }
  | { event: 'cancel' }
  | { event: 'error' };

/** Only Meta's own windows may report a finished sign-up: any other page could post one. */
export function isMetaOrigin(origin: string): boolean {
  return (META_MESSAGE_ORIGINS as readonly string[]).includes(origin);
}

const isId = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{1,30}$/.test(value);

/**
 * Reads a `message` event: a `WA_EMBEDDED_SIGNUP` message (JSON text) from Meta's origins, or
 * null for anything else (other origins, other messages Meta's SDK exchanges, malformed data).
 * FINISH must carry the three ids; CANCEL means the window was closed before the end.
 */
export function parseSignupMessage(message: { origin: string; data: unknown }): SignupEvent | null {
  if (!isMetaOrigin(message.origin) || typeof message.data !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { type, event, data } = parsed as { type?: unknown; event?: unknown; data?: unknown };
  if (type !== 'WA_EMBEDDED_SIGNUP') return null;
  if (event === 'CANCEL') return { event: 'cancel' };
  if (event === 'ERROR') return { event: 'error' };
  if (event !== 'FINISH' || typeof data !== 'object' || data === null) return null;
  const ids = data as { phone_number_id?: unknown; waba_id?: unknown; business_id?: unknown };
  if (!isId(ids.phone_number_id) || !isId(ids.waba_id) || !isId(ids.business_id)) return null;
  return {
    event: 'finish',
    phoneNumberId: ids.phone_number_id,
    wabaId: ids.waba_id,
    businessId: ids.business_id,
  };
}
