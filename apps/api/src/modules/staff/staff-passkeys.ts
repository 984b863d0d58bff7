import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { StaffPasskey } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import type { StaffAuthService } from './staff-auth-service.js';
import type { StaffRepository } from './staff-repository.js';

export interface StaffPasskeysDeps {
  repository: StaffRepository;
  auth: Pick<StaffAuthService, 'createSession' | 'rules'>;
  clock: () => number;
  /** PUBLIC_ORIGIN: the only origin a passkey is made for and used from. */
  publicOrigin: string;
}

const passkeyFailed = () =>
  new AppError('passkey_failed', 400, 'The passkey could not be verified; try again or use a code');

/** The challenge a WebAuthn response signed, from its clientDataJSON (checked again by the library). */
function challengeOf(response: { response?: unknown }): string | null {
  const clientData = (response.response as { clientDataJSON?: unknown } | undefined)
    ?.clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 4000) return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/** The browser's options as the route sends them: JSON the browser library reads whole. */
const asJson = (options: object) => options as Record<string, unknown>;

const toView = (row: {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): StaffPasskey => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys (WebAuthn, discoverable credentials): a signed-in account adds one, then signs in with
 * it instead of an SMS code. Each challenge is stored and used once; the relying party is
 * PUBLIC_ORIGIN's host name, so a passkey works only on the site it was made on.
 */
export function createStaffPasskeys(deps: StaffPasskeysDeps) {
  const { repository, auth, clock, publicOrigin } = deps;
  const rpID = new URL(publicOrigin).hostname;
  const expectedOrigin = publicOrigin;

  async function storeChallenge(
    challenge: string,
    purpose: 'register' | 'sign_in',
    accountId: number | null,
  ) {
    const now = clock();
    await repository.insertPasskeyChallenge(repository.db, {
      challenge,
      purpose,
      accountId,
      createdAt: new Date(now),
      expiresAt: new Date(now + auth.rules.passkeyChallengeMs),
    });
  }

  return {
    async list(accountId: number): Promise<StaffPasskey[]> {
      return (await repository.passkeys(repository.db, accountId)).map(toView);
    },

    /** `POST /api/staff-auth/passkeys/registration-options`. */
    async registrationOptions(accountId: number) {
      const account = await repository.findAccount(repository.db, accountId);
      if (!account) throw new AppError('unauthorized', 401, 'Sign in to continue');
      const existing = await repository.passkeys(repository.db, accountId);
      const options = await generateRegistrationOptions({
        rpName: 'Marpe',
        rpID,
        userName: account.phone,
        userDisplayName: account.name || account.phone,
        userID: new TextEncoder().encode(`marpe-staff-${account.id}`),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await storeChallenge(options.challenge, 'register', accountId);
      return asJson(options);
    },

    /** `POST /api/staff-auth/passkeys`: stores the passkey the browser made from those options. */
    async register(
      accountId: number,
      name: string,
      response: RegistrationResponseJSON,
    ): Promise<StaffPasskey> {
      const challenge = challengeOf(response);
      const now = new Date(clock());
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: async (value) =>
            value === challenge &&
            repository.takePasskeyChallenge(repository.db, value, 'register', accountId, now),
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
      } catch {
        throw passkeyFailed();
      }
      if (!verification.verified) throw passkeyFailed();
      const { credential } = verification.registrationInfo;
      return repository.db.transaction(async (tx) => {
        const row = await repository.insertPasskey(tx, {
          accountId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
          createdAt: now,
        });
        if (!row) throw passkeyFailed();
        for (const membership of await repository.memberships(tx, accountId)) {
          await audit(tx, {
            clinicId: membership.clinicId,
            actor: `staff:${accountId}`,
            action: 'staff.passkey_add',
            targetType: 'staff_passkey',
            targetId: row.id,
            details: { name },
            at: now,
          });
        }
        return toView(row);
      });
    },

    async remove(accountId: number, passkeyId: number): Promise<void> {
      const at = new Date(clock());
      await repository.db.transaction(async (tx) => {
        if (!(await repository.deletePasskey(tx, accountId, passkeyId))) {
          throw new AppError('passkey_not_found', 404, 'No such passkey');
        }
        for (const membership of await repository.memberships(tx, accountId)) {
          await audit(tx, {
            clinicId: membership.clinicId,
            actor: `staff:${accountId}`,
            action: 'staff.passkey_remove',
            targetType: 'staff_passkey',
            targetId: passkeyId,
            at,
          });
        }
      });
    },

    /** `POST /api/staff-auth/passkey-sign-in/options`: any passkey of this site may answer. */
    async signInOptions() {
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
      await storeChallenge(options.challenge, 'sign_in', null);
      return asJson(options);
    },

    /** `POST /api/staff-auth/passkey-sign-in`: a session token for the passkey's account. */
    async signIn(response: AuthenticationResponseJSON): Promise<string> {
      const passkey = await repository.findPasskey(repository.db, response.id);
      if (!passkey) throw passkeyFailed();
      const challenge = challengeOf(response);
      const now = clock();
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: async (value) =>
            value === challenge &&
            repository.takePasskeyChallenge(repository.db, value, 'sign_in', null, new Date(now)),
          expectedOrigin,
          expectedRPID: rpID,
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: false,
        });
      } catch {
        throw passkeyFailed();
      }
      if (!verification.verified) throw passkeyFailed();
      return repository.db.transaction(async (tx) => {
        if ((await repository.memberships(tx, passkey.accountId)).length === 0) {
          throw passkeyFailed();
        }
        const used = await repository.usePasskey(
          tx,
          passkey.id,
          passkey.counter,
          verification.authenticationInfo.newCounter,
          new Date(now),
        );
        if (!used) throw passkeyFailed();
        return auth.createSession(tx, passkey.accountId, 'passkey', now);
      });
    },
  };
}

export type StaffPasskeys = ReturnType<typeof createStaffPasskeys>;
