import { errorBodySchema } from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SmsConfig } from '../../platform/config.js';
import type { SealingKey } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import type { Database, Executor } from '../../platform/db/client.js';
import type { DeliveryState } from '../../platform/db/schema.js';
import { applyReceipt, type FallbackMessage, type Receipt } from './deliveries.js';
import { isInforuSignatureValid } from './inforu-sms-provider.js';
import type { ReceiptProvider } from './sms-provider.js';
import { isTwilioSignatureValid } from './twilio-sms-provider.js';

export const TWILIO_STATUS_PATH = '/api/sms/twilio/status';
export const INFORU_DELIVERY_PATH = '/api/sms/inforu/delivery';

/**
 * Twilio's MessageStatus values (Message resource, "Message status values") as Marpe's states;
 * anything else (receiving, received: inbound) is not a delivery and is ignored.
 */
const twilioStates: Readonly<Record<string, DeliveryState>> = {
  accepted: 'sent',
  scheduled: 'sent',
  queued: 'sent',
  sending: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};

/**
 * InforU's delivery notification `Status` (UAPI, "Delivery Notification"): 2 Delivered,
 * -2 Not delivered, -4 Blocked (the recipient blocked the sender, or the number is blocked).
 */
const inforuStates: Readonly<Record<string, DeliveryState>> = {
  '2': 'delivered',
  '-2': 'undelivered',
  '-4': 'failed',
};

export interface DeliveryReceiptRoutesOptions {
  db: Database;
  /** Seals the fallback copy: the outbox's key. */
  key: SealingKey;
  sms: SmsConfig;
  /** The origin the provider was given for its callbacks (PUBLIC_ORIGIN). */
  publicOrigin: string;
  clock: () => number;
  /** Queues a message again by WhatsApp in the receipt's transaction. */
  queueFallback(tx: Executor, message: FallbackMessage): Promise<void>;
  /** After the commit: sends what queueFallback queued. */
  kick(): void;
  observeReceipt?: (receipt: { provider: ReceiptProvider; state: DeliveryState }) => void;
}

// A receipt's body is a handful of short fields.
const RECEIPT_BODY_LIMIT = 16 * 1024;
const okSchema = z.object({ status: z.literal('ok') });
/** A provider posts a receipt per message (and per state): far more than a person's routes allow. */
const receiptLimit = { max: 1200, timeWindow: '1 minute' } as const;
const unsigned = () => new AppError('forbidden', 403, 'The receipt is not signed');

/**
 * The providers' delivery receipts. Each answers 200 once it is verified, also for a message it
 * does not know (another installation's, or older than retention) and for a state that would
 * move the message backwards: the providers retry anything else for hours.
 */
export const deliveryReceiptRoutes: FastifyPluginAsyncZod<DeliveryReceiptRoutesOptions> = async (
  app,
  options,
) => {
  const { db, key, sms, publicOrigin, clock } = options;
  // The raw text: Twilio's signature covers every parameter as posted, repeats included.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: RECEIPT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  async function record(receipt: Receipt): Promise<void> {
    options.observeReceipt?.({ provider: receipt.provider, state: receipt.state });
    let fellBack = false;
    await db.transaction(async (tx) => {
      const outcome = await applyReceipt(tx, key, receipt, new Date(clock()));
      if (outcome.kind === 'moved' && outcome.fallback) {
        await options.queueFallback(tx, outcome.fallback);
        fellBack = true;
      }
    });
    if (fellBack) options.kick();
  }

  if (sms.provider === 'twilio') {
    app.post(
      '/sms/twilio/status',
      {
        // Twilio's servers post it: no browser, no anti-forgery cookie.
        config: { xsrf: false, rateLimit: receiptLimit },
        schema: {
          tags: ['messaging'],
          summary:
            "Twilio's status callback of an SMS (form-encoded MessageSid, MessageStatus, ErrorCode), signed with X-Twilio-Signature; 403 when the signature is missing or wrong",
          body: z.string().max(RECEIPT_BODY_LIMIT).optional(),
          response: { 200: okSchema, 403: errorBodySchema },
        },
      },
      async (request) => {
        const params = [...new URLSearchParams(request.body ?? '')];
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const signature = request.headers['x-twilio-signature'];
        // The URL as Twilio requested it: the origin it was given, not the one behind the proxy.
        const url = `${publicOrigin}${TWILIO_STATUS_PATH}${query}`;
        if (
          !isTwilioSignatureValid(
            sms.authToken,
            url,
            params,
            typeof signature === 'string' ? signature : undefined,
          )
        ) {
          throw unsigned();
        }
        const fields = new Map(params);
        const sid = fields.get('MessageSid') ?? fields.get('SmsSid');
        const state = twilioStates[fields.get('MessageStatus') ?? fields.get('SmsStatus') ?? ''];
        if (sid && state) {
          const errorCode = fields.get('ErrorCode');
          await record({
            provider: 'twilio',
            providerMessageId: sid,
            state,
            errorCode: errorCode && /^\d{1,10}$/.test(errorCode) ? errorCode : null,
          });
        }
        return { status: 'ok' as const };
      },
    );
  }

  if (sms.provider === 'inforu') {
    // InforU's notification may come as a POST form or as GET parameters: both are read.
    /** Records the notification; false when it does not carry our signature. */
    const accept = async (query: Record<string, string>, body: string | undefined) => {
      const fields = new Map<string, string>(Object.entries(query));
      for (const [name, value] of new URLSearchParams(body ?? '')) fields.set(name, value);
      const id = fields.get('CustomerMessageId') ?? fields.get('CustomerMessageID') ?? '';
      if (!/^[0-9a-f]{32}$/.test(id) || !isInforuSignatureValid(sms.apiToken, id, query.sig)) {
        return false;
      }
      const status = (fields.get('Status') ?? '').trim();
      const state = inforuStates[status];
      if (state) {
        await record({
          provider: 'inforu',
          providerMessageId: id,
          state,
          errorCode: state === 'delivered' ? null : status,
        });
      }
      return true;
    };
    const schema = {
      tags: ['messaging'],
      summary:
        "InforU's delivery notification of an SMS (CustomerMessageId, Status: 2 delivered, -2 not delivered, -4 blocked), with the signature Marpe put in its URL; 403 without it",
      querystring: z.record(z.string(), z.string().max(2000)),
      response: { 200: okSchema, 403: errorBodySchema },
    };
    app.post(
      '/sms/inforu/delivery',
      {
        config: { xsrf: false, rateLimit: receiptLimit },
        schema: { ...schema, body: z.string().max(RECEIPT_BODY_LIMIT).optional() },
      },
      async (request) => {
        if (!(await accept(request.query, request.body))) throw unsigned();
        return { status: 'ok' as const };
      },
    );
    app.get(
      '/sms/inforu/delivery',
      { config: { rateLimit: receiptLimit }, schema },
      async (request) => {
        if (!(await accept(request.query, undefined))) throw unsigned();
        return { status: 'ok' as const };
      },
    );
  }
};
