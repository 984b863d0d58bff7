import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadedImage } from '@marpe/shared';
import type { App } from '../src/app.js';
import { insertClinics } from './fixtures.js';
import { buildTestApp, engines, useTestDatabase } from './helper.js';

/** The smallest PNG (1×1, transparent) and a JPEG's first bytes. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);

describe.each(engines)('the clinic’s images (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let app: App;
  let key: string;

  beforeAll(async () => {
    app = await buildTestApp(database.current.handle);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await database.current.reset();
    const [clinicId] = await insertClinics(database.current.handle.db, ['מרפאה']);
    key = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
  });

  const upload = (body: Buffer, contentType: string) =>
    app.inject({
      method: 'POST',
      url: '/api/integration/images',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      payload: body,
    });

  it('stores an image and serves it to anyone, cached for good', async () => {
    const created = await upload(png, 'image/png');
    expect(created.statusCode, created.body).toBe(201);
    const image = created.json<UploadedImage>();
    expect(image).toMatchObject({ content_type: 'image/png', bytes: png.length });
    expect(image.url).toMatch(/^\/api\/images\/\d+\.png$/);
    const served = await app.inject({ method: 'GET', url: image.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);
    // The same id under another extension names nothing.
    const wrong = await app.inject({ method: 'GET', url: image.url.replace('.png', '.jpg') });
    expect(wrong.statusCode).toBe(404);
    // The image URL is one the clinic's logo may take.
    const patch = await app.inject({
      method: 'PATCH',
      url: '/api/integration/clinic',
      headers: { authorization: `Bearer ${key}` },
      payload: { logo_url: image.url },
    });
    expect(patch.statusCode, patch.body).toBe(200);
  });

  it('refuses what is not the image it claims, and files over 1 MiB', async () => {
    const text = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'image/png',
    );
    expect(text.statusCode).toBe(400);
    expect(text.json<{ code: string }>().code).toBe('invalid_image');
    const mislabelled = await upload(jpeg, 'image/png');
    expect(mislabelled.statusCode).toBe(400);
    expect((await upload(jpeg, 'image/jpeg')).statusCode).toBe(201);
    const svg = await upload(Buffer.from('<svg/>'), 'image/svg+xml');
    expect(svg.statusCode).toBe(400);
    const huge = await upload(Buffer.concat([png, Buffer.alloc(1024 * 1024)]), 'image/png');
    expect(huge.statusCode).toBe(413);
  });
});
