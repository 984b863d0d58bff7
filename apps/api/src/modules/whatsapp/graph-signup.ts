import { META_GRAPH_VERSION } from '@marpe/shared';
import { graphErrorCode, networkReason } from '../../platform/http/outbound-errors.js';

export const GRAPH_SIGNUP_TIMEOUT_MS = 10_000;

/** Turns the embedded sign-up's code into the business token (Meta's "exchange the token code"). */
export interface GraphSignup {
  /** Throws an error naming the reason (never the code, the secret or the token). */
  exchangeCode(code: string): Promise<string>;
}

export function createGraphSignup(options: {
  graphApiBaseUrl: string;
  appId: string;
  appSecret: string;
  timeoutMs?: number;
}): GraphSignup {
  const timeoutMs = options.timeoutMs ?? GRAPH_SIGNUP_TIMEOUT_MS;
  return {
    async exchangeCode(code) {
      // As Meta documents it for the embedded sign-up: a GET with the app secret in the query.
      // The URL is never logged for that reason.
      const url = new URL(`${options.graphApiBaseUrl}/${META_GRAPH_VERSION}/oauth/access_token`);
      url.searchParams.set('client_id', options.appId);
      url.searchParams.set('client_secret', options.appSecret);
      url.searchParams.set('code', code);
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        throw new Error(`Graph API unreachable: ${networkReason(error)}`, { cause: error });
      }
      if (!response.ok) {
        throw new Error(`Graph API answered ${response.status}${await graphErrorCode(response)}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = null;
      }
      const token = (body as { access_token?: unknown } | null)?.access_token;
      if (typeof token !== 'string' || token === '') {
        throw new Error('Graph API answered without an access_token');
      }
      return token;
    },
  };
}
