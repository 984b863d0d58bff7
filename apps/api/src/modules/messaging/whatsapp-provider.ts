import { israeliMobileToE164, META_GRAPH_VERSION, normaliseIsraeliMobile } from '@marpe/shared';
import { graphErrorCode, networkReason } from '../../platform/http/outbound-errors.js';

export const WHATSAPP_HTTP_TIMEOUT_MS = 10_000;

export interface WhatsAppMessage {
  /** The clinic's connected number (Meta's phone number id) and its business token. */
  phoneNumberId: string;
  accessToken: string;
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: string;
  /** May hold a link with a token: never log it. */
  body: string;
}

/** Sends one WhatsApp text; throws when it was not accepted, so the outbox tries again later. */
export interface WhatsAppProvider {
  send(message: WhatsAppMessage): Promise<void>;
}

/** Meta answered with an error status (the message names Meta's error code at most). */
export class WhatsAppRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'WhatsAppRefused';
  }
}

/**
 * The WhatsApp Cloud API: `POST <graph>/v23.0/<phone_number_id>/messages` with the clinic's
 * business token. Anything but a 2xx, a network error or no answer in time throws; the errors
 * name Meta's error code at most, never the recipient, the text or the token.
 */
export function createGraphWhatsAppProvider(options: {
  graphApiBaseUrl: string;
  timeoutMs?: number;
}): WhatsAppProvider {
  const timeoutMs = options.timeoutMs ?? WHATSAPP_HTTP_TIMEOUT_MS;
  return {
    async send({ phoneNumberId, accessToken, to, body }) {
      if (normaliseIsraeliMobile(to) !== to) {
        throw new Error('The recipient is not a national Israeli mobile number (05XXXXXXXX)');
      }
      const url = `${options.graphApiBaseUrl}/${META_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}/messages`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
          },
          // preview_url stays off (the default): Meta would fetch form and payment links, tokens included.
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to: israeliMobileToE164(to),
            type: 'text',
            text: { body },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`WhatsApp Cloud API unreachable: ${networkReason(error)}`, {
          cause: error,
        });
      }
      if (response.ok) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      throw new WhatsAppRefused(
        `WhatsApp Cloud API answered ${response.status}${await graphErrorCode(response)}`,
        response.status,
      );
    },
  };
}
