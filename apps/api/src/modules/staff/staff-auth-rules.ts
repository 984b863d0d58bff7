import { STAFF_INVITATION_DAYS } from '@marpe/shared';
import { patientAuthRules } from '../patient-auth/patient-auth-rules.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The limits of staff sign-in: a code follows the patients' rules (lifetime, resend cooldown,
 * sends per phone and per address, wrong codes per code and per hour). A desk session ends after
 * an hour without a call or 12 hours after sign-in, whichever is first: a working day at a shared
 * front-desk computer, with a passkey making the next sign-in one touch (docs/desk.md).
 */
export const staffAuthRules = {
  codeTtlMs: patientAuthRules.codeTtlMs,
  maxWrongCodesPerChallenge: patientAuthRules.maxWrongCodesPerChallenge,
  maxFailuresPerPhone: patientAuthRules.maxFailuresPerPatient,
  failureWindowMs: patientAuthRules.failureWindowMs,
  resendCooldownMs: patientAuthRules.resendCooldownMs,
  maxSendsPerPhone: patientAuthRules.maxSendsPerPhone,
  maxSendsPerClient: patientAuthRules.maxSendsPerClient,
  sendWindowMs: patientAuthRules.sendWindowMs,
  challengeRetentionMs: patientAuthRules.challengeRetentionMs,
  sessionIdleMs: HOUR,
  sessionAbsoluteMs: 12 * HOUR,
  sessionTouchEveryMs: MINUTE,
  invitationMs: STAFF_INVITATION_DAYS * DAY,
  passkeyChallengeMs: 5 * MINUTE,
} as const;

export type StaffAuthRules = typeof staffAuthRules;
