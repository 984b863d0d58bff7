import {
  OAuthError,
  tokensOf,
  type CalendarListEntry,
  type ConsentOAuth,
} from '../../consent-oauth.js';
import { createGoogleCalendarApi, type GoogleTransport } from './google-calendar-api.js';

// Google's OAuth 2.0 for web server apps, the calls a caregiver's connection needs: the consent
// address (code + PKCE S256, offline access), the code exchange, the refresh, the revoke, and the
// consenting account's calendar list. Every request goes through one transport, so tests point it
// at a loopback fake and the demo at its in-process stand-in.
// https://developers.google.com/identity/protocols/oauth2/web-server

/**
 * The narrowest scopes that do the job: read and write events (the mirror and the write-back),
 * ask free/busy (the last check), and list the account's calendars (to choose one and to learn
 * the account, whose primary calendar's id is its address). No profile, no e-mail, no settings.
 */
export const GOOGLE_OAUTH_SCOPES = [
  'https://www.googleapis.com/auth/calendar.events',
  'https://www.googleapis.com/auth/calendar.freebusy',
  'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
] as const;

export interface GoogleOAuthOptions {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** Google Calendar API v3 (the calendar list), no trailing slash. */
  apiBaseUrl: string;
  transport?: GoogleTransport;
  timeoutMs?: number;
}

export function createGoogleOAuth(options: GoogleOAuthOptions): ConsentOAuth {
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await transport(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new OAuthError(0, 'unreachable', `Google unreachable (${(error as Error).name})`);
    }
  }

  async function tokenRequest(form: Record<string, string>) {
    const response = await send(options.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        ...form,
      }).toString(),
    });
    return tokensOf(response, 'Google');
  }

  return {
    provider: 'google',
    authorizeUrl: options.authorizeUrl,

    /** Where the caregiver's browser goes to consent. */
    authorizationUrl(request: { redirectUri: string; state: string; codeChallenge: string }) {
      const url = new URL(options.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: options.clientId,
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: GOOGLE_OAUTH_SCOPES.join(' '),
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        // A refresh token, and asked again on every connection so Google gives one each time.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
      }).toString();
      return url.toString();
    },

    exchangeCode(request: { code: string; codeVerifier: string; redirectUri: string }) {
      return tokenRequest({
        grant_type: 'authorization_code',
        code: request.code,
        code_verifier: request.codeVerifier,
        redirect_uri: request.redirectUri,
      });
    },

    refresh(refreshToken: string) {
      return tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    },

    /** Revokes the grant (a refresh token revokes its access tokens too). */
    async revoke(token: string): Promise<void> {
      const response = await send(options.revokeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
      // 400 invalid_token: revoked already (by the user at Google, say): nothing left to revoke.
      if (!response.ok && response.status !== 400) {
        throw new OAuthError(response.status, 'revoke_failed', `revoke: HTTP ${response.status}`);
      }
    },

    /**
     * Every calendar in the account's list, with what the account may do in each ('owner' and
     * 'writer' write; 'reader' and 'freeBusyReader' only read). The primary calendar's id is the
     * account's address: no profile scope needed for it.
     */
    async calendarList(accessToken) {
      const entries: CalendarListEntry[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 20; page++) {
        const query = new URLSearchParams({ maxResults: '250' });
        if (pageToken) query.set('pageToken', pageToken);
        const response = await send(`${options.apiBaseUrl}/users/me/calendarList?${query}`, {
          method: 'GET',
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        });
        if (!response.ok) {
          throw new OAuthError(
            response.status,
            'calendar_list',
            `calendarList: HTTP ${response.status}`,
          );
        }
        const json = (await response.json()) as {
          items?: { id?: unknown; summary?: unknown; accessRole?: unknown; primary?: unknown }[];
          nextPageToken?: unknown;
        };
        for (const item of json.items ?? []) {
          if (typeof item.id !== 'string' || item.id === '') continue;
          entries.push({
            id: item.id,
            summary: typeof item.summary === 'string' ? item.summary : item.id,
            canWrite: item.accessRole === 'owner' || item.accessRole === 'writer',
            primary: item.primary === true,
          });
        }
        if (typeof json.nextPageToken !== 'string') break;
        pageToken = json.nextPageToken;
      }
      return { account: entries.find((c) => c.primary)?.id ?? '', calendars: entries };
    },

    calendarApi: (accessToken) =>
      createGoogleCalendarApi({
        apiBaseUrl: options.apiBaseUrl,
        tokenUrl: '',
        accessToken,
        ...(options.transport ? { transport: options.transport } : {}),
      }),
  };
}
