import type {
  ShaamAuthBody,
  ShaamAuthResponse,
  ShaamConnectBody,
  ShaamConnectResponse,
  ShaamStatus,
} from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { Database } from '../../platform/db/client.js';
import { AppError, invalidField as platformInvalidField } from '../../platform/errors.js';
import {
  findLiveConnectionToken,
  issueConnectionToken,
  useConnectionToken,
} from '../../platform/connection-tokens.js';
import type { ShaamOAuth } from './shaam-oauth.js';
import { findClient, findStatus, saveClient, saveTokens } from './shaam-repository.js';
import type { SealingKey } from '../../platform/crypto.js';

/** How long the authorization URL's state works: the person signs in at the Tax Authority meanwhile. */
export const SHAAM_STATE_TTL_MS = 30 * 60_000;

/** The audit actor of the callback page's call (nobody signs in to Marpe there). */
export const SHAAM_AUTH_ACTOR = 'shaam_auth';

export interface ShaamServiceDeps {
  db: Database;
  clock: () => number;
  /** `shaamKey(dataKey)`. */
  key: SealingKey;
  publicOrigin: string;
  /** Outside demo mode a return URL must be https; a demo's may be plain http. */
  production: boolean;
  authorizeUrl: string;
  scope: string;
  oauth: ShaamOAuth;
}

/**
 * Platform's 400 with the reason in the message too, as the Tax Authority connection has always
 * answered: the callback page logs only the message, so the reason has to be in it.
 */
function invalidField(path: string, message: string): AppError {
  const error = platformInvalidField(path, message);
  return new AppError(error.code, error.status, `${error.message}: ${message}`, error.details);
}

const invalidState = () =>
  invalidField(
    'state',
    'Unknown, used or expired: start the connection again from the clinic software',
  );

function checkReturnUrl(value: string, production: boolean): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  const allowed = production ? ['https:'] : ['https:', 'http:'];
  if (!url || !allowed.includes(url.protocol) || url.username !== '' || url.password !== '') {
    throw invalidField(
      'return_url',
      production ? 'Expected an https:// URL' : 'Expected an http:// or https:// URL',
    );
  }
  return url.href;
}

export function createShaamService(deps: ShaamServiceDeps) {
  const { db, clock, key, oauth } = deps;
  const redirectUri = `${deps.publicOrigin}/shaam-auth`;

  return {
    /**
     * `POST /api/integration/shaam/connect`: keeps the clinic's OAuth client and answers the
     * Tax Authority's authorization URL with a single-use state.
     */
    async startConnection(
      clinicId: number,
      actor: string,
      body: ShaamConnectBody,
    ): Promise<ShaamConnectResponse> {
      const returnUrl = checkReturnUrl(body.return_url, deps.production);
      const createdAt = new Date(clock());
      const state = await db.transaction(async (tx) => {
        await saveClient(tx, key, clinicId, {
          clientId: body.client_id,
          clientSecret: body.client_secret,
        });
        const issued = await issueConnectionToken(tx, {
          clinicId,
          purpose: 'shaam',
          returnUrl,
          createdAt,
          ttlMs: SHAAM_STATE_TTL_MS,
        });
        await audit(tx, {
          clinicId,
          actor,
          action: 'shaam.connect_start',
          targetType: 'shaam_connection',
          details: { client_id: body.client_id, return_url: returnUrl },
          at: createdAt,
        });
        return issued;
      });
      const url = new URL(deps.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', body.client_id);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', deps.scope);
      url.searchParams.set('state', state.token);
      return {
        authorization_url: url.href,
        state: state.token,
        expires_at: state.expiresAt.toISOString(),
      };
    },

    /** `GET /api/integration/shaam`. */
    async status(clinicId: number): Promise<ShaamStatus> {
      const found = await findStatus(db, clinicId);
      return {
        connected: found?.connectedAt != null,
        client_id: found?.clientId ?? null,
        connected_at: found?.connectedAt?.toISOString() ?? null,
        token_expires_at: found?.tokenExpiresAt?.toISOString() ?? null,
      };
    },

    /**
     * `POST /api/shaam-auth`: exchanges the code for the clinic's tokens and answers where the
     * clinic asked to return. When the Tax Authority refuses, nothing is stored and the state
     * stays usable until it expires: signing in again from the same authorization URL retries.
     */
    async completeAuthorization(body: ShaamAuthBody): Promise<ShaamAuthResponse> {
      const link = await findLiveConnectionToken(db, 'shaam', body.state, new Date(clock()));
      if (!link?.returnUrl) throw invalidState();
      const client = await findClient(db, key, link.clinicId);
      if (!client) throw new Error(`shaam: clinic ${link.clinicId} has a state but no client`);

      let tokens;
      try {
        tokens = await oauth.exchangeCode({ ...client, code: body.code, redirectUri });
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        throw new AppError(
          'service_unavailable',
          502,
          `The Tax Authority did not confirm the connection (${reason})`,
        );
      }

      const at = new Date(clock());
      await db.transaction(async (tx) => {
        if (!(await useConnectionToken(tx, 'shaam', body.state, at))) throw invalidState();
        await saveTokens(tx, key, link.clinicId, {
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken,
          tokenExpiresAt:
            tokens.expiresInSeconds === null
              ? null
              : new Date(at.getTime() + tokens.expiresInSeconds * 1000),
          connectedAt: at,
        });
        await audit(tx, {
          clinicId: link.clinicId,
          actor: SHAAM_AUTH_ACTOR,
          action: 'shaam.connect',
          targetType: 'shaam_connection',
          details: { client_id: client.clientId },
          at,
        });
      });
      return { url: link.returnUrl };
    },
  };
}

export type ShaamService = ReturnType<typeof createShaamService>;
