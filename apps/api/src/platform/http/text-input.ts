import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidField } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body keys whose text is the patient's own (form answers): lone surrogates in it
     * are dropped, as the form engine's clean-up drops them, instead of refusing the request.
     */
    dropLoneSurrogates?: readonly string[];
  }
}

/** A UTF-16 surrogate without its pair: `u` mode matches only unpaired ones. */
const loneSurrogate = /\p{Cs}/u;
const loneSurrogates = /\p{Cs}/gu;

export const LONE_SURROGATE_MESSAGE = 'Not valid text: a lone UTF-16 surrogate';

/**
 * The path (`a.b.0`) of the first key or string under `value` that holds a lone surrogate, or
 * null. With `drop`, such strings (not keys) under those top-level keys are cleaned in place.
 */
function findLoneSurrogate(
  value: unknown,
  path: string[],
  drop: ReadonlySet<string>,
): string | null {
  if (typeof value === 'string') return loneSurrogate.test(value) ? path.join('.') : null;
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const at = [...path, key];
    if (loneSurrogate.test(key)) return at.join('.');
    if (typeof item === 'string' && path.length > 0 && drop.has(path[0] ?? '')) {
      if (loneSurrogate.test(item)) {
        (value as Record<string, unknown>)[key] = item.replace(loneSurrogates, '');
      }
      continue;
    }
    const found = findLoneSurrogate(item, at, drop);
    if (found !== null) return found;
  }
  return null;
}

const NONE = new Set<string>();

/**
 * Text that is not valid Unicode (a lone surrogate, which JSON's `\udfff` escape can carry) would
 * reach the database, whose UTF-8 refuses it, and answer 500. Every route's body, query and path
 * parameters are checked before validation: 400 naming the field, or, for the keys a route lists
 * in `dropLoneSurrogates`, cleaned.
 */
export function refuseLoneSurrogates(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const drop = request.routeOptions.config.dropLoneSurrogates;
    const sources: [unknown, ReadonlySet<string>][] = [
      [request.body, drop ? new Set(drop) : NONE],
      [request.query, NONE],
      [request.params, NONE],
    ];
    for (const [value, dropped] of sources) {
      const path = findLoneSurrogate(value, [], dropped);
      if (path !== null) throw invalidField(path || 'body', LONE_SURROGATE_MESSAGE);
    }
  });
}
