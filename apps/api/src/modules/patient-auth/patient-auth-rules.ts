import { OTP_RESEND_SECONDS } from '@marpe/shared';

/** The limits of patient verification (ADR 007; OWASP ASVS 5.0 V6.5 and V7, NIST SP 800-63B). */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const patientAuthRules = {
  /** A code is valid this long at most. */
  codeTtlMs: 10 * MINUTE,
  /** Wrong codes one challenge survives; the next wrong one kills it (429). */
  maxWrongCodesPerChallenge: 5,
  /** Wrong codes one patient may make in `failureWindowMs`, across resends; then 429. */
  maxFailuresPerPatient: 20,
  failureWindowMs: HOUR,
  /**
   * Each further full window of failures within this span doubles the lockout, counted from the
   * last failure: 2 hours after the second, 4 after the third… (ADR 020).
   */
  lockoutEscalationWindowMs: 24 * HOUR,
  maxLockoutMs: 24 * HOUR,
  /** A new code to the same phone waits this long (the page's resend countdown, enforced here). */
  resendCooldownMs: OTP_RESEND_SECONDS * 1000,
  /** Codes sent to one phone, and from one client address, per `sendWindowMs`. */
  maxSendsPerPhone: 5,
  maxSendsPerClient: 30,
  sendWindowMs: HOUR,
  sessionIdleMs: 30 * MINUTE,
  sessionAbsoluteMs: 12 * HOUR,
  /** A session's last use is written at most this often (idle expiry is this coarse). */
  sessionTouchEveryMs: MINUTE,
  /** Challenges (they hold phone numbers) are deleted after this. */
  challengeRetentionMs: 24 * HOUR,
} as const;

export type PatientAuthRules = typeof patientAuthRules;
