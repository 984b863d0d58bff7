import { randomBytes } from 'node:crypto';
import { pkceChallenge } from '../../consent-oauth.js';
import { GOOGLE_OAUTH_SCOPES } from './google-oauth.js';

// The stand-in's half of Google's OAuth 2.0 for web server apps: the consent (the demo's page and
// the tests call `consent`), the token endpoint's authorization_code and refresh_token grants,
// the revoke endpoint, and which user an access token is. It checks what Google checks: the
// client, the redirect URI, single-use codes, and the PKCE verifier against its S256 challenge;
// anything wrong is `invalid_grant` (or `invalid_client`), as Google answers.

const HOUR = 3_600_000;

/** A Google account of the stand-in, with its calendar list. */
export interface StandInAccount {
  email: string;
  /** The account's calendars: its primary one (id = email) is added as owner. */
  calendars: { id: string; summary: string; accessRole: 'owner' | 'writer' | 'reader' }[];
}

export interface StandInOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** The client's registered redirect URI: no other is accepted. */
  redirectUri: string;
  /** Access tokens live this long (Google's: an hour). */
  accessLifetimeMs?: number;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  account: string;
  scope: string;
  used: boolean;
}

type Answer = { status: number; body: object };

const oauthError = (error: string, status = 400): Answer => ({
  status,
  body: { error, error_description: error },
});

export function createStandInOAuth(options: StandInOAuthOptions) {
  const lifetime = options.accessLifetimeMs ?? HOUR;
  const accounts = new Map<string, StandInAccount>();
  const codes = new Map<string, Code>();
  const refreshTokens = new Map<string, { account: string; scope: string; revoked: boolean }>();
  const accessTokens = new Map<string, { account: string; refresh: string; until: number }>();
  /** Every revoke request's token, as received (tests look). */
  const revoked: string[] = [];

  const issueAccess = (account: string, refresh: string) => {
    const token = `ya29.u${randomBytes(24).toString('base64url')}`;
    accessTokens.set(token, { account, refresh, until: Date.now() + lifetime });
    return token;
  };

  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,

    addAccount(account: StandInAccount) {
      const list = account.calendars.some((c) => c.id === account.email)
        ? account.calendars
        : [
            { id: account.email, summary: account.email, accessRole: 'owner' as const },
            ...account.calendars,
          ];
      accounts.set(account.email, { email: account.email, calendars: list });
    },

    /**
     * The user's decision on the consent screen for an authorization request (its query):
     * where Google sends the browser back. A bad request is refused as Google shows it: an error
     * and no redirect.
     */
    consent(
      query: Record<string, string | undefined>,
      decision: { account: string } | 'cancel',
    ): { redirect: string } | { error: string } {
      if (query.client_id !== options.clientId) return { error: 'invalid_client' };
      const redirectUri = query.redirect_uri ?? '';
      if (redirectUri !== options.redirectUri) return { error: 'redirect_uri_mismatch' };
      if (query.response_type !== 'code') return { error: 'unsupported_response_type' };
      if (query.code_challenge_method !== 'S256' || !query.code_challenge) {
        return { error: 'invalid_request: PKCE S256 required' };
      }
      const scopes = (query.scope ?? '').split(' ');
      if (!GOOGLE_OAUTH_SCOPES.every((s) => scopes.includes(s))) return { error: 'invalid_scope' };
      const back = new URL(redirectUri);
      if (query.state !== undefined) back.searchParams.set('state', query.state);
      if (decision === 'cancel') {
        back.searchParams.set('error', 'access_denied');
        return { redirect: back.toString() };
      }
      if (!accounts.has(decision.account)) return { error: 'no such account' };
      const code = `4/${randomBytes(24).toString('base64url')}`;
      codes.set(code, {
        clientId: options.clientId,
        redirectUri,
        challenge: query.code_challenge,
        account: decision.account,
        scope: scopes.join(' '),
        used: false,
      });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scopes.join(' '));
      return { redirect: back.toString() };
    },

    /** The token endpoint's user grants (`form`: the request body). */
    token(form: URLSearchParams): Answer {
      if (form.get('client_id') !== options.clientId) return oauthError('invalid_client', 401);
      if (form.get('client_secret') !== options.clientSecret)
        return oauthError('invalid_client', 401);
      const grant = form.get('grant_type');
      if (grant === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !code ||
          code.used ||
          code.redirectUri !== form.get('redirect_uri') ||
          pkceChallenge(verifier) !== code.challenge
        ) {
          // A code is spent by any try, good or bad, as Google's are.
          if (code) code.used = true;
          return oauthError('invalid_grant');
        }
        code.used = true;
        const refresh = `1//${randomBytes(32).toString('base64url')}`;
        refreshTokens.set(refresh, { account: code.account, scope: code.scope, revoked: false });
        return {
          status: 200,
          body: {
            access_token: issueAccess(code.account, refresh),
            expires_in: Math.floor(lifetime / 1000),
            refresh_token: refresh,
            scope: code.scope,
            token_type: 'Bearer',
          },
        };
      }
      if (grant === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        const held = refreshTokens.get(refresh);
        if (!held || held.revoked) return oauthError('invalid_grant');
        return {
          status: 200,
          body: {
            access_token: issueAccess(held.account, refresh),
            expires_in: Math.floor(lifetime / 1000),
            scope: held.scope,
            token_type: 'Bearer',
          },
        };
      }
      return oauthError('unsupported_grant_type');
    },

    /** `POST /revoke` (`token=`): a refresh token and its access tokens, or one access token. */
    revoke(form: URLSearchParams): Answer {
      const token = form.get('token') ?? '';
      revoked.push(token);
      const refresh = refreshTokens.get(token) ? token : accessTokens.get(token)?.refresh;
      const held = refresh ? refreshTokens.get(refresh) : undefined;
      if (!held || held.revoked) return oauthError('invalid_token');
      held.revoked = true;
      for (const [access, value] of accessTokens) {
        if (value.refresh === refresh) accessTokens.delete(access);
      }
      return { status: 200, body: {} };
    },

    /** The account of a live access token; null for an unknown, expired or revoked one. */
    accountOf(accessToken: string): StandInAccount | null {
      const held = accessTokens.get(accessToken);
      if (!held || held.until <= Date.now()) return null;
      if (refreshTokens.get(held.refresh)?.revoked) return null;
      return accounts.get(held.account) ?? null;
    },

    /** What an account may do in a calendar (null: not in its list). */
    roleOf(account: StandInAccount, calendarId: string): 'owner' | 'writer' | 'reader' | null {
      return account.calendars.find((c) => c.id === calendarId)?.accessRole ?? null;
    },

    /** The user takes Marpe's access away in their Google account. */
    revokeAll(account: string) {
      for (const held of refreshTokens.values()) if (held.account === account) held.revoked = true;
    },

    /** Every access token handed out ends now (the next call answers 401). */
    expireAccessTokens() {
      for (const held of accessTokens.values()) held.until = 0;
    },

    revokeRequests: (): readonly string[] => revoked,
  };
}

export type StandInOAuth = ReturnType<typeof createStandInOAuth>;
