import { createHmac } from 'node:crypto';
import { israeliMobileToE164, normaliseIsraeliMobile } from '@marpe/shared';
import { safeEqual } from '../../platform/crypto.js';
import { networkReason } from '../../platform/http/outbound-errors.js';
import { SmsRefused, type SmsProvider } from './sms-provider.js';

// Twilio's REST API rather than the `twilio` package: one form-encoded POST and one signature
// check are all Marpe needs, and the package brings some forty dependencies (axios among them)
// to a server whose every dependency is reviewed. The request and the answers follow Twilio's
// Message resource documentation; the signature its "Webhooks security" page.

export const TWILIO_HTTP_TIMEOUT_MS = 10_000;

export interface TwilioSmsOptions {
  /** https://api.twilio.com, or a fake's origin in tests; no trailing slash. */
  apiBaseUrl: string;
  accountSid: string;
  authToken: string;
  apiKey: { sid: string; secret: string } | null;
  messagingServiceSid: string | null;
  sender: string | null;
  /** Where Twilio posts the message's status changes: `${PUBLIC_ORIGIN}/api/sms/twilio/status`. */
  statusCallbackUrl: string;
  timeoutMs?: number;
}

/**
 * Twilio errors about this recipient or this message, not the account or the moment: trying
 * again for 48 hours cannot help. 21211/21217/21401/21421: not a valid number; 21407/21612/21614:
 * a number Twilio cannot text (landline, unreachable carrier); 21610: the recipient replied STOP;
 * 21602/21617: the body is empty or too long. Everything else (credentials, sender settings, rate
 * limits, Twilio's own errors) may pass, and is retried.
 */
export const TWILIO_PERMANENT_ERRORS: ReadonlySet<number> = new Set([
  21211, 21217, 21401, 21407, 21421, 21602, 21610, 21612, 21614, 21617,
]);

/**
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To` (E.164), `Body`,
 * `MessagingServiceSid` or `From`, and `StatusCallback`, with HTTP Basic authentication (the
 * account SID and auth token, or an API key's SID and secret). 201 with the message's `sid` is
 * accepted; errors carry Twilio's JSON `{ code, message, status }`.
 */
export function createTwilioSmsProvider(options: TwilioSmsOptions): SmsProvider {
  const timeoutMs = options.timeoutMs ?? TWILIO_HTTP_TIMEOUT_MS;
  const url = `${options.apiBaseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const [user, password] = options.apiKey
    ? [options.apiKey.sid, options.apiKey.secret]
    : [options.accountSid, options.authToken];
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  return {
    async send({ to, body }) {
      if (normaliseIsraeliMobile(to) !== to) {
        throw new Error('The recipient is not a national Israeli mobile number (05XXXXXXXX)');
      }
      const form = new URLSearchParams({ To: israeliMobileToE164(to), Body: body });
      if (options.messagingServiceSid) form.set('MessagingServiceSid', options.messagingServiceSid);
      else form.set('From', options.sender ?? '');
      form.set('StatusCallback', options.statusCallbackUrl);

      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`Twilio unreachable: ${networkReason(error)}`, { cause: error });
      }
      // The answer echoes the recipient and the body: only the fields below are read from it.
      const answer = (await response.json().catch(() => null)) as {
        sid?: unknown;
        code?: unknown;
      } | null;
      if (response.ok) {
        if (typeof answer?.sid !== 'string' || !/^[SM]M[0-9a-f]{32}$/.test(answer.sid)) {
          throw new Error(`Twilio answered ${response.status} without a message SID`);
        }
        return { provider: 'twilio', providerMessageId: answer.sid };
      }
      const code = typeof answer?.code === 'number' ? answer.code : null;
      const permanent =
        response.status === 400 && code !== null && TWILIO_PERMANENT_ERRORS.has(code);
      throw new SmsRefused(
        `Twilio answered ${response.status}${code === null ? '' : ` (error ${code})`}`,
        'twilio',
        code === null ? null : String(code),
        { permanent },
      );
    },
  };
}

/**
 * Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed with the auth token, of the URL Twilio
 * requested followed by each POST parameter's name and value, sorted by name (a repeated name
 * once per value, in the order given).
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: readonly (readonly [string, string])[],
): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + sorted.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether a status callback was signed with the account's auth token (constant time). */
export function isTwilioSignatureValid(
  authToken: string,
  url: string,
  params: readonly (readonly [string, string])[],
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  return safeEqual(twilioSignature(authToken, url, params), signature);
}
