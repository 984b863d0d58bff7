import { PHONE_HINT_DIGITS, type StaffInvitationView, type StaffSession } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Executor } from '../../platform/db/client.js';
import { hmacHex, randomToken, safeEqual, sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { assertCodeSendAllowed, windowFull } from '../../platform/limits.js';
import { generateCode, otpMessage, type CodeSmsQueue } from '../../platform/one-time-code.js';
import type { StaffRepository } from './staff-repository.js';
import { staffAuthRules, type StaffAuthRules } from './staff-auth-rules.js';

export interface StaffAuthServiceDeps {
  repository: StaffRepository;
  messaging: CodeSmsQueue;
  clock: () => number;
  /** Keys the code hashes (derived from DATA_KEY). */
  codeKey: Buffer;
  /** The host of the WebOTP line. */
  host: string;
  rules?: StaffAuthRules;
}

/** A live desk session: who, and since when. */
export interface StaffSessionContext {
  sessionId: number;
  accountId: number;
  method: 'sms' | 'passkey';
  expiresAt: Date;
}

/** The name the sign-in SMS gives: "<code> הוא קוד האימות שלך בדלפק מרפא." */
const DESK_NAME = 'דלפק מרפא';

export const invitationNotFound = () =>
  new AppError(
    'invitation_not_found',
    404,
    'This invitation link has ended (used, cancelled or expired); ask the clinic for a new one',
  );

/**
 * Staff sign-in to the desk: a code by SMS (the patients' rules: lifetime, resend cooldown,
 * send limits, wrong-code limits), to an account's phone or an invitation's, then a session.
 * Sign-in never says whether a phone is staff: an unknown phone gets a token like any other,
 * whose code was never sent, so every answer and limit is the same.
 */
export function createStaffAuthService(deps: StaffAuthServiceDeps) {
  const { repository, messaging, clock, codeKey, host } = deps;
  const rules = deps.rules ?? staffAuthRules;
  const hashCode = (tokenHash: string, code: string) => hmacHex(codeKey, `${tokenHash}:${code}`);
  let lastPrune = 0;

  async function pruneNowAndThen(now: number) {
    if (now - lastPrune < 10 * 60_000) return;
    lastPrune = now;
    await repository.prune({
      challenges: new Date(now - rules.challengeRetentionMs),
      failures: new Date(now - rules.failureWindowMs),
      sessions: new Date(now - rules.challengeRetentionMs),
    });
  }

  /** Checks the limits, replaces the phone's earlier code, stores the new one, queues its SMS. */
  async function sendCode(input: {
    phone: string;
    clientAddress: string;
    invitationId: number | null;
    /** false: a phone with no account; the row counts for the limits, nothing is sent. */
    send: boolean;
  }): Promise<string> {
    const now = clock();
    await pruneNowAndThen(now);
    const token = randomToken();
    const tokenHash = sha256Hex(token);
    const code = generateCode();
    await repository.db.transaction(async (tx) => {
      await repository.lockSendLimits(tx, input.phone, input.clientAddress);
      const failures = await repository.failuresSince(
        tx,
        input.phone,
        new Date(now - rules.failureWindowMs),
      );
      if (failures.count >= rules.maxFailuresPerPhone) {
        throw windowFull(failures, rules.failureWindowMs, now);
      }
      await assertCodeSendAllowed(tx, repository, input, rules, now);
      await repository.replacePendingChallenges(tx, input.phone);
      const expiresAt = new Date(now + rules.codeTtlMs);
      await repository.insertChallenge(tx, {
        tokenHash,
        phone: input.phone,
        invitationId: input.invitationId,
        // A code never sent can never be typed: its hash is of a value nobody holds.
        codeHash: input.send ? hashCode(tokenHash, code) : hashCode(tokenHash, randomToken()),
        clientAddress: input.clientAddress,
        createdAt: new Date(now),
        expiresAt,
      });
      if (input.send) {
        await messaging.queueCode(tx, {
          to: input.phone,
          body: otpMessage({
            code,
            clinicName: DESK_NAME,
            host,
            validMinutes: rules.codeTtlMs / 60_000,
          }),
          expiresAt,
        });
      }
    });
    if (input.send) messaging.kick();
    return token;
  }

  async function createSession(
    ex: Executor,
    accountId: number,
    method: 'sms' | 'passkey',
    now: number,
  ): Promise<string> {
    const token = randomToken();
    await repository.insertSession(ex, {
      tokenHash: sha256Hex(token),
      accountId,
      method,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + rules.sessionAbsoluteMs),
    });
    return token;
  }

  type Verification = { kind: 'ok'; token: string } | { kind: 'error'; error: AppError };

  return {
    rules,
    createSession,

    /** `POST /api/staff-auth/sign-in`. */
    async signIn(input: { phone: string; clientAddress: string }): Promise<string> {
      const account = await repository.findAccountByPhone(repository.db, input.phone);
      const memberships = account ? await repository.memberships(repository.db, account.id) : [];
      return sendCode({ ...input, invitationId: null, send: memberships.length > 0 });
    },

    /** `GET /api/staff-auth/invitations/:token`. */
    async invitation(token: string): Promise<StaffInvitationView> {
      const found = await repository.findOpenInvitation(
        repository.db,
        sha256Hex(token),
        new Date(clock()),
      );
      if (!found) throw invitationNotFound();
      const { invitation } = found;
      return {
        clinic_name: found.clinicName,
        name: invitation.name,
        role: invitation.role,
        phone_hint: invitation.phone.slice(-PHONE_HINT_DIGITS),
        expires_at: invitation.expiresAt.toISOString(),
      };
    },

    /** `POST /api/staff-auth/invitations/:token/code`: a code to the invited phone. */
    async invitationCode(token: string, clientAddress: string): Promise<string> {
      const found = await repository.findOpenInvitation(
        repository.db,
        sha256Hex(token),
        new Date(clock()),
      );
      if (!found) throw invitationNotFound();
      return sendCode({
        phone: found.invitation.phone,
        clientAddress,
        invitationId: found.invitation.id,
        send: true,
      });
    },

    /**
     * `POST /api/staff-auth/two-factor`: the session token of whoever typed the right code. An
     * invitation's code makes its holder a member (the account is created if the phone has none).
     */
    async verify(input: { twoFactorToken: string; code: string }): Promise<string> {
      const now = clock();
      const tokenHash = sha256Hex(input.twoFactorToken);
      const invalidToken = new AppError(
        'invalid_two_factor_token',
        400,
        'The code has expired or was replaced; request a new one',
      );
      const result = await repository.db.transaction(async (tx): Promise<Verification> => {
        const challenge = await repository.lockChallenge(tx, tokenHash);
        if (
          !challenge ||
          challenge.status === 'used' ||
          challenge.status === 'replaced' ||
          challenge.expiresAt.getTime() <= now
        ) {
          return { kind: 'error', error: invalidToken };
        }
        const dead = new AppError(
          'too_many_requests',
          429,
          'Too many wrong codes; request a new code later',
        );
        if (challenge.status === 'dead') return { kind: 'error', error: dead };
        const failures = await repository.failuresSince(
          tx,
          challenge.phone,
          new Date(now - rules.failureWindowMs),
        );
        if (failures.count >= rules.maxFailuresPerPhone) {
          return { kind: 'error', error: windowFull(failures, rules.failureWindowMs, now) };
        }
        if (!safeEqual(hashCode(tokenHash, input.code), challenge.codeHash)) {
          const failedAttempts = challenge.failedAttempts + 1;
          const isDead = failedAttempts > rules.maxWrongCodesPerChallenge;
          await repository.updateChallenge(tx, challenge.id, {
            failedAttempts,
            ...(isDead ? { status: 'dead' as const } : {}),
          });
          await repository.recordFailure(tx, challenge.phone, new Date(now));
          return {
            kind: 'error',
            error: isDead ? dead : new AppError('wrong_code', 404, 'Wrong code'),
          };
        }
        await repository.updateChallenge(tx, challenge.id, { status: 'used' });
        await repository.clearFailures(tx, challenge.phone);

        let accountId: number;
        if (challenge.invitationId !== null) {
          const invitation = await repository.lockInvitation(tx, challenge.invitationId);
          if (
            !invitation ||
            invitation.usedAt !== null ||
            invitation.revokedAt !== null ||
            invitation.expiresAt.getTime() <= now
          ) {
            return { kind: 'error', error: invitationNotFound() };
          }
          const at = new Date(now);
          const account = await repository.upsertAccount(tx, invitation.phone, invitation.name, at);
          await repository.lockClinicStaff(tx, invitation.clinicId);
          const existing = await repository.findMembership(tx, invitation.clinicId, account.id);
          if (!existing) {
            await repository.insertMembership(tx, {
              clinicId: invitation.clinicId,
              accountId: account.id,
              role: invitation.role,
              createdAt: at,
            });
          }
          await repository.markInvitationUsed(tx, invitation.id, at);
          await audit(tx, {
            clinicId: invitation.clinicId,
            actor: `staff:${account.id}`,
            action: 'staff.join',
            targetType: 'staff_account',
            targetId: account.id,
            details: { name: account.name, role: existing?.role ?? invitation.role },
            at,
          });
          accountId = account.id;
        } else {
          const account = await repository.findAccountByPhone(tx, challenge.phone);
          const memberships = account ? await repository.memberships(tx, account.id) : [];
          // Removed from every clinic since the code was sent: the code opens nothing.
          if (!account || memberships.length === 0) return { kind: 'error', error: invalidToken };
          accountId = account.id;
        }
        return { kind: 'ok', token: await createSession(tx, accountId, 'sms', now) };
      });
      if (result.kind === 'error') throw result.error;
      return result.token;
    },

    /** The live session of a cookie's token, or null; keeps an active session alive. */
    async authenticate(token: string): Promise<StaffSessionContext | null> {
      if (token.length < 20 || token.length > 200) return null;
      const now = clock();
      const session = await repository.findLiveSession(
        sha256Hex(token),
        new Date(now),
        new Date(now - rules.sessionIdleMs),
      );
      if (!session) return null;
      if (now - session.lastSeenAt.getTime() >= rules.sessionTouchEveryMs) {
        await repository.touchSession(session.id, new Date(now));
      }
      return {
        sessionId: session.id,
        accountId: session.accountId,
        method: session.method,
        expiresAt: session.expiresAt,
      };
    },

    /** `GET /api/staff-auth/session`. */
    async describe(session: StaffSessionContext): Promise<StaffSession> {
      const account = await repository.findAccount(repository.db, session.accountId);
      if (!account) throw new AppError('unauthorized', 401, 'Sign in to continue');
      const memberships = await repository.memberships(repository.db, account.id);
      const passkeys = await repository.passkeys(repository.db, account.id);
      return {
        account: { id: account.id, name: account.name, phone: account.phone },
        memberships: memberships.map((m) => ({
          clinic_id: m.clinicId,
          clinic_name: m.clinicName,
          role: m.role,
        })),
        method: session.method,
        expires_at: session.expiresAt.toISOString(),
        idle_timeout_minutes: rules.sessionIdleMs / 60_000,
        has_passkey: passkeys.length > 0,
      };
    },

    async signOut(sessionId: number): Promise<void> {
      await repository.revokeSession(sessionId, new Date(clock()));
    },

    /** Ends every session of the account, this one included; its passkeys stay. */
    async signOutEverywhere(accountId: number): Promise<void> {
      const at = new Date(clock());
      await repository.db.transaction(async (tx) => {
        await repository.revokeAccountSessions(tx, accountId, at);
        for (const membership of await repository.memberships(tx, accountId)) {
          await audit(tx, {
            clinicId: membership.clinicId,
            actor: `staff:${accountId}`,
            action: 'staff.sign_out_everywhere',
            targetType: 'staff_account',
            targetId: accountId,
            at,
          });
        }
      });
    },
  };
}

export type StaffAuthService = ReturnType<typeof createStaffAuthService>;
