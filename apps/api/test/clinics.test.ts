import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { clinics } from '../src/platform/db/schema.js';
import { buildTestApp, engines, useTestDatabase } from './helper.js';
import { closedWeek } from './fixtures.js';

describe.each(engines)('GET /api/clinic (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    await app.ready();
  });
  beforeEach(async () => {
    await database.current.reset();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers an empty list when there are no clinics', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/clinic' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('lists every clinic by name with only id, name, city and logo_url', async () => {
    await seedDemoClinic(database.current.handle.db);
    await database.current.handle.db.insert(clinics).values({
      name: 'א׳ מרפאה ראשונה',
      phone: '04-5550000',
      street: 'הנביאים',
      homeNumber: '3',
      city: 'חיפה',
      logoUrl: null,
      openingHours: { title: null, days: closedWeek },
    });

    const response = await app.inject({ method: 'GET', url: '/api/clinic' });
    expect(response.statusCode).toBe(200);
    const list = response.json<Record<string, unknown>[]>();
    expect(list).toHaveLength(3);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      name: 'א׳ מרפאה ראשונה',
      city: 'חיפה',
      logo_url: null,
    });
    // The two demo clinics, by name.
    expect(list[1]).toEqual({
      id: 2,
      name: 'מרפאת השיניים הכרמל',
      city: 'חיפה',
      logo_url: null,
    });
    expect(list[2]).toEqual({
      id: 1,
      name: expect.any(String),
      city: expect.any(String),
      logo_url: '/demo/clinic-logo.svg',
    });
  });
});
