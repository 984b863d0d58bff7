import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this a compressed answer saves less than the headers it adds. */
const minimumBytes = 1024;

/**
 * Compresses an HTML answer the server wrote (the pages rendered per request, ADR 021; the static
 * build's files are compressed at build time and sent by @fastify/static as they are). Brotli at a
 * middle quality: a page of ~60 KB compresses in about a millisecond to under a fifth, and the
 * page paints one round trip sooner on a slow mobile connection (ADR 033). Each answer says it
 * varies by Accept-Encoding, so a cache never gives one client's encoding to another.
 */
export function registerHtmlCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.getHeader('content-encoding') !== undefined) return payload;
    reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < minimumBytes || request.method === 'HEAD') return payload;
    const accepted = request.headers['accept-encoding'];
    const encoding = typeof accepted === 'string' ? negotiate(accepted, ['br', 'gzip']) : undefined;
    if (encoding !== 'br' && encoding !== 'gzip') return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gzip(body, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}

function varyWithAcceptEncoding(vary: unknown): string {
  const current = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
  if (current === '*' || /(^|,)\s*accept-encoding\s*(,|$)/i.test(current)) return current;
  return current ? `${current}, Accept-Encoding` : 'Accept-Encoding';
}
