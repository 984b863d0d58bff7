import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { buildTestApp, engines, useTestDatabase } from './helper.js';

describe.each(engines)('health (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('answers 200 ok on liveness and readiness when the database answers', async () => {
    for (const url of ['/api/health', '/api/health/ready', '/api/health/live']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ status: 'ok' });
    }
  });

  it('is not ready while this build has migrations the database lacks', async () => {
    const { db } = database.current.handle;
    // As if another instance had not finished migrating: the newest migration is missing.
    const result = await db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations) RETURNING hash, created_at`,
    );
    const [removed] = (result as unknown as { rows: { hash: string; created_at: string }[] }).rows;
    const fresh = await buildTestApp(database.current.handle);
    try {
      const response = await fresh.inject({ method: 'GET', url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        code: 'service_unavailable',
        message: 'The database migrations are not applied yet',
      });
      expect((await fresh.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      await db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${removed?.hash}, ${removed?.created_at})`,
      );
      expect((await fresh.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(
        200,
      );
    } finally {
      await fresh.close();
    }
  });

  it('answers 503 on readiness while draining, and still serves requests and liveness', async () => {
    const draining = await buildTestApp(database.current.handle);
    try {
      draining.health.drain();
      for (const url of ['/api/health', '/api/health/ready']) {
        const response = await draining.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(503);
        expect(response.json()).toEqual({
          code: 'service_unavailable',
          message: 'The server is shutting down',
        });
      }
      expect((await draining.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(
        200,
      );
      expect((await draining.inject({ method: 'GET', url: '/api/clinics/1' })).statusCode).not.toBe(
        503,
      );
    } finally {
      await draining.close();
    }
  });

  // Last in the file: it closes the suite's database.
  it('answers 503 service_unavailable once the database is gone; liveness stays 200', async () => {
    await database.current.handle.close();
    const response = await get('/api/health/ready');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      code: 'service_unavailable',
      message: 'The database is not reachable',
    });
    expect((await get('/api/health')).statusCode).toBe(503);
    expect((await get('/api/health/live')).statusCode).toBe(200);
  });
});
