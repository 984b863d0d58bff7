import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';

// No 'unsafe-inline' scripts anywhere; styles allow it because MUI/emotion inject <style> tags.
// Routes needing more (the WhatsApp page and Meta's SDK) replace directives per route: see
// `registerSecurityHeaders` below. frame-src gains the card frame's origin from the configuration
// (`cspDirectivesFor`).
export const contentSecurityPolicyDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  frameSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const satisfies Record<string, readonly string[]>;

/** Directive name (camelCase, as in `contentSecurityPolicyDirectives`) to its sources. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/** The global directives of this configuration: frame-src is 'self' plus the card frame's origin. */
export function cspDirectivesFor(config: Pick<Config, 'cardFrameBaseUrl'>): CspDirectives {
  return {
    ...contentSecurityPolicyDirectives,
    frameSrc: ["'self'", new URL(config.cardFrameBaseUrl).origin],
  };
}

/**
 * A route's `config.contentSecurityPolicy` for a page our own pages may frame (the payment
 * result page and the demo card sandbox, both shown inside the card frame). X-Frame-Options
 * follows: SAMEORIGIN.
 */
export const framableBySelf: CspDirectives = { frameAncestors: ["'self'"] };

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
export function contentSecurityPolicy(
  overrides: CspDirectives = {},
  base: CspDirectives = contentSecurityPolicyDirectives,
): string {
  const directives: CspDirectives = { ...base, ...overrides };
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
export function securityHeaders(
  config: Pick<Config, 'isHttps' | 'cardFrameBaseUrl'>,
): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy({}, cspDirectivesFor(config)),
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
 * a route-level onRequest hook (Fastify runs those after the global ones). When it replaces
 * frame-ancestors, X-Frame-Options follows ('self' → SAMEORIGIN, 'none' → DENY, else none).
 * An SPA page that needs its own policy (the WhatsApp page and Meta's SDK) becomes such a route: register its
 * path with the config and let the handler answer through the navigation fallback that
 * `registerWebApp` returns. Anything else can set
 * `reply.header('content-security-policy', policy)` with a
 * `contentSecurityPolicy({…}, cspDirectivesFor(config))` computed at start-up.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps' | 'cardFrameBaseUrl'>,
): void {
  const headers = securityHeaders(config);
  const base = cspDirectivesFor(config);
  // Sync callback style: an async hook would cost a promise and a microtask per request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onRoute', (routeOptions) => {
    const overrides = routeOptions.config?.contentSecurityPolicy;
    if (overrides === undefined) return;
    const policy = contentSecurityPolicy(overrides, base);
    const frameOptions = frameOptionsFor(overrides.frameAncestors);
    const setRoutePolicy: onRequestHookHandler = (_request, reply, done) => {
      reply.header('content-security-policy', policy);
      if (frameOptions === null) reply.removeHeader('x-frame-options');
      else if (frameOptions !== undefined) reply.header('x-frame-options', frameOptions);
      done();
    };
    const own = routeOptions.onRequest;
    routeOptions.onRequest = own === undefined ? [setRoutePolicy] : [own, setRoutePolicy].flat();
  });
}

/** X-Frame-Options for a route's own frame-ancestors: undefined keeps the global DENY. */
function frameOptionsFor(frameAncestors: readonly string[] | undefined): string | null | undefined {
  if (frameAncestors === undefined) return undefined;
  const only = frameAncestors.length === 1 ? frameAncestors[0] : undefined;
  if (only === "'self'") return 'SAMEORIGIN';
  if (only === "'none'") return 'DENY';
  // Anything else cannot be said in X-Frame-Options; browsers then follow frame-ancestors alone.
  return null;
}
