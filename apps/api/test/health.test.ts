import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { buildTestApp, engines, useTestDatabase } from './helper.js';

describe.each(engines)('GET /api/health (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 200 ok when the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  // Last in the file: it closes the suite's database.
  it('answers 503 service_unavailable once the database is gone', async () => {
    await database.current.handle.close();
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      code: 'service_unavailable',
      message: expect.any(String),
    });
  });
});
