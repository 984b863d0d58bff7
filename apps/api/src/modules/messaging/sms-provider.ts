export interface SmsMessage {
  /** The national Israeli mobile number as stored: `05XXXXXXXX`. */
  to: string;
  /** May hold a one-time code: never log it. */
  body: string;
}

/** Sends one text message; throws when it was not accepted, so the outbox tries again later. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}
