import { randomBytes, randomFillSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { isApiPath } from './api-path.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

const TOKEN_BYTES = 32;
const TOKENS_PER_FILL = 256;

/**
 * Random tokens cut from a pool filled 8 KiB at a time: one `randomBytes(32)` call per request
 * cost as much as the rest of a small answer. Every byte comes from the CSPRNG and is handed
 * out once; the pool is refilled in place (the tokens already handed out are copies).
 */
function tokenSource(): () => string {
  const pool = randomBytes(TOKEN_BYTES * TOKENS_PER_FILL);
  let offset = 0;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const token = pool.toString('base64url', offset, offset + TOKEN_BYTES);
    offset += TOKEN_BYTES;
    return token;
  };
}

/**
 * The Set-Cookie attributes, written once per configuration in the order the generic serializer
 * used: `XSRF-TOKEN=<token>; Path=/[; Secure]; SameSite=Strict`. Not HttpOnly on purpose: the
 * SPA copies the cookie into the X-XSRF-TOKEN header (double-submit).
 */
function xsrfCookieAttributes(config: Pick<Config, 'isHttps'>): string {
  return `; Path=/${config.isHttps ? '; Secure' : ''}; SameSite=Strict`;
}

/** Hands the SPA its anti-forgery cookie on every /api answer to a request that lacks it. */
export function registerXsrfCookie(app: FastifyInstance, config: Pick<Config, 'isHttps'>): void {
  const nextToken = tokenSource();
  const attributes = xsrfCookieAttributes(config);
  // onSend, after @fastify/cookie's own onSend hook: the header is appended to any cookies the
  // route set, on success and error answers alike. A sync hook: no promise per request.
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (isApiPath(request.url) && !request.cookies[XSRF_COOKIE]) {
      reply.header('set-cookie', `${XSRF_COOKIE}=${nextToken()}${attributes}`);
    }
    done();
  });
}
