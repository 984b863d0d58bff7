import { createHmac, randomBytes, randomFillSync } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { deriveKey, safeEqual } from '../crypto.js';
import { AppError } from '../errors.js';
import { isApiPath } from './api-path.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
/**
 * The name over https: a `__Host-` cookie must be Secure, for Path=/ and without Domain, so a
 * sibling sub-domain or a plain-http answer cannot plant or overwrite it.
 */
export const XSRF_HOST_COOKIE = `__Host-${XSRF_COOKIE}`;
export const XSRF_HEADER = 'x-xsrf-token';

export function xsrfCookieName(config: Pick<Config, 'isHttps'>): string {
  return config.isHttps ? XSRF_HOST_COOKIE : XSRF_COOKIE;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts a state-changing route (a provider's server-to-server callback only). */
    xsrf?: boolean;
  }
  interface FastifyInstance {
    /**
     * Whether the request carries the anti-forgery token (the X-XSRF-TOKEN header equal to a
     * validly signed cookie): for routes exempt from the check that a cookie session may still
     * reach (the clinic API, called by the desk as well as by keys).
     */
    hasValidXsrf: (request: FastifyRequest) => boolean;
  }
}

const RANDOM_BYTES = 32;
const TOKENS_PER_FILL = 256;
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Random values cut from a pool filled 8 KiB at a time: one `randomBytes(32)` call per request
 * cost as much as the rest of a small answer. Every byte comes from the CSPRNG and is handed
 * out once; the pool is refilled in place (the values already handed out are copies).
 */
function randomSource(): () => string {
  const pool = randomBytes(RANDOM_BYTES * TOKENS_PER_FILL);
  let offset = 0;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const value = pool.toString('base64url', offset, offset + RANDOM_BYTES);
    offset += RANDOM_BYTES;
    return value;
  };
}

/**
 * Signed double-submit (OWASP CSRF cheat sheet): the token is `<random>.<HMAC(key, random)>`,
 * so a value planted by a sibling sub-domain or a network attacker without the key is refused.
 * It is not bound to the patient's session because sessions travel in the Authorization
 * header, which a forged cross-site request cannot set; see docs/decisions/007-xsrf.md.
 */
export function createXsrfTokens(key: Buffer) {
  const nextRandom = randomSource();
  const sign = (random: string) => createHmac('sha256', key).update(random).digest('base64url');
  return {
    issue(): string {
      const random = nextRandom();
      return `${random}.${sign(random)}`;
    },
    isValid(token: string): boolean {
      const dot = token.indexOf('.');
      if (dot <= 0 || token.length > 200) return false;
      return safeEqual(token.slice(dot + 1), sign(token.slice(0, dot)));
    },
  };
}

/**
 * The Set-Cookie attributes, written once per configuration: `XSRF-TOKEN=<token>; Path=/;
 * SameSite=Strict` over http, `__Host-XSRF-TOKEN=<token>; Path=/; Secure; SameSite=Strict` over
 * https. Not HttpOnly on purpose: the SPA copies the cookie into the X-XSRF-TOKEN header.
 */
function xsrfCookieAttributes(config: Pick<Config, 'isHttps'>): string {
  return `; Path=/${config.isHttps ? '; Secure' : ''}; SameSite=Strict`;
}

function headerValue(request: FastifyRequest): string | undefined {
  const value = request.headers[XSRF_HEADER];
  return Array.isArray(value) ? value[0] : value;
}

const refusedRequests = new WeakSet<FastifyRequest>();

export const xsrfRefused = () => new AppError('xsrf', 403, 'Missing or invalid anti-forgery token');

/** Whether the method changes state (and so needs the anti-forgery token from a browser). */
export const isStateChanging = (method: string): boolean => stateChanging.has(method);

/**
 * Hands out the anti-forgery cookie (on /api answers and on the SPA's HTML page, to requests
 * that lack a valid one) and refuses every state-changing /api call whose X-XSRF-TOKEN header
 * does not equal a validly signed XSRF-TOKEN cookie: 403 `{ code: 'xsrf' }`.
 */
export function registerXsrf(
  app: FastifyInstance,
  options: { config: Pick<Config, 'isHttps'>; dataKey: Buffer },
): void {
  const tokens = createXsrfTokens(deriveKey(options.dataKey, 'xsrf'));
  const attributes = xsrfCookieAttributes(options.config);
  const cookieName = xsrfCookieName(options.config);

  // onRequest runs after routing: the route's config (the exemption) is known, the body not yet
  // read. The decision is on the route that matched, never on the raw URL: `/%61pi/…` reaches
  // `/api/…` once decoded, and an unmatched URL (404) changes nothing.
  const hasValidXsrf = (request: FastifyRequest): boolean => {
    const cookie = request.cookies[cookieName];
    const header = headerValue(request);
    return Boolean(cookie && header && safeEqual(cookie, header) && tokens.isValid(cookie));
  };
  app.decorate('hasValidXsrf', hasValidXsrf);
  app.addHook('onRequest', (request, _reply, done) => {
    if (
      !stateChanging.has(request.method) ||
      request.is404 ||
      request.routeOptions.config.xsrf === false
    ) {
      done();
      return;
    }
    if (hasValidXsrf(request)) {
      done();
      return;
    }
    refusedRequests.add(request);
    done(xsrfRefused());
  });

  // onSend, after @fastify/cookie's own onSend hook: the header is appended to any cookies the
  // route set, on success and error answers alike. A sync hook: no promise per request.
  app.addHook('onSend', (request, reply, _payload, done) => {
    const wantsCookie =
      !request.cookies[cookieName] ||
      // A forged or stale cookie: replace it, so the page's retry can succeed.
      refusedRequests.has(request);
    if (wantsCookie && (isApiPath(request.url) || isHtml(reply.getHeader('content-type')))) {
      reply.header('set-cookie', `${cookieName}=${tokens.issue()}${attributes}`);
    }
    done();
  });
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/html');
}
