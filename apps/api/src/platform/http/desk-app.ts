import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NavigationFallback } from './web-app.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `/desk` and every address under it: the desk's own client-side routes. */
const deskPath = /^\/desk(?:[/?#]|$)/i;

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * Serves the desk (apps/desk/dist, ADR 037): its hashed assets under /desk/assets/ for a year
 * (pre-compressed when accepted) and its index.html for every other /desk address, never cached
 * or indexed, and never sending the address on as a referrer (an invitation's carries its token).
 * Returns the fallback that answers the desk's navigations, or null when there is no build.
 */
export async function registerDeskApp(
  app: FastifyInstance,
  deskDistDir: string | null,
): Promise<NavigationFallback | null> {
  if (deskDistDir === null) return null;
  const indexFile = path.join(deskDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ deskDistDir }, 'desk not built; /desk answers 503');
    return (request, reply) => {
      if (!deskPath.test(request.url) || request.method !== 'GET') return false;
      void reply
        .status(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The Marpe desk has not been built yet. Run `npm run build`, then start again.\n');
      return true;
    };
  }
  const html = await readFile(indexFile, 'utf8');
  const assetsDir = path.join(deskDistDir, 'assets');
  if (existsSync(assetsDir)) {
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/desk/assets/',
      decorateReply: false,
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', IMMUTABLE),
    });
  }
  const sendIndex = (reply: FastifyReply) =>
    reply
      .status(200)
      .header('cache-control', 'no-cache')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(html);
  return (request, reply) => {
    if (
      !(request.method === 'GET' || request.method === 'HEAD') ||
      !deskPath.test(request.url) ||
      request.url.toLowerCase().startsWith('/desk/assets/') ||
      !acceptsHtml(request)
    ) {
      return false;
    }
    void sendIndex(reply);
    return true;
  };
}
