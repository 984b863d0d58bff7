import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';

/** The card provider's payment frame. */
export const CARD_FRAME_ORIGIN = 'https://direct.tranzila.com';

// No 'unsafe-inline' scripts anywhere; styles allow it because MUI/emotion inject <style> tags.
// Routes needing more (the WhatsApp page and Meta's SDK) replace directives per route: see
// `registerSecurityHeaders` below.
export const contentSecurityPolicyDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  frameSrc: ["'self'", CARD_FRAME_ORIGIN],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const satisfies Record<string, readonly string[]>;

/** Directive name (camelCase, as in `contentSecurityPolicyDirectives`) to its sources. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Directives that replace the global ones for this route only, e.g.
     * `config: { contentSecurityPolicy: { scriptSrc: ["'self'", 'https://connect.facebook.net'] } }`.
     * A directive set to `[]` is sent without sources; the others keep their global value.
     */
    contentSecurityPolicy?: CspDirectives;
  }
}

const cspDirectiveName = /^[a-z][a-zA-Z0-9-]*$/;
// Keywords that only mean something quoted; unquoted they would silently name a host.
const mustBeQuoted = new Set(['self', 'none', 'unsafe-inline', 'unsafe-eval', 'strict-dynamic']);

/**
 * The Content-Security-Policy header value: the global directives with `overrides` replacing
 * whole directives. Written exactly as helmet wrote it (`name src src;name src`), and computed
 * once per route at start-up, never per request.
 */
export function contentSecurityPolicy(overrides: CspDirectives = {}): string {
  const directives: CspDirectives = { ...contentSecurityPolicyDirectives, ...overrides };
  return Object.entries(directives)
    .map(([name, sources]) => {
      if (!cspDirectiveName.test(name)) throw new Error(`Invalid CSP directive name: ${name}`);
      for (const source of sources) {
        if (/[;,\s]/.test(source) || source === '' || mustBeQuoted.has(source)) {
          throw new Error(`Invalid CSP source for ${name}: ${JSON.stringify(source)}`);
        }
      }
      const dashed = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      return sources.length === 0 ? dashed : `${dashed} ${sources.join(' ')}`;
    })
    .join(';');
}

/**
 * Every header @fastify/helmet 13 sent with our options, with the same values. They never vary
 * per request, so they are built once here instead of by helmet's middleware on each request
 * (which re-parsed the whole configuration every time).
 */
export function securityHeaders(config: Pick<Config, 'isHttps'>): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy(),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // Only when PUBLIC_ORIGIN is https: plain-http runs (local, demo) have no use for it.
    ...(config.isHttps
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Sends the security headers on every answer (API, HTML, static files, 404s and errors), from an
 * onRequest hook so that handlers can still replace one. Must be called before the routes are
 * registered.
 *
 * A route with `config.contentSecurityPolicy` gets its own header, computed here once, through
 * a route-level onRequest hook (Fastify runs those after the global ones). An SPA page that
 * needs its own policy (the WhatsApp page and Meta's SDK) becomes such a route: register its
 * path with the config and let the handler answer through the navigation fallback that
 * `registerWebApp` returns. Anything else can set
 * `reply.header('content-security-policy', policy)` with a `contentSecurityPolicy({…})`
 * computed at start-up.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps'>,
): void {
  const headers = securityHeaders(config);
  // Sync callback style: an async hook would cost a promise and a microtask per request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onRoute', (routeOptions) => {
    const overrides = routeOptions.config?.contentSecurityPolicy;
    if (overrides === undefined) return;
    const policy = contentSecurityPolicy(overrides);
    const setRoutePolicy: onRequestHookHandler = (_request, reply, done) => {
      reply.header('content-security-policy', policy);
      done();
    };
    const own = routeOptions.onRequest;
    routeOptions.onRequest = own === undefined ? [setRoutePolicy] : [own, setRoutePolicy].flat();
  });
}
