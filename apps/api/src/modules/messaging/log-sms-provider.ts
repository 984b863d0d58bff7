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

// The one-time code's WebOTP line (platform/one-time-code.ts): `@host #code`, last.
const webOtpLine = /^@\S+ #(\w+)\s*$/m;

/** Colours only for a terminal that takes them (Node's check honours NO_COLOR and FORCE_COLOR). */
function useColour(): boolean {
  return process.stdout.isTTY && process.stdout.hasColors();
}

/**
 * A message as the demo prints it: in a box that stands out of the server's other output, with a
 * one-time code on a line of its own at the top (bold yellow on a terminal) so whoever tries the
 * demo finds it at a glance.
 */
export function demoMessageBox(
  { channel, to, body }: { channel: string; to: string; body: string },
  colour = useColour(),
): string {
  const code = webOtpLine.exec(body)?.[1];
  const highlight = (text: string) => (colour ? `\x1b[1;33m${text}\x1b[0m` : text);
  const lines = [
    `${channel} to ${to} (demo: not sent; also at GET /api/dev/messages)`,
    ...(code ? [highlight(`LOGIN CODE: ${code}`)] : []),
    '',
    ...body.split('\n'),
  ];
  const rule = '═'.repeat(72);
  return [`╔${rule}`, ...lines.map((line) => `║ ${line}`), `╚${rule}`].join('\n');
}

interface LogProviderDeps {
  messages: Pick<DevMessageLog, 'record'>;
  clock: () => number;
  print?: (text: string) => void;
}

/** Records what the demo "sent" on `channel` and prints it: the same for SMS and WhatsApp. */
function logSend(
  channel: 'sms' | 'whatsapp',
  { messages, clock, print = (text) => console.log(text) }: LogProviderDeps,
) {
  const label = channel === 'sms' ? 'SMS' : 'WhatsApp';
  return async ({ to, body }: { to: string; body: string }): Promise<undefined> => {
    messages.record({ to, body, channel, created_at: new Date(clock()).toISOString() });
    print(demoMessageBox({ channel: label, to, body }));
  };
}

/**
 * The demo provider: sends nothing, records the message and prints it on stdout, which is how
 * someone trying the demo reads a code. Config refuses it outside demo mode. It prints with
 * console.log on purpose: the pino logger must never carry message bodies.
 */
export function createLogSmsProvider(deps: LogProviderDeps): SmsProvider {
  return { send: logSend('sms', deps) };
}

/** The demo stand-in for the WhatsApp Cloud API: like the SMS one, records and prints. */
export function createLogWhatsAppProvider(deps: LogProviderDeps): WhatsAppProvider {
  return { send: logSend('whatsapp', deps) };
}
