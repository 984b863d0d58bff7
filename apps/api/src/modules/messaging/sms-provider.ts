export interface SmsMessage {
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: string;
  /** May hold a one-time code: never log it. */
  body: string;
}

/** Providers whose delivery receipts Marpe records (message_deliveries.provider). */
export type ReceiptProvider = 'twilio' | 'inforu';

/** What a provider that reports delivery answers for a message it accepted. */
export interface SmsAccepted {
  provider: ReceiptProvider;
  /** The id its receipts name the message by (Twilio's MessageSid, our InforU CustomerMessageId). */
  providerMessageId: string;
}

/**
 * Sends one text message; throws when it was not accepted, so the outbox tries again later, or
 * an SmsRefused with `permanent` when trying again cannot help (an invalid or unsubscribed number).
 * Resolves with the message's id at a provider that reports delivery, else with nothing.
 */
export interface SmsProvider {
  send(message: SmsMessage): Promise<SmsAccepted | undefined>;
}

/**
 * The provider refused the message. `permanent` ones (the number, not the moment, is wrong) are
 * given up at once instead of retried for 48 hours (the outbox reads `permanent`). The message
 * names the provider's error code, never the recipient or the text.
 */
export class SmsRefused extends Error {
  readonly permanent: boolean;
  constructor(
    message: string,
    readonly provider: ReceiptProvider,
    /** The provider's error code, as text ('21211', '-18'). */
    readonly code: string | null,
    options: { permanent: boolean },
  ) {
    super(message);
    this.name = 'SmsRefused';
    this.permanent = options.permanent;
  }
}
