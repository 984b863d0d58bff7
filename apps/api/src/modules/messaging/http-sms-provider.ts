import { israeliMobileToE164, normaliseIsraeliMobile } from '@marpe/shared';
import type { SmsProvider } from './sms-provider.js';

export const SMS_HTTP_TIMEOUT_MS = 10_000;

export interface HttpSmsProviderOptions {
  /** The gateway endpoint; the message is POSTed to it as is. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** The sender name or number the gateway shows. */
  sender: string;
  timeoutMs?: number;
}

/**
 * The production provider: `POST url` with a JSON body `{ from, to (E.164), text }` (the request
 * is documented in docs/operations.md, "Messaging (SMS)"). Anything but a 2xx answer, a network
 * error or no answer within the timeout throws; the errors name no recipient and no text.
 */
export function createHttpSmsProvider(options: HttpSmsProviderOptions): SmsProvider {
  const timeoutMs = options.timeoutMs ?? SMS_HTTP_TIMEOUT_MS;
  return {
    async send({ to, body }) {
      const national = normaliseIsraeliMobile(to);
      if (national === null || national !== to) {
        throw new Error('The recipient is not a national Israeli mobile number (05XXXXXXXX)');
      }
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ from: options.sender, to: israeliMobileToE164(to), text: body }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`SMS gateway unreachable: ${networkReason(error)}`, { cause: error });
      }
      // The answer's body is not needed (and may echo the message): discard it.
      await response.body?.cancel().catch(() => {});
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  if (error.name === 'TimeoutError') return 'no answer in time';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : error.name;
}
