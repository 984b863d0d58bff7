import { STAFF_INVITATION_DAYS } from '@marpe/shared';
import { oneTimeCodeRules } from '../../platform/one-time-code.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const { maxFailures, ...codeRules } = oneTimeCodeRules;

/**
 * The limits of staff sign-in: a code follows the rules of every code, as the patients' does
 * (lifetime, resend cooldown, sends per phone and per address, wrong codes per code and per hour;
 * platform/one-time-code.ts). A desk session ends after an hour without a call or 12 hours after
 * sign-in, whichever is first: a working day at a shared front-desk computer, with a passkey
 * making the next sign-in one touch (docs/desk.md).
 */
export const staffAuthRules = {
  ...codeRules,
  maxFailuresPerPhone: maxFailures,
  sessionIdleMs: HOUR,
  sessionAbsoluteMs: 12 * HOUR,
  sessionTouchEveryMs: MINUTE,
  invitationMs: STAFF_INVITATION_DAYS * DAY,
  passkeyChallengeMs: 5 * MINUTE,
} as const;

export type StaffAuthRules = typeof staffAuthRules;
