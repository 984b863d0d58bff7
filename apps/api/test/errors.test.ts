import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../src/app.js';
import { AppError } from '../src/platform/errors.js';
import { buildTestApp, engines, useTestDatabase, xsrfPair } from './helper.js';

describe.each(engines)('error answers (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let xsrf: Awaited<ReturnType<typeof xsrfPair>>;

  /** A POST the way the SPA sends it: with the anti-forgery cookie and header. */
  const echo = (options: { headers?: Record<string, string>; payload: unknown }) =>
    app.inject({
      method: 'POST',
      url: '/api/test/echo',
      cookies: xsrf.cookies,
      headers: { ...xsrf.headers, ...options.headers },
      payload: options.payload as string | object,
    });

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    // Routes that exist only in this test, registered on the built app before ready().
    app.post(
      '/api/test/echo',
      {
        schema: {
          body: z.object({
            name: z.string().min(2),
            address: z.object({ city: z.string() }),
          }),
        },
      },
      async (request) => ({ hello: request.body.name }),
    );
    app.get('/api/test/crash', async () => {
      throw new Error('secret connection string postgres://user:pw@db/marpe');
    });
    app.get('/api/test/app-error', async () => {
      throw new AppError('conflict', 409, 'Already booked', { appointmentId: 7 });
    });
    app.get('/api/test/limited', { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, () => ({
      ok: true,
    }));
    app.get('/api/test/duplicate', async () => {
      // A real unique violation raised by the database, as a repository would meet it.
      await database.current.handle.db.transaction(async (tx) => {
        await tx.execute(sql`CREATE TEMP TABLE t_unique (x int UNIQUE) ON COMMIT DROP`);
        await tx.execute(sql`INSERT INTO t_unique VALUES (1), (1)`);
      });
      return { ok: true };
    });
    app.get('/api/test/nul', async () => {
      // U+0000 in text: PostgreSQL refuses it (22021 on the server, 22P05 in PGlite's encoding).
      await database.current.handle.db.execute(sql`SELECT ${'a\u0000b'}::text`);
      return { ok: true };
    });
    app.get('/api/test/check', async () => {
      await database.current.handle.db.transaction(async (tx) => {
        await tx.execute(sql`CREATE TEMP TABLE t_check (x int CHECK (x > 0)) ON COMMIT DROP`);
        await tx.execute(sql`INSERT INTO t_check VALUES (-1)`);
      });
      return { ok: true };
    });
    await app.ready();
    xsrf = await xsrfPair(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers an unknown /api path with 404 not_found', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 'not_found',
      message: 'Route GET /api/nope not found',
    });
  });

  it('answers any unknown path with JSON 404 when no web app is served', async () => {
    const response = await app.inject({ method: 'POST', url: '/somewhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const response = await echo({
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "ab",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'bad_request', message: expect.any(String) });
  });

  it('answers an unsupported content type with 400 bad_request', async () => {
    const response = await echo({
      headers: { 'content-type': 'application/xml' },
      payload: '<name>ab</name>',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'bad_request' });
  });

  it('answers a body over the limit with 413 bad_request', async () => {
    const response = await echo({
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000), address: { city: 'a' } }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'bad_request' });
  });

  it('answers a schema mismatch with 400 validation_failed naming each field', async () => {
    const response = await echo({
      payload: { name: 'a', address: {} },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    const paths = body.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'address.city']));
    for (const issue of body.details.issues) expect(issue.message).toEqual(expect.any(String));
    expect(body.message).toContain('address.city');
  });

  it('lets a valid request through', async () => {
    const response = await echo({
      payload: { name: 'Dana', address: { city: 'Haifa' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ hello: 'Dana' });
  });

  it('answers an unexpected error with 500 and no internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal_error', message: 'Internal server error' });
    expect(response.body).not.toMatch(/secret|postgres|stack|at /);
    // Headers set before the failure survive the error handler.
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(String(response.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=/);
  });

  it('answers an AppError with its status, code, message and details', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'conflict',
      message: 'Already booked',
      details: { appointmentId: 7 },
    });
  });

  it('answers a database unique violation with 409 conflict', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/duplicate' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ code: 'conflict', message: expect.any(String) });
  });

  it('answers text the database cannot store, and a check violation, with 400, not 500', async () => {
    for (const url of ['/api/test/nul', '/api/test/check']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ code: 'bad_request', message: expect.any(String) });
    }
  });

  it('answers a route rate limit with 429 too_many_requests', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/test/limited' });
    expect(first.statusCode).toBe(200);
    const second = await app.inject({ method: 'GET', url: '/api/test/limited' });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ code: 'too_many_requests', message: expect.any(String) });
    expect(second.headers['retry-after']).toBeDefined();
  });
});
