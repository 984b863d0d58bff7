import type { FastifyBaseLogger } from 'fastify';
import {
  decryptText,
  encryptText,
  randomToken,
  safeEqual,
  sealedAt,
  sha256Hex,
  type SealingKey,
} from '../../platform/crypto.js';
import { requireClinicCaregiver } from '../../platform/clinic-caregiver.js';
import { AppError } from '../../platform/errors.js';
import type {
  CalendarConnectionsRepository,
  ConnectionLinkRow,
  StaleChannel,
} from './calendar-connections-repository.js';
import { CalendarProviderError, type CalendarProvider } from './calendar-provider.js';
import type { CalendarProviderName } from '../../platform/db/schema.js';
import {
  OAuthError,
  pkcePair,
  type CalendarListEntry,
  type ConsentOAuth,
} from './consent-oauth.js';

// Each caregiver connects their own calendar (Google or Microsoft 365) by consent
// (docs/calendar-sync.md, "Connecting by consent"; ADR 042, ADR 043): a one-time link, the
// provider's consent with PKCE, a calendar chosen from the account's own list. Consent proves
// the calendar is theirs to give. This file is over 400 lines: the link, the consent and the
// connection's tokens are one flow over one sealed state, read best in one place.

const HOUR = 3_600_000;
/** How long a connection link may be opened. */
export const LINK_LIFETIME_MS = 24 * HOUR;
/** Where the provider sends the caregiver's browser back. */
export const CALLBACK_PATH = '/calendar/oauth/callback';
/** An access token is renewed this long before the provider says it ends. */
const RENEW_BEFORE_MS = 60_000;

/** What the clinic reads when the caregiver took Marpe's access back at the provider. */
export const REVOKED_MESSAGE =
  "The provider no longer accepts this calendar's connection (the caregiver removed Marpe's access or changed their password): send the caregiver a new connection link.";

/** Why a link's page cannot go on: each has its own page. */
export type LinkProblem =
  'unknown' | 'expired' | 'used' | 'state_mismatch' | 'denied' | 'google_failed' | 'not_configured';

export class LinkRefused extends Error {
  constructor(
    readonly problem: LinkProblem,
    /** Whose consent failed, where known: its page names it. */
    readonly provider: CalendarProviderName = 'google',
  ) {
    super(problem);
  }
}

export interface CalendarConnectionsDeps {
  repository: CalendarConnectionsRepository;
  /**
   * Each provider's OAuth client, where the server has one (GOOGLE_OAUTH_CLIENT_ID,
   * MICROSOFT_CLIENT_ID): links only for these.
   */
  oauth: Partial<Record<CalendarProviderName, ConsentOAuth>>;
  sealKey: SealingKey;
  clock: () => number;
  publicOrigin: string;
  log: FastifyBaseLogger;
  /** A calendar was connected or disconnected: reconcile and sync at once, refresh the slots. */
  changed: (clinicId: number) => void;
}

/** A link's page: whose, and how far it went. */
export interface LinkView {
  link: ConnectionLinkRow;
  clinicName: string;
  caregiverName: string;
}

const linkSealedAt = (column: string, tokenHash: string) =>
  sealedAt('calendar_connection_links', column, tokenHash);
const connectionSealedAt = (caregiverId: number) =>
  sealedAt('calendar_connections', 'refresh_token', caregiverId);

export function createCalendarConnections(deps: CalendarConnectionsDeps) {
  const { repository, sealKey, clock, log } = deps;
  const oauthOf = (provider: CalendarProviderName) => deps.oauth[provider] ?? null;
  const redirectUri = `${deps.publicOrigin}${CALLBACK_PATH}`;
  /** Access tokens of connections, until they end (per process; a refresh is cheap). */
  const accessTokens = new Map<number, { token: string; until: number }>();
  const refreshing = new Map<number, Promise<string>>();

  const seal = (plain: string, at: string) => encryptText(sealKey, plain, at);
  const open = (sealed: string, at: string) => decryptText(sealKey, sealed, at);

  /** The link of this token, usable now, or the reason it is not. */
  async function usableLink(token: string, browser?: string): Promise<LinkView> {
    const found = await repository.findLink({ tokenHash: sha256Hex(token) });
    if (!found) throw new LinkRefused('unknown');
    if (found.link.usedAt) throw new LinkRefused('used');
    if (found.link.expiresAt.getTime() <= clock()) throw new LinkRefused('expired');
    if (browser !== undefined && !safeEqual(browser, token)) {
      throw new LinkRefused('state_mismatch');
    }
    return found;
  }

  /** The browser that pressed "continue" holds the link's token in a cookie. */
  const sameBrowser = (link: ConnectionLinkRow, browser: string) =>
    browser !== '' && safeEqual(sha256Hex(browser), link.tokenHash);

  /** A fresh access token for a connection (refreshed once at a time per caregiver). */
  async function accessTokenOf(caregiverId: number, fresh: boolean): Promise<string> {
    const cached = accessTokens.get(caregiverId);
    if (!fresh && cached && cached.until > clock()) return cached.token;
    const pending = refreshing.get(caregiverId);
    if (pending) return pending;
    const next = (async () => {
      const connection = await repository.findConnection(caregiverId);
      const oauth = connection ? oauthOf(connection.provider) : null;
      if (!connection || !oauth) {
        throw new CalendarProviderError(401, 'no_access', 'The calendar is no longer connected');
      }
      let tokens;
      try {
        tokens = await oauth.refresh(
          open(connection.refreshToken, connectionSealedAt(caregiverId)),
        );
      } catch (error) {
        accessTokens.delete(caregiverId);
        if (error instanceof OAuthError && error.error === 'invalid_grant') {
          throw new CalendarProviderError(401, 'no_access', REVOKED_MESSAGE);
        }
        const status = error instanceof OAuthError ? error.status : 0;
        throw new CalendarProviderError(
          status,
          'unavailable',
          `token refresh failed (${(error as Error).message})`,
        );
      }
      if (tokens.refreshToken) {
        await repository.updateRefreshToken(
          caregiverId,
          seal(tokens.refreshToken, connectionSealedAt(caregiverId)),
        );
      }
      accessTokens.set(caregiverId, {
        token: tokens.accessToken,
        until: clock() + tokens.expiresIn * 1000 - RENEW_BEFORE_MS,
      });
      return tokens.accessToken;
    })();
    refreshing.set(caregiverId, next);
    try {
      return await next;
    } finally {
      refreshing.delete(caregiverId);
    }
  }

  /** Calendar APIs of connections, one per caregiver (each with its own token). */
  const apis = new Map<number, CalendarProvider>();
  const apiOfConnection = (connection: {
    caregiverId: number;
    provider: CalendarProviderName;
    accountEmail: string;
  }): CalendarProvider | null => {
    const { caregiverId } = connection;
    let api = apis.get(caregiverId);
    const oauth = oauthOf(connection.provider);
    if (!api && oauth) {
      api = oauth.calendarApi((fresh) => accessTokenOf(caregiverId, fresh));
      apis.set(caregiverId, api);
    }
    return api ?? null;
  };

  /** The account's calendars, with the link's access token (refreshed when it ran out). */
  async function calendarsOf(view: LinkView): Promise<CalendarListEntry[]> {
    const { link } = view;
    const oauth = oauthOf(link.provider);
    if (!oauth || !link.refreshToken || !link.accessToken) throw new LinkRefused('unknown');
    let token = open(link.accessToken, linkSealedAt('access_token', link.tokenHash));
    if ((link.accessExpiresAt?.getTime() ?? 0) <= clock()) {
      const fresh = await oauth.refresh(
        open(link.refreshToken, linkSealedAt('refresh_token', link.tokenHash)),
      );
      token = fresh.accessToken;
      await repository.updateLink(link.id, {
        accessToken: seal(token, linkSealedAt('access_token', link.tokenHash)),
        accessExpiresAt: new Date(clock() + fresh.expiresIn * 1000 - RENEW_BEFORE_MS),
      });
    }
    return (await oauth.calendarList(token)).calendars;
  }

  return {
    /** The providers a link can be made for. */
    providers: (['google', 'microsoft'] as const).filter((p) => oauthOf(p) !== null),

    /** The Calendar API for a calendar connected by consent; null when none holds it. */
    async apiFor(calendarId: string): Promise<CalendarProvider | null> {
      const connection = await repository.findConnectionByCalendar(calendarId);
      return connection ? apiOfConnection(connection) : null;
    },

    /** `POST /api/integration/caregivers/:id/calendar-connection`. */
    async createLink(
      clinicId: number,
      caregiverId: number,
      actor: string,
      provider: CalendarProviderName,
    ) {
      await requireClinicCaregiver(repository.db, clinicId, caregiverId);
      if (!oauthOf(provider)) {
        throw new AppError(
          'service_unavailable',
          503,
          provider === 'google'
            ? 'This server has no Google OAuth client (GOOGLE_OAUTH_CLIENT_ID): ask whoever runs Marpe'
            : 'This server has no Microsoft app registration (MICROSOFT_CLIENT_ID): ask whoever runs Marpe',
        );
      }
      const token = randomToken(32);
      const now = clock();
      const expiresAt = new Date(now + LINK_LIFETIME_MS);
      await repository.createLink(
        {
          caregiverId,
          clinicId,
          provider,
          tokenHash: sha256Hex(token),
          createdAt: new Date(now),
          expiresAt,
        },
        {
          clinicId,
          actor,
          action: 'caregiver.calendar_link',
          targetType: 'caregiver',
          targetId: caregiverId,
          details: { provider, expires_at: expiresAt.toISOString() },
          at: new Date(now),
        },
      );
      return {
        url: `${deps.publicOrigin}/calendar/connect/${token}`,
        expires_at: expiresAt.toISOString(),
      };
    },

    /** The link's first page: whose it is. */
    view: (token: string) => usableLink(token),

    /**
     * "Continue" (to the provider the caregiver chose): a PKCE verifier and a `state`, kept with the link (the verifier
     * sealed, the state hashed); the address to send the browser to. The routes give the browser
     * the link's token in a cookie: Google's answer must come back to the browser that asked.
     */
    async startAuthorization(
      token: string,
      chosen?: CalendarProviderName,
    ): Promise<{ location: string }> {
      const view = await usableLink(token);
      const provider = chosen ?? view.link.provider;
      const oauth = oauthOf(provider);
      if (!oauth) throw new LinkRefused('not_configured');
      const { verifier, challenge } = pkcePair();
      const state = randomToken(32);
      await repository.updateLink(view.link.id, {
        provider,
        stateHash: sha256Hex(state),
        codeVerifier: seal(verifier, linkSealedAt('code_verifier', view.link.tokenHash)),
      });
      return { location: oauth.authorizationUrl({ redirectUri, state, codeChallenge: challenge }) };
    },

    /**
     * Google's answer (`browser`: the cookie, the link's token): the code exchanged with the
     * link's verifier (once: the state goes), the tokens kept sealed with the link until a
     * calendar is chosen, at the link's own address.
     */
    async callback(query: {
      code?: string;
      state?: string;
      error?: string;
      browser: string;
    }): Promise<LinkView> {
      const found = query.state
        ? await repository.findLink({ stateHash: sha256Hex(query.state) })
        : null;
      if (!found || !sameBrowser(found.link, query.browser)) {
        throw new LinkRefused('state_mismatch');
      }
      const { link } = found;
      const oauth = oauthOf(link.provider);
      if (!oauth) throw new LinkRefused('not_configured');
      if (link.usedAt) throw new LinkRefused('used');
      if (link.expiresAt.getTime() <= clock()) throw new LinkRefused('expired');
      const verifier = link.codeVerifier;
      // The state answers once, whatever Google said.
      await repository.updateLink(link.id, { stateHash: null, codeVerifier: null });
      if (query.error || !query.code || !verifier) throw new LinkRefused('denied', link.provider);
      let tokens;
      try {
        tokens = await oauth.exchangeCode({
          code: query.code,
          codeVerifier: open(verifier, linkSealedAt('code_verifier', link.tokenHash)),
          redirectUri,
        });
      } catch (error) {
        log.warn({ error: (error as Error).message }, 'calendar connection: code not exchanged');
        throw new LinkRefused('google_failed', link.provider);
      }
      if (!tokens.refreshToken) throw new LinkRefused('google_failed', link.provider);
      let account: string;
      try {
        account = (await oauth.calendarList(tokens.accessToken)).account;
      } catch (error) {
        log.warn({ error: (error as Error).message }, 'calendar connection: calendar list failed');
        throw new LinkRefused('google_failed', link.provider);
      }
      const values = {
        accountEmail: account,
        refreshToken: seal(tokens.refreshToken, linkSealedAt('refresh_token', link.tokenHash)),
        accessToken: seal(tokens.accessToken, linkSealedAt('access_token', link.tokenHash)),
        accessExpiresAt: new Date(clock() + tokens.expiresIn * 1000 - RENEW_BEFORE_MS),
        scope: tokens.scope,
      };
      await repository.updateLink(link.id, values);
      return { ...found, link: { ...link, ...values, stateHash: null, codeVerifier: null } };
    },

    /** The calendars the consenting account can choose from (after the callback). */
    async choices(token: string, browser: string) {
      const view = await usableLink(token, browser);
      if (!view.link.refreshToken) throw new LinkRefused('state_mismatch');
      try {
        return { view, calendars: await calendarsOf(view) };
      } catch (error) {
        if (error instanceof LinkRefused) throw error;
        log.warn({ error: (error as Error).message }, 'calendar connection: calendar list failed');
        throw new LinkRefused('google_failed');
      }
    },

    /**
     * The caregiver's choice: one the account owns or may write, and that no other caregiver (of
     * any clinic) holds. 'held' and 'read_only' are said on the page; done, the sync starts.
     */
    async choose(
      token: string,
      browser: string,
      calendarId: string,
    ): Promise<
      { outcome: 'connected'; summary: string } | { outcome: 'held' | 'read_only' | 'not_listed' }
    > {
      const { view, calendars } = await this.choices(token, browser);
      const entry = calendars.find((c) => c.id === calendarId);
      if (!entry) return { outcome: 'not_listed' };
      if (!entry.canWrite) return { outcome: 'read_only' };
      const { link } = view;
      const caregiverId = link.caregiverId;
      const refreshToken = open(
        link.refreshToken ?? '',
        linkSealedAt('refresh_token', link.tokenHash),
      );
      let result: { outcome: 'connected' | 'held' | 'used'; stale: StaleChannel | null };
      try {
        result = await repository.connect(
          link,
          {
            caregiverId,
            clinicId: link.clinicId,
            provider: link.provider,
            accountEmail: link.accountEmail ?? '',
            calendarId: entry.id,
            refreshToken: seal(refreshToken, connectionSealedAt(caregiverId)),
            scope: link.scope ?? '',
            connectedAt: new Date(clock()),
          },
          {
            clinicId: link.clinicId,
            // The caregiver, by the link the clinic sent: no staff member or key made this change.
            actor: 'calendar_link',
            action: 'caregiver.calendar_connect',
            targetType: 'caregiver',
            targetId: caregiverId,
            details: { provider: link.provider, calendar_id: entry.id },
            at: new Date(clock()),
          },
        );
      } catch (error) {
        // Two consents for one calendar raced: the unique index let one through.
        if ((error as { code?: string }).code === '23505') return { outcome: 'held' };
        throw error;
      }
      if (result.outcome === 'used') throw new LinkRefused('used');
      if (result.outcome === 'held') return { outcome: 'held' };
      accessTokens.delete(caregiverId);
      apis.delete(caregiverId);
      const api = apiOfConnection({
        caregiverId,
        provider: link.provider,
        accountEmail: link.accountEmail ?? '',
      });
      if (result.stale && api) await stopChannel(api, result.stale);
      deps.changed(link.clinicId);
      return { outcome: 'connected', summary: entry.summary };
    },

    /**
     * `DELETE …/calendar-connection`: the push channel stopped (with the connection's own token,
     * while it still works), the token revoked where the provider can, then everything forgotten.
     */
    async disconnect(
      clinicId: number,
      caregiverId: number,
      serviceAccount: CalendarProvider | null,
      actor: string,
    ) {
      await requireClinicCaregiver(repository.db, clinicId, caregiverId);
      const connection = await repository.findConnection(caregiverId);
      const sync = await repository.findSync(caregiverId);
      const api = connection ? apiOfConnection(connection) : serviceAccount;
      if (sync?.channelId && sync.channelResourceId && api) {
        await stopChannel(api, {
          channelId: sync.channelId,
          resourceId: sync.channelResourceId,
          calendarId: sync.calendarId,
        });
      }
      const oauth = connection ? oauthOf(connection.provider) : null;
      if (connection && oauth) {
        try {
          await oauth.revoke(open(connection.refreshToken, connectionSealedAt(caregiverId)));
        } catch (error) {
          // Forgotten here all the same; the caregiver can remove Marpe in their account.
          log.warn({ error: (error as Error).message }, 'calendar connection: revoke failed');
        }
      }
      await repository.disconnect(caregiverId, {
        clinicId,
        actor,
        action: 'caregiver.calendar_disconnect',
        targetType: 'caregiver',
        targetId: caregiverId,
        details: {
          provider: connection?.provider ?? 'google',
          calendar_id: sync?.calendarId ?? connection?.calendarId ?? null,
        },
        at: new Date(clock()),
      });
      accessTokens.delete(caregiverId);
      apis.delete(caregiverId);
      deps.changed(clinicId);
    },
  };

  async function stopChannel(api: CalendarProvider, channel: StaleChannel) {
    try {
      await api.stopChannel({
        id: channel.channelId,
        resourceId: channel.resourceId,
        calendarId: channel.calendarId,
      });
    } catch (error) {
      // It ends by itself within a week; its notifications are refused meanwhile.
      log.warn({ error: (error as Error).message }, 'calendar push channel not stopped');
    }
  }
}

export type CalendarConnections = ReturnType<typeof createCalendarConnections>;
