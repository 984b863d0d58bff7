import { oneTimeCodeRules } from '../../platform/one-time-code.js';

/** The limits of patient verification (ADR 007): a code's (platform/one-time-code.ts), and these. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const { maxFailures, ...codeRules } = oneTimeCodeRules;

export const patientAuthRules = {
  ...codeRules,
  /** Wrong codes one patient may make in `failureWindowMs`, across resends; then 429. */
  maxFailuresPerPatient: maxFailures,
  /**
   * Each further full window of failures within this span doubles the lockout, counted from the
   * last failure: 2 hours after the second, 4 after the third… (ADR 020).
   */
  lockoutEscalationWindowMs: 24 * HOUR,
  maxLockoutMs: 24 * HOUR,
  sessionIdleMs: 30 * MINUTE,
  sessionAbsoluteMs: 12 * HOUR,
  /** A session's last use is written at most this often (idle expiry is this coarse). */
  sessionTouchEveryMs: MINUTE,
} as const;

export type PatientAuthRules = typeof patientAuthRules;
