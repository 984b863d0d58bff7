import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The `Marpe-Signature` header of a webhook request, Stripe-style: `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret as UTF-8>`, one `v1=` per secret
 * in force (two for a day after a rotation). Signing the timestamp with the body lets a receiver
 * refuse a replayed request (docs/integration.md, "Webhooks"). Kept beside the Standard Webhooks
 * headers for one deprecation period (ADR 030).
 */
export function webhookSignatureHeader(
  secrets: string | readonly string[],
  timestamp: number,
  body: string,
): string {
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}

const WHSEC = 'whsec_';
/** Standard base64 (what Standard Webhooks libraries decode), padding optional. */
const BASE64_KEY = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of the Standard Webhooks signature: the bytes that the part after `whsec_`
 * encodes in base64, as `new Webhook(secret)` of a Standard Webhooks library reads it. Any other
 * secret (a clinic's own, or one generated in base64url before ADR 030 that holds `-` or `_`) is
 * keyed with its UTF-8 bytes, as such a library does with `{ format: 'raw' }`.
 */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : null;
  // A length of 1 mod 4 (padding aside) encodes no whole byte: not base64.
  if (encoded && BASE64_KEY.test(encoded) && encoded.replace(/=+$/, '').length % 4 !== 1) {
    return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification
 * (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * one per secret in force, separated by spaces, signed by the specification's own library. It is
 * given the key's bytes (`format: 'raw'`) so the key is read as standardWebhookKey says: the
 * library's raw mode takes a string's UTF-16 code units as bytes, not its UTF-8.
 */
export function standardWebhookSignature(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  const at = new Date(timestamp * 1000);
  return secrets
    .map((secret) => new Webhook(standardWebhookKey(secret), { format: 'raw' }).sign(id, at, body))
    .join(' ');
}
