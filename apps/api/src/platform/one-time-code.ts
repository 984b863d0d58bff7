import { randomInt } from 'node:crypto';
import { OTP_RESEND_SECONDS } from '@marpe/shared';
import type { Executor } from './db/client.js';

// One-time codes by SMS, as patients and staff sign in with them alike (ADR 007; OWASP ASVS 5.0
// V6.5 and V7, NIST SP 800-63B): here, below patient-auth and staff, which each keep their own
// challenges, sessions and lockouts.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The limits of a code, the same for every sign-in that sends one. */
export const oneTimeCodeRules = {
  /** A code is valid this long at most. */
  codeTtlMs: 10 * MINUTE,
  /** Wrong codes one challenge survives; the next wrong one kills it (429). */
  maxWrongCodesPerChallenge: 5,
  /** Wrong codes one person may make in `failureWindowMs`, across resends; then 429. */
  maxFailures: 20,
  failureWindowMs: HOUR,
  /** A new code to the same phone waits this long (the page's resend countdown, enforced here). */
  resendCooldownMs: OTP_RESEND_SECONDS * 1000,
  /** Codes sent to one phone, and from one client address, per `sendWindowMs`. */
  maxSendsPerPhone: 5,
  maxSendsPerClient: 30,
  sendWindowMs: HOUR,
  /** Challenges (they hold phone numbers) are deleted after this. */
  challengeRetentionMs: 24 * HOUR,
} as const;

/** What a sign-in needs of messaging: queue a code's SMS in a transaction, wake the sender after. */
export interface CodeSmsQueue {
  queueCode(
    ex: Executor,
    message: {
      to: string;
      body: string;
      expiresAt?: Date;
      clinicId?: number;
      /** The challenge's token hash: the code page asks whether its SMS arrived by it. */
      deliveryRef?: string;
    },
  ): Promise<void>;
  kick(): void;
}

/** A one-time code: six digits, each drawn from a CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The SMS carrying a one-time code: Hebrew, naming the clinic, and ending with the WebOTP line
 * (`@host #code`, https://wicg.github.io/web-otp/) so the phone offers to fill the code in on
 * our site, and only there.
 */
export function otpMessage(input: {
  code: string;
  clinicName: string;
  host: string;
  validMinutes: number;
}): string {
  return [
    `${input.code} הוא קוד האימות שלך ב${input.clinicName}.`,
    `הקוד בתוקף ${input.validMinutes} דקות. אין למסור אותו לאף אחד.`,
    '',
    `@${input.host} #${input.code}`,
  ].join('\n');
}
