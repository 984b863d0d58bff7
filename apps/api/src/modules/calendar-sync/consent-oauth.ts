import { createHash, randomBytes } from 'node:crypto';
import type { CalendarProviderName } from '../../platform/db/schema.js';
import type { CalendarProvider } from './calendar-provider.js';

// What a caregiver's connection by consent needs of a provider's OAuth 2.0 (ADR 042, ADR 043):
// the consent address (code + PKCE S256), the code exchange, the refresh, the revoke, the
// account's calendars, and a calendar API that uses the connection's own token.

/** The provider refused or did not answer; `error` is its OAuth error (`invalid_grant`…) or 'unreachable'. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export interface OAuthTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  /** Given with offline access; a refresh may bring a new one (Microsoft's always does). */
  refreshToken: string | null;
  scope: string;
}

export interface CalendarListEntry {
  id: string;
  summary: string;
  /** The account may write events into it (only those can be chosen). */
  canWrite: boolean;
  primary: boolean;
}

export interface ConsentOAuth {
  readonly provider: CalendarProviderName;
  /** The consent screen's address (its origin goes into the pages' form-action). */
  readonly authorizeUrl: string;
  authorizationUrl(request: { redirectUri: string; state: string; codeChallenge: string }): string;
  exchangeCode(request: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<OAuthTokens>;
  refresh(refreshToken: string): Promise<OAuthTokens>;
  /** Revokes the grant where the provider can; a grant gone already is not an error. */
  revoke(refreshToken: string): Promise<void>;
  /** The consenting account's address and its calendars, with what it may do in each. */
  calendarList(accessToken: string): Promise<{ account: string; calendars: CalendarListEntry[] }>;
  /** The calendar API of one connection (`accessToken(fresh)`: its token, renewed on demand). */
  calendarApi(accessToken: (fresh: boolean) => Promise<string>): CalendarProvider;
}

/** A PKCE pair: the verifier stays with Marpe, its S256 challenge goes to the provider (RFC 7636). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

export const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/** A token endpoint's answer (RFC 6749 §5), as both providers give it. */
export async function tokensOf(response: Response, who: string): Promise<OAuthTokens> {
  let json: Record<string, unknown> = {};
  try {
    json = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  if (!response.ok) {
    const error = typeof json.error === 'string' ? json.error.slice(0, 60) : 'token_error';
    throw new OAuthError(response.status, error, `${who} token endpoint: ${error}`);
  }
  if (typeof json.access_token !== 'string' || json.access_token === '') {
    throw new OAuthError(502, 'no_access_token', `${who} gave no access token`);
  }
  const expiresIn = Number(json.expires_in);
  return {
    accessToken: json.access_token,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
    scope: typeof json.scope === 'string' ? json.scope : '',
  };
}
