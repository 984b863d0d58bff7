import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { buildTestApp, engines, testConfig, useTestDatabase } from './helper.js';

// The full set of security headers, recorded from @fastify/helmet 13 with our options before it
// was replaced by precomputed headers: every answer (JSON, HTML, 404, static file) must carry
// exactly these values.
const securityHeaders = {
  'content-security-policy':
    "default-src 'self';script-src 'self';script-src-attr 'none';" +
    "style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self';" +
    "connect-src 'self';frame-src 'self' https://direct.tranzila.com;object-src 'none';" +
    "base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const hsts = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' };

/** The headers of an answer with the per-response values (date, token) masked. */
function stableHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const masked: Record<string, unknown> = { ...headers, date: '<date>' };
  if (typeof masked['set-cookie'] === 'string') {
    masked['set-cookie'] = masked['set-cookie'].replace(
      /^(__Host-)?XSRF-TOKEN=[\w-]{43}\.[\w-]{43};/,
      '$1XSRF-TOKEN=<token>;',
    );
  }
  return masked;
}

function cspDirectives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function xsrfCookieOf(setCookie: string | string[] | undefined): string | undefined {
  return [setCookie ?? []].flat().find((c) => /^(__Host-)?XSRF-TOKEN=/.test(c));
}

describe.each(engines)('HTTP platform (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let webDistDir: string;
  let app: App;
  let httpsApp: App;

  beforeAll(async () => {
    webDistDir = await mkdtemp(path.join(tmpdir(), 'marpe-http-'));
    await mkdir(path.join(webDistDir, 'assets'));
    await writeFile(
      path.join(webDistDir, 'index.html'),
      '<!doctype html><html><head><!--marpe:head--><title>t</title></head><body></body></html>',
    );
    await writeFile(path.join(webDistDir, 'assets', 'a.js'), 'x\n');
    // The card frame's origin (frame-src) comes from the configuration; pinned to Tranzila's here.
    const frame = { CARD_FRAME_BASE_URL: 'https://direct.tranzila.com' };
    app = await buildTestApp(database.current.handle, { config: testConfig(frame), webDistDir });
    app.get(
      '/api/test/own-csp',
      {
        config: {
          contentSecurityPolicy: { scriptSrc: ["'self'", 'https://connect.facebook.net'] },
        },
      },
      () => ({ ok: true }),
    );
    httpsApp = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://app.example.com', ...frame }),
      webDistDir,
    });
    await Promise.all([app.ready(), httpsApp.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), httpsApp?.close()]);
    await rm(webDistDir, { recursive: true, force: true });
  });

  describe('full header sets (unchanged since @fastify/helmet)', () => {
    const common = { date: '<date>', connection: 'keep-alive' };

    it('on a JSON answer', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(stableHeaders(response.headers)).toEqual({
        ...securityHeaders,
        ...common,
        'content-type': 'application/json; charset=utf-8',
        'content-length': '15',
        'set-cookie': 'XSRF-TOKEN=<token>; Path=/; SameSite=Strict',
      });
    });

    it('on a JSON 404', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/nope' });
      expect(stableHeaders(response.headers)).toEqual({
        ...securityHeaders,
        ...common,
        'content-type': 'application/json; charset=utf-8',
        'content-length': '62',
        'set-cookie': 'XSRF-TOKEN=<token>; Path=/; SameSite=Strict',
      });
    });

    it('on the HTML page, at / and at a client-side route', async () => {
      for (const url of ['/', '/some/page']) {
        const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(stableHeaders(response.headers)).toEqual({
          ...securityHeaders,
          ...common,
          'cache-control': 'no-cache',
          'content-type': 'text/html; charset=utf-8',
          'content-length': String(Buffer.byteLength(response.body)),
          'set-cookie': 'XSRF-TOKEN=<token>; Path=/; SameSite=Strict',
          // Compressed when the client accepts it (platform/http/compress-html.ts).
          vary: 'Accept-Encoding',
        });
      }
    });

    it('on a static file', async () => {
      const response = await app.inject({ method: 'GET', url: '/assets/a.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject(securityHeaders);
    });

    it('over https: the same plus HSTS, and a Secure cookie', async () => {
      const json = await httpsApp.inject({ method: 'GET', url: '/api/health' });
      expect(stableHeaders(json.headers)).toEqual({
        ...securityHeaders,
        ...hsts,
        ...common,
        'content-type': 'application/json; charset=utf-8',
        'content-length': '15',
        'set-cookie': '__Host-XSRF-TOKEN=<token>; Path=/; Secure; SameSite=Strict',
      });
      const html = await httpsApp.inject({ method: 'GET', url: '/some/page' });
      expect(stableHeaders(html.headers)).toEqual({
        ...securityHeaders,
        ...hsts,
        ...common,
        'cache-control': 'no-cache',
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(html.body)),
        'set-cookie': '__Host-XSRF-TOKEN=<token>; Path=/; Secure; SameSite=Strict',
        vary: 'Accept-Encoding',
      });
    });

    it('lets one route replace CSP directives, and only that route', async () => {
      const own = await app.inject({ method: 'GET', url: '/api/test/own-csp' });
      expect(own.headers['content-security-policy']).toBe(
        securityHeaders['content-security-policy'].replace(
          "script-src 'self';",
          "script-src 'self' https://connect.facebook.net;",
        ),
      );
      expect(own.headers['x-frame-options']).toBe('DENY');
      const other = await app.inject({ method: 'GET', url: '/api/health' });
      expect(other.headers['content-security-policy']).toBe(
        securityHeaders['content-security-policy'],
      );
    });

    it('on the API docs', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.headers).toMatchObject(securityHeaders);
    });
  });

  describe('security headers', () => {
    it('sends a CSP without inline scripts, and the other headers', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      const csp = cspDirectives(response.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp.get('frame-src')).toEqual(["'self'", 'https://direct.tranzila.com']);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });

    it('sends security headers on 404s too', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/missing' });
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    });

    it('adds HSTS only when PUBLIC_ORIGIN is https', async () => {
      const response = await httpsApp.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });
  });

  describe('XSRF-TOKEN cookie', () => {
    it('is set on an /api answer when the request has none', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      const cookie = xsrfCookieOf(response.headers['set-cookie']);
      expect(cookie).toBeDefined();
      const value = cookie?.split(';')[0]?.slice('XSRF-TOKEN='.length) ?? '';
      // 32 random bytes and their 32-byte signature.
      const [random = '', signature = ''] = value.split('.');
      expect(Buffer.from(random, 'base64url')).toHaveLength(32);
      expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).not.toMatch(/HttpOnly/i);
      expect(cookie).not.toMatch(/Secure/);
    });

    it('is a fresh random value on every answer, past the pre-generated batch', async () => {
      const values = new Set<string>();
      for (let i = 0; i < 300; i++) {
        const response = await app.inject({ method: 'GET', url: '/api/nope' });
        const cookie = xsrfCookieOf(response.headers['set-cookie']) ?? '';
        values.add(cookie.split(';')[0] ?? '');
      }
      expect(values.size).toBe(300);
    });

    it('is set on /api errors as well', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/missing' });
      expect(xsrfCookieOf(response.headers['set-cookie'])).toBeDefined();
    });

    it('is set on the HTML page, so the first call of a fresh tab can carry it', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/login/1',
        headers: { accept: 'text/html' },
      });
      expect(xsrfCookieOf(response.headers['set-cookie'])).toBeDefined();
    });

    it('is not set again when the request already carries one', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/health',
        cookies: { 'XSRF-TOKEN': 'existing' },
      });
      expect(xsrfCookieOf(response.headers['set-cookie'])).toBeUndefined();
    });

    it('is a Secure __Host- cookie when PUBLIC_ORIGIN is https, and checked under that name', async () => {
      const response = await httpsApp.inject({ method: 'GET', url: '/api/health' });
      const cookie = xsrfCookieOf(response.headers['set-cookie']) ?? '';
      expect(cookie).toMatch(/^__Host-XSRF-TOKEN=[^;]+; Path=\/; Secure; SameSite=Strict$/);
      const token = cookie.split(';')[0]?.split('=')[1] ?? '';
      const post = (cookies: Record<string, string>) =>
        httpsApp.inject({
          method: 'POST',
          url: '/api/patient-auth/two-factor',
          cookies,
          headers: { 'x-xsrf-token': token },
          payload: {},
        });
      // A plain-named cookie (which a sub-domain could set) does not pass over https.
      expect((await post({ 'XSRF-TOKEN': token })).json()).toMatchObject({ code: 'xsrf' });
      expect((await post({ '__Host-XSRF-TOKEN': token })).statusCode).toBe(400);
    });

    it('is checked on the route that matched, whatever spelling of the path reached it', async () => {
      for (const url of ['/%61pi/patient-auth/two-factor', '/api/patient-auth/%74wo-factor']) {
        const response = await app.inject({ method: 'POST', url, payload: {} });
        expect(response.statusCode, url).toBe(403);
        expect(response.json(), url).toMatchObject({ code: 'xsrf' });
      }
    });

    it('is not set on static files', async () => {
      const response = await app.inject({ method: 'GET', url: '/assets/a.js' });
      expect(xsrfCookieOf(response.headers['set-cookie'])).toBeUndefined();
    });
  });

  describe('API docs', () => {
    it('serves Swagger UI at /api/docs', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('swagger-ui');
      // Only external scripts, so the page runs under script-src 'self'.
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    });

    it('serves its scripts from the same origin', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/docs/static/swagger-initializer.js',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/javascript/);
    });

    it('serves the OpenAPI document at /api/docs/json', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(response.statusCode).toBe(200);
      const document = response.json();
      expect(document.openapi).toMatch(/^3\./);
      expect(document.paths['/api/health'].get.responses['200']).toBeDefined();
    });
  });
});
