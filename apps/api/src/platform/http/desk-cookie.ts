import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * The desk session's cookie: httpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it), Path=/; over https `__Host-` prefixed and Secure, so a sibling sub-domain or a
 * plain-http answer cannot plant or overwrite it.
 */
export function deskCookieName(config: Pick<Config, 'isHttps'>): string {
  return config.isHttps ? '__Host-marpe_desk' : 'marpe_desk';
}

export function staffCookie(config: Pick<Config, 'isHttps'>) {
  const name = deskCookieName(config);
  const attributes = {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.isHttps,
  } as const;
  return {
    name,
    read: (request: FastifyRequest): string | null => request.cookies[name] ?? null,
    /** Lives as long as the session may (its absolute end); the server ends it sooner when idle. */
    set: (reply: FastifyReply, token: string, maxAgeMs: number) =>
      reply.setCookie(name, token, { ...attributes, maxAge: Math.floor(maxAgeMs / 1000) }),
    clear: (reply: FastifyReply) => reply.clearCookie(name, attributes),
  };
}

export type StaffCookie = ReturnType<typeof staffCookie>;
