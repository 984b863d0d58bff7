import { messageKindSchema, type MessageKind } from '@marpe/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../platform/config.js';
import { sealingKey } from '../../platform/crypto.js';
import type { DatabaseHandle, Executor } from '../../platform/db/client.js';
import type { MessagingChannel, OutboxLane } from '../../platform/db/schema.js';
import type {
  OutboxHandler,
  OutboxItem,
  OutboxRemains,
} from '../../platform/outbox/outbox-contract.js';
import { createOutbox, type OutboxOptions } from '../../platform/outbox/outbox.js';
import { whatsappTokenKey } from './whatsapp-connections.js';
import { createHttpSmsProvider } from './http-sms-provider.js';
import {
  createDevMessageLog,
  createLogSmsProvider,
  createLogWhatsAppProvider,
  type DevMessageLog,
} from './log-sms-provider.js';
import {
  deliveryReceiptRoutes,
  INFORU_DELIVERY_PATH,
  TWILIO_STATUS_PATH,
} from './delivery-receipts.js';
import { createInforuSmsProvider } from './inforu-sms-provider.js';
import { keepingQuietHours } from './quiet-hours-at-send.js';
import { createSmsSender, smsHandler } from './sms-channel.js';
import type { SmsProvider } from './sms-provider.js';
import { createTwilioSmsProvider } from './twilio-sms-provider.js';
import {
  usesWhatsApp,
  WHATSAPP_TOPIC,
  whatsappHandler,
  type WhatsAppPayload,
} from './whatsapp-channel.js';
import { createGraphWhatsAppProvider } from './whatsapp-provider.js';

export const SMS_TOPIC = 'sms';

export interface QueuedSms {
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: string;
  body: string;
  /** Not sent after this (a one-time code that has expired). */
  expiresAt?: Date;
  /**
   * A login code's challenge (its token hash): the code page asks by it whether the code's SMS
   * arrived (message_deliveries.ref).
   */
  deliveryRef?: string;
  /** What it is for, shown to the clinic's owners if it fails ('other' unless said). */
  kind?: MessageKind;
  /** Not sent before this (the clinic's quiet hours); now unless said. */
  notBefore?: Date;
}

/** A message sent for a clinic: its owners see it if it fails (GET /message-failures). */
export interface ClinicSms extends QueuedSms {
  clinicId?: number;
}

/**
 * What a failed or expired message keeps (the outbox erases the rest): the recipient and the
 * kind, for the clinic's owners; never the text, which may hold a one-time code.
 */
export const messageRemainsSchema = z.object({
  to: z.string(),
  kind: messageKindSchema.optional(),
});
export const messageRemains: OutboxRemains = (payload) => {
  const parsed = messageRemainsSchema.safeParse(payload);
  return parsed.success ? { to: parsed.data.to, kind: parsed.data.kind ?? 'other' } : null;
};

export interface Messaging {
  /**
   * Writes the message to the outbox in the caller's transaction: it leaves only if that commits.
   * Call `kick()` after the commit so it goes at once rather than at the next poll.
   */
  queueSms(executor: Executor, message: ClinicSms): Promise<void>;
  /**
   * A one-time code by SMS, in the outbox's 'codes' lane: its own worker, so a code never waits
   * behind other messages or webhooks (it expires within minutes). Kick after the commit.
   */
  queueCode(executor: Executor, message: ClinicSms): Promise<void>;
  /**
   * A message from a clinic to its patient (appointment details, form and payment links,
   * reminders): by WhatsApp when the clinic chose it (or `channel` asks for it) and is connected,
   * else by SMS; resolves with the channel it was queued for. One-time codes use `queueCode`:
   * the browser reads them from the SMS (WebOTP).
   */
  queueMessage(
    executor: Executor,
    message: QueuedSms & { clinicId: number; channel?: MessagingChannel },
  ): Promise<MessagingChannel>;
  kick(): void;
  /**
   * Works every lane (or the one named) of everything due now, after any run of it under way;
   * resolves with how many rows it took.
   */
  runOutbox(lane?: OutboxLane): Promise<number>;
}

/** The outbox for work other than SMS (webhook deliveries, WhatsApp messages). */
export interface AppOutbox {
  /** Adds a row in the caller's transaction; call `kick()` once that transaction has committed. */
  enqueue(executor: Executor, item: OutboxItem): Promise<void>;
  kick(lane?: OutboxLane): void;
  runOnce(lane?: OutboxLane): Promise<number>;
  /** Names the handler of a topic; only before the app is ready (the worker starts then). */
  handle(topic: string, handler: OutboxHandler): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    messaging: Messaging;
    outbox: AppOutbox;
  }
}

export interface RegisterMessagingOptions {
  config: Pick<Config, 'sms' | 'whatsapp' | 'publicOrigin'>;
  database: Pick<DatabaseHandle, 'db'>;
  clock: () => number;
  pollIntervalMs?: number;
  /** Told how each outbox try ended (metrics). */
  observeOutbox?: OutboxOptions['observe'];
}

export interface RegisteredMessaging {
  messaging: Messaging;
  outbox: AppOutbox;
  /** What the log provider recorded (in demo mode nothing leaves): the demo serves it. */
  devMessages: Pick<DevMessageLog, 'list'>;
}

/**
 * Exposes `app.messaging` and `app.outbox`, and runs the outbox worker from `ready` to `close`:
 * every topic's handler must be named (`outbox.handle`) before then.
 */
export function registerMessaging(
  app: FastifyInstance,
  { config, database, clock, pollIntervalMs, observeOutbox }: RegisterMessagingOptions,
): RegisteredMessaging {
  const devMessages = createDevMessageLog();
  const sms = smsProviderOf(config, devMessages, clock);

  // The demo records WhatsApp messages like SMS: one switch decides whether messages leave.
  const whatsapp =
    config.sms.provider !== 'log'
      ? createGraphWhatsAppProvider(config.whatsapp)
      : createLogWhatsAppProvider({ messages: devMessages, clock });
  const outboxKey = sealingKey(app.dataKeys, 'outbox');
  const enqueueWhatsApp = async (executor: Executor, payload: WhatsAppPayload) =>
    outbox.enqueue(executor, {
      topic: WHATSAPP_TOPIC,
      payload,
      clinicId: payload.clinicId,
    });
  const sendSms = createSmsSender({
    db: database.db,
    key: outboxKey,
    sms,
    clock,
    enqueueWhatsApp,
    kick: () => outbox.kick(),
  });

  // Other modules add their topics through `app.outbox.handle` while the app is being built.
  const handlers: Record<string, OutboxHandler> = {
    [SMS_TOPIC]: smsHandler(sendSms),
    [WHATSAPP_TOPIC]: whatsappHandler({
      db: database.db,
      tokenKey: whatsappTokenKey(app.dataKeys),
      whatsapp,
      sendSms,
      async queueSms(message) {
        await outbox.enqueue(database.db, {
          topic: SMS_TOPIC,
          payload: message,
          clinicId: message.clinicId,
        });
        outbox.kick();
      },
    }),
  };
  // A clinic's automatic messages keep its quiet hours when sent too (a retry may fall at night).
  const quiet = { db: database.db, clock };
  for (const topic of [SMS_TOPIC, WHATSAPP_TOPIC]) {
    const handler = handlers[topic];
    if (handler) handlers[topic] = keepingQuietHours(quiet, handler);
  }
  const outbox = createOutbox({
    db: database.db,
    key: outboxKey,
    clock,
    log: app.log,
    handlers,
    pollIntervalMs,
    observe: observeOutbox,
    remains: { [SMS_TOPIC]: messageRemains, [WHATSAPP_TOPIC]: messageRemains },
  });
  let started = false;

  const messaging: Messaging = {
    async queueSms(executor, { to, body, expiresAt, kind = 'other', clinicId, notBefore }) {
      if (!/^05\d{8}$/.test(to)) throw new Error('queueSms: `to` must be stored as 05XXXXXXXX');
      await outbox.enqueue(executor, {
        topic: SMS_TOPIC,
        payload: { to, body, kind, clinicId },
        expiresAt,
        clinicId,
        notBefore,
      });
    },
    async queueCode(executor, { to, body, expiresAt, kind = 'login_code', clinicId, deliveryRef }) {
      if (!/^05\d{8}$/.test(to)) throw new Error('queueCode: `to` must be stored as 05XXXXXXXX');
      await outbox.enqueue(executor, {
        topic: SMS_TOPIC,
        payload: { to, body, kind, clinicId, ref: deliveryRef },
        expiresAt,
        lane: 'codes',
        clinicId,
      });
    },
    async queueMessage(
      executor,
      { clinicId, to, body, expiresAt, channel, kind = 'other', notBefore },
    ) {
      if (!(await usesWhatsApp(executor, clinicId, channel))) {
        await messaging.queueSms(executor, { to, body, expiresAt, kind, clinicId, notBefore });
        return 'sms';
      }
      if (!/^05\d{8}$/.test(to)) throw new Error('queueMessage: `to` must be stored as 05XXXXXXXX');
      const payload: WhatsAppPayload = { clinicId, to, body, kind };
      await outbox.enqueue(executor, {
        topic: WHATSAPP_TOPIC,
        payload,
        expiresAt,
        clinicId,
        notBefore,
      });
      return 'whatsapp';
    },
    kick: () => outbox.kick(),
    runOutbox: outbox.runOnce,
  };
  const appOutbox: AppOutbox = {
    enqueue: outbox.enqueue,
    kick: outbox.kick,
    runOnce: outbox.runOnce,
    handle(topic: string, handler: OutboxHandler) {
      if (started) throw new Error(`outbox: topic ${topic} registered after start`);
      if (Object.hasOwn(handlers, topic))
        throw new Error(`outbox: topic ${topic} registered twice`);
      handlers[topic] = handler;
    },
  };
  app.decorate('messaging', messaging);
  app.decorate('outbox', appOutbox);
  void app.register(deliveryReceiptRoutes, {
    prefix: '/api',
    db: database.db,
    key: outboxKey,
    sms: config.sms,
    publicOrigin: config.publicOrigin,
    clock,
    async queueFallback(tx, message) {
      await enqueueWhatsApp(tx, {
        clinicId: message.clinicId,
        to: message.to,
        body: message.body,
        kind: messageKindSchema.catch('other').parse(message.kind),
        fallback: true,
      });
    },
    kick: () => outbox.kick(),
    observeReceipt: (receipt) => app.metrics?.observeSmsReceipt(receipt),
  });
  app.addHook('onReady', async () => {
    started = true;
    outbox.start();
  });
  app.addHook('onClose', async () => outbox.stop());

  return { messaging, outbox: appOutbox, devMessages };
}

/** The configured SMS provider; in demo mode the one that prints and records. */
function smsProviderOf(
  config: Pick<Config, 'sms' | 'publicOrigin'>,
  devMessages: DevMessageLog,
  clock: () => number,
): SmsProvider {
  const { sms, publicOrigin } = config;
  switch (sms.provider) {
    case 'http':
      return createHttpSmsProvider(sms);
    case 'twilio':
      return createTwilioSmsProvider({
        ...sms,
        statusCallbackUrl: `${publicOrigin}${TWILIO_STATUS_PATH}`,
      });
    case 'inforu':
      return createInforuSmsProvider({
        ...sms,
        deliveryNotificationUrl: `${publicOrigin}${INFORU_DELIVERY_PATH}`,
      });
    default:
      return createLogSmsProvider({ messages: devMessages, clock });
  }
}
