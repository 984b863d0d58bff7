import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { buildTestApp, engines, testConfig, useTestDatabase } from './helper.js';

function cspDirectives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function xsrfCookieOf(setCookie: string | string[] | undefined): string | undefined {
  return [setCookie ?? []].flat().find((c) => c.startsWith('XSRF-TOKEN='));
}

describe.each(engines)('HTTP platform (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let httpsApp: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    httpsApp = await buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://app.example.com' }),
    });
    await Promise.all([app.ready(), httpsApp.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app.close(), httpsApp.close()]);
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
      expect(Buffer.from(value, 'base64url')).toHaveLength(32);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).not.toMatch(/HttpOnly/i);
      expect(cookie).not.toMatch(/Secure/);
    });

    it('is set on /api errors as well', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/missing' });
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

    it('is Secure when PUBLIC_ORIGIN is https', async () => {
      const response = await httpsApp.inject({ method: 'GET', url: '/api/health' });
      expect(xsrfCookieOf(response.headers['set-cookie'])).toMatch(/; Secure/);
    });

    it('is not set outside /api', async () => {
      const response = await app.inject({ method: 'GET', url: '/apiary' });
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
