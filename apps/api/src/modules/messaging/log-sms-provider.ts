import type { DevMessage } from '@marpe/shared';
import type { SmsProvider } from './sms-provider.js';
import type { WhatsAppProvider } from './whatsapp-provider.js';

/** The messages the demo provider "sent", newest first, for `GET /api/dev/messages`. */
export interface DevMessageLog {
  record(message: DevMessage): void;
  /** Newest first. */
  list(): DevMessage[];
}

export const DEV_MESSAGE_LOG_CAPACITY = 500;

export function createDevMessageLog(capacity = DEV_MESSAGE_LOG_CAPACITY): DevMessageLog {
  const messages: DevMessage[] = [];
  return {
    record(message) {
      messages.unshift(message);
      if (messages.length > capacity) messages.length = capacity;
    },
    list: () => [...messages],
  };
}

/**
 * The demo provider: sends nothing, records the message and prints it on stdout, which is how
 * someone trying the demo reads a code. Config refuses it outside demo mode. It prints with
 * console.log on purpose: the pino logger must never carry message bodies.
 */
export function createLogSmsProvider({
  messages,
  clock,
  print = (text) => console.log(text),
}: {
  messages: Pick<DevMessageLog, 'record'>;
  clock: () => number;
  print?: (text: string) => void;
}): SmsProvider {
  return {
    async send({ to, body }) {
      messages.record({ to, body, channel: 'sms', created_at: new Date(clock()).toISOString() });
      print(
        [
          `----- SMS to ${to} (demo: not sent; also at GET /api/dev/messages) -----`,
          body,
          '-----',
        ].join('\n'),
      );
    },
  };
}

/** The demo stand-in for the WhatsApp Cloud API: like the SMS one, records and prints. */
export function createLogWhatsAppProvider({
  messages,
  clock,
  print = (text) => console.log(text),
}: {
  messages: Pick<DevMessageLog, 'record'>;
  clock: () => number;
  print?: (text: string) => void;
}): WhatsAppProvider {
  return {
    async send({ to, body }) {
      messages.record({
        to,
        body,
        channel: 'whatsapp',
        created_at: new Date(clock()).toISOString(),
      });
      print(
        [
          `----- WhatsApp to ${to} (demo: not sent; also at GET /api/dev/messages) -----`,
          body,
          '-----',
        ].join('\n'),
      );
    },
  };
}
