import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Deeper than any body Marpe takes (a form submission's answers nest a few levels). Past it,
 * validators and serialisers recurse until the stack runs out and answer 500, so the parser refuses
 * such a body before it is built.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest `{`/`[` nesting of a JSON text, counted outside strings in one pass; stops counting
 * once past `limit`. Invalid JSON is left for the parser to refuse.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's own JSON parser (prototype poisoning refused), behind a depth check. Every route's
 * `bodyLimit` still applies: the body is read as a string first.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(
        new AppError('bad_request', 400, `body: nested deeper than ${MAX_JSON_DEPTH} levels`, {
          issues: [{ path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
        }),
        undefined,
      );
      return;
    }
    parse(request, body as string, done);
  });
}
