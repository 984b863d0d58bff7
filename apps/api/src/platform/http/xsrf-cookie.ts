import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { isApiPath } from './api-path.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/**
 * Hands the SPA its anti-forgery cookie on the first /api answer. Not httpOnly on purpose:
 * the SPA copies it into the X-XSRF-TOKEN header (double-submit).
 */
export function registerXsrfCookie(app: FastifyInstance, config: Pick<Config, 'isHttps'>): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url) && !request.cookies[XSRF_COOKIE]) {
      reply.setCookie(XSRF_COOKIE, randomBytes(32).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: config.isHttps,
        httpOnly: false,
      });
    }
    return payload;
  });
}
