import { networkReason } from '../../platform/http/outbound-errors.js';

export const SHAAM_HTTP_TIMEOUT_MS = 10_000;

export interface ShaamTokens {
  accessToken: string;
  /** Null when the answer had none. */
  refreshToken: string | null;
  /** Seconds the access token lives, when the answer said. */
  expiresInSeconds: number | null;
}

/** The Tax Authority's OAuth token endpoint (authorization-code grant). */
export interface ShaamOAuth {
  /** Throws an error naming the reason (never the code, the secret or a token). */
  exchangeCode(request: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<ShaamTokens>;
}

/**
 * `POST <token url>` form-encoded `grant_type=authorization_code&code&redirect_uri`, the client
 * authenticated with HTTP Basic (`client_id:client_secret`), as the Tax Authority documents it.
 */
export function createShaamOAuth(options: { tokenUrl: string; timeoutMs?: number }): ShaamOAuth {
  const timeoutMs = options.timeoutMs ?? SHAAM_HTTP_TIMEOUT_MS;
  return {
    async exchangeCode({ clientId, clientSecret, code, redirectUri }) {
      let response: Response;
      try {
        response = await fetch(options.tokenUrl, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
          }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`token endpoint unreachable: ${networkReason(error)}`, { cause: error });
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`token endpoint answered ${response.status}`);
      }
      let parsed: unknown;
      try {
        parsed = await response.json();
      } catch {
        throw new Error('token endpoint answered without JSON');
      }
      const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<
        string,
        unknown
      >;
      const { access_token: accessToken, refresh_token: refreshToken } = body;
      if (typeof accessToken !== 'string' || accessToken === '') {
        throw new Error('token endpoint answered without an access_token');
      }
      const expiresIn = Number(body.expires_in);
      return {
        accessToken,
        refreshToken: typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : null,
        expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null,
      };
    },
  };
}
