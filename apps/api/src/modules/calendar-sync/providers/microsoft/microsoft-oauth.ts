import {
  OAuthError,
  tokensOf,
  type CalendarListEntry,
  type ConsentOAuth,
} from '../../consent-oauth.js';
import { createGraphCalendarApi, type GraphTransport } from './graph-calendar-api.js';

// The Microsoft identity platform's authorisation code flow with PKCE, the calls a caregiver's
// connection needs (ADR 043), by hand over `fetch` as Google's is: the consent address, the code
// exchange, the refresh (Microsoft rotates refresh tokens: each refresh brings a new one), and
// the account's calendars from Graph. Every request goes through one transport, so tests point
// it at a loopback fake and the demo at its in-process stand-in.
// https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow

/**
 * The narrowest scopes that do the job: a refresh token (`offline_access`), read and write the
 * account's calendars (the mirror, the write-back, subscriptions and the last check), and sign the
 * user in to learn the account (`User.Read`). No mail, no contacts, no other user's calendars.
 */
export const MICROSOFT_SCOPES = ['offline_access', 'Calendars.ReadWrite', 'User.Read'] as const;

export interface MicrosoftOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** `https://login.microsoftonline.com/{tenant}/oauth2/v2.0`: `/authorize` and `/token`. */
  authorityUrl: string;
  /** The consent screen, when not the authority's (the demo's stand-in page). */
  authorizeUrl?: string;
  /** Microsoft Graph v1.0, no trailing slash. */
  graphBaseUrl: string;
  transport?: GraphTransport;
  timeoutMs?: number;
}

export function createMicrosoftOAuth(options: MicrosoftOAuthOptions): ConsentOAuth {
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const authorizeUrl = options.authorizeUrl ?? `${options.authorityUrl}/authorize`;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await transport(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new OAuthError(0, 'unreachable', `Microsoft unreachable (${(error as Error).name})`);
    }
  }

  async function tokenRequest(form: Record<string, string>) {
    const response = await send(`${options.authorityUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: MICROSOFT_SCOPES.join(' '),
        ...form,
      }).toString(),
    });
    return tokensOf(response, 'Microsoft');
  }

  async function graphGet(accessToken: string, url: string) {
    const response = await send(url, {
      method: 'GET',
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    if (!response.ok) {
      throw new OAuthError(response.status, 'graph', `Graph: HTTP ${response.status}`);
    }
    return (await response.json()) as Record<string, unknown>;
  }

  return {
    provider: 'microsoft',
    authorizeUrl,

    authorizationUrl(request) {
      const url = new URL(authorizeUrl);
      url.search = new URLSearchParams({
        client_id: options.clientId,
        response_type: 'code',
        redirect_uri: request.redirectUri,
        response_mode: 'query',
        scope: MICROSOFT_SCOPES.join(' '),
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        // The caregiver may hold a work and a personal account: they say which.
        prompt: 'select_account',
      }).toString();
      return url.toString();
    },

    exchangeCode: (request) =>
      tokenRequest({
        grant_type: 'authorization_code',
        code: request.code,
        code_verifier: request.codeVerifier,
        redirect_uri: request.redirectUri,
      }),

    refresh: (refreshToken) =>
      tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    /**
     * The identity platform has no endpoint to revoke one app's refresh token (only all of a
     * user's sessions, a far wider scope): Marpe forgets it, and the caregiver removes Marpe at
     * myapps.microsoft.com or account.live.com/consent/Manage (docs/calendar-sync.md).
     */
    async revoke() {},

    /** The account (`/me`) and its calendars; only those it may edit (`canEdit`) can be chosen. */
    async calendarList(accessToken) {
      const me = await graphGet(accessToken, `${options.graphBaseUrl}/me`);
      const account =
        typeof me.mail === 'string' && me.mail !== ''
          ? me.mail
          : typeof me.userPrincipalName === 'string'
            ? me.userPrincipalName
            : '';
      const calendars: CalendarListEntry[] = [];
      let url: string | null =
        `${options.graphBaseUrl}/me/calendars?$select=id,name,canEdit,isDefaultCalendar&$top=100`;
      for (let page = 0; url && page < 20; page++) {
        if (!url.startsWith(`${options.graphBaseUrl}/`)) break;
        const json = await graphGet(accessToken, url);
        for (const item of (json.value ?? []) as Record<string, unknown>[]) {
          if (typeof item.id !== 'string' || item.id === '') continue;
          calendars.push({
            id: item.id,
            summary: typeof item.name === 'string' ? item.name : item.id,
            canWrite: item.canEdit === true,
            primary: item.isDefaultCalendar === true,
          });
        }
        url = typeof json['@odata.nextLink'] === 'string' ? json['@odata.nextLink'] : null;
      }
      return { account, calendars };
    },

    calendarApi: (accessToken) =>
      createGraphCalendarApi({
        baseUrl: options.graphBaseUrl,
        accessToken,
        ...(options.transport ? { transport: options.transport } : {}),
      }),
  };
}
