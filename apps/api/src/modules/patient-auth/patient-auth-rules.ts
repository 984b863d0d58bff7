/** The limits of patient verification (issue 4; OWASP ASVS 5.0 V6.5 and V7, NIST SP 800-63B). */
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
