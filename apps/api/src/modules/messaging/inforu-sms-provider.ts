import { createHmac, randomBytes } from 'node:crypto';
import { normaliseIsraeliMobile } from '@marpe/shared';
import { safeEqual } from '../../platform/crypto.js';
import { networkReason } from '../../platform/http/outbound-errors.js';
import { SmsRefused, type SmsProvider } from './sms-provider.js';

// InforU Mobile's XML gateway ("SMS Gateway Interface", InforU's UAPI documentation v4.6-5.0:
// "Send SMS using http post Interface", "Response XML", "Delivery Notification"). Chosen over its
// newer JSON API (capi.inforu.co.il) because the XML one's documentation, which we could read,
// gives every answer's status code and the delivery notification's fields; the JSON one's we
// could not find. Authentication is the user name with an API token (`<ApiToken>`, InforU's
// replacement for the account password in `<User>`).

export const INFORU_HTTP_TIMEOUT_MS = 10_000;

export interface InforuSmsOptions {
  /** https://uapi.inforu.co.il, or a fake's origin in tests; no trailing slash. */
  apiBaseUrl: string;
  username: string;
  apiToken: string;
  /** The sender name (up to 11 letters/digits) or number the recipient sees. */
  sender: string;
  /** `${PUBLIC_ORIGIN}/api/sms/inforu/delivery`: each message's gets its own signature. */
  deliveryNotificationUrl: string;
  timeoutMs?: number;
}

/**
 * The answer's `<Status>` codes (UAPI, "Response XML") that concern this message or its recipient:
 * -6 RecipientsDataNotExists, -9 MessageTextNotExists, -11 IllegalXML, -18 WrongRecipients (no
 * valid recipient), -28 NetworkTypeNotSupported, -29 NotAllNetworkTypesSupported. Trying again
 * cannot help. The others (-1 Failed, -2/-3/-4 bad user name or token, -13/-14/-15 a quota
 * exceeded, -16 WrongDateTime, -20/-21 invalid sender number or name, -22 UserBlocked,
 * -26 UserAuthenticationError) are the account's or the moment's, and are retried.
 */
export const INFORU_PERMANENT_STATUSES: ReadonlySet<number> = new Set([-6, -9, -11, -18, -28, -29]);

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/**
 * The signature a delivery notification carries in its URL's `sig`: HMAC-SHA256 of our
 * CustomerMessageId keyed with the API token. InforU signs nothing itself; a notification that
 * knows the signature comes from whoever was given the URL, InforU.
 */
export function inforuNotificationSignature(apiToken: string, customerMessageId: string): string {
  return createHmac('sha256', apiToken)
    .update(`inforu-dlr:${customerMessageId}`)
    .digest('base64url');
}

export function isInforuSignatureValid(
  apiToken: string,
  customerMessageId: string,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  return safeEqual(inforuNotificationSignature(apiToken, customerMessageId), signature);
}

/**
 * `POST /SendMessageXml.ashx`, form-encoded `InforuXML=<Inforu>…</Inforu>`: the user, the text,
 * the recipient (national format), and in `<Settings>` the sender, our CustomerMessageId (the
 * delivery notification names the message by it) and the DeliveryNotificationUrl. The answer is
 * `<Result><Status>1</Status><Description>…</Description><NumberOfRecipients>1</…></Result>`;
 * any other status is an error.
 */
export function createInforuSmsProvider(options: InforuSmsOptions): SmsProvider {
  const timeoutMs = options.timeoutMs ?? INFORU_HTTP_TIMEOUT_MS;
  const url = `${options.apiBaseUrl}/SendMessageXml.ashx`;
  return {
    async send({ to, body }) {
      if (normaliseIsraeliMobile(to) !== to) {
        throw new Error('The recipient is not a national Israeli mobile number (05XXXXXXXX)');
      }
      const customerMessageId = randomBytes(16).toString('hex');
      const notificationUrl = new URL(options.deliveryNotificationUrl);
      notificationUrl.searchParams.set(
        'sig',
        inforuNotificationSignature(options.apiToken, customerMessageId),
      );
      const xml =
        '<Inforu>' +
        `<User><Username>${escapeXml(options.username)}</Username><ApiToken>${escapeXml(options.apiToken)}</ApiToken></User>` +
        `<Content Type="sms"><Message>${escapeXml(body)}</Message></Content>` +
        `<Recipients><PhoneNumber>${to}</PhoneNumber></Recipients>` +
        '<Settings>' +
        `<Sender>${escapeXml(options.sender)}</Sender>` +
        `<CustomerMessageId>${customerMessageId}</CustomerMessageId>` +
        `<DeliveryNotificationUrl>${escapeXml(notificationUrl.toString())}</DeliveryNotificationUrl>` +
        '</Settings>' +
        '</Inforu>';

      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: new URLSearchParams({ InforuXML: xml }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`InforU unreachable: ${networkReason(error)}`, { cause: error });
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) throw new Error(`InforU answered ${response.status}`);
      const status = /<Status>\s*(-?\d+)\s*<\/Status>/.exec(text)?.[1];
      if (status === undefined) throw new Error('InforU answered without a status');
      if (status === '1') return { provider: 'inforu', providerMessageId: customerMessageId };
      throw new SmsRefused(`InforU refused the message (status ${status})`, 'inforu', status, {
        permanent: INFORU_PERMANENT_STATUSES.has(Number(status)),
      });
    },
  };
}
