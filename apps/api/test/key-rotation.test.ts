import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { applyReceipt, recordAccepted } from '../src/modules/messaging/deliveries.js';
import { findClient, saveClient, shaamKey } from '../src/modules/shaam/shaam-repository.js';
import {
  findSendingCredentials,
  saveConnection,
  whatsappTokenKey,
} from '../src/modules/messaging/whatsapp-connections.js';
import { dataKeyId, sealingKey } from '../src/platform/crypto.js';
import { clinics } from '../src/platform/db/schema.js';
import { rotateDataKey, sealedColumns } from '../src/platform/key-rotation.js';
import { clinicRow } from './fixtures.js';
import { buildTestApp, engines, testConfig, useTestDatabase, xsrfPair } from './helper.js';

/**
 * DATA_KEY rotation end to end: data written under an old key, read through DATA_KEY_PREVIOUS,
 * re-encrypted by `rotateDataKey`, then read with the new key alone.
 */
describe.each(engines)('rotating DATA_KEY (%s)', (engine) => {
  const database = useTestDatabase(engine);
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let clinicId: number;
  let requestId: number;

  const appWith = (dataKey: Buffer, previousDataKeys: Buffer[] = []) =>
    buildTestApp(database.current.handle, {
      config: testConfig({ PUBLIC_ORIGIN: 'https://marpe.example' }),
      dataKey,
      previousDataKeys,
      outboxPollIntervalMs: 3_600_000,
    });

  const sealedValues = async () => {
    const values: string[] = [];
    for (const { table, column } of sealedColumns) {
      const result = await database.current.handle.db.execute(
        sql`SELECT ${sql.identifier(column)} AS value FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} IS NOT NULL`,
      );
      values.push(...(result as unknown as { rows: { value: string }[] }).rows.map((r) => r.value));
    }
    return values;
  };

  const submission = (app: App, key: string) =>
    app.inject({
      method: 'GET',
      url: `/api/integration/form-requests/${requestId}/submission`,
      headers: { authorization: `Bearer ${key}` },
    });

  let apiKey: string;

  beforeAll(async () => {
    const db = database.current.handle.db;
    const [clinic] = await db.insert(clinics).values(clinicRow('מרפאה')).returning();
    clinicId = clinic?.id ?? 0;
    const app = await appWith(oldKey);
    await app.ready();
    apiKey = (await app.apiKeys.create(clinicId, 'pms', 'test')).key;
    const call = (url: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/api/integration${url}`,
        payload,
        headers: { authorization: `Bearer ${apiKey}` },
      });
    const template = (
      await call('/form-templates', {
        name: 'שאלון',
        schema: [
          {
            title: 'פרטים',
            next_button: 'שליחה',
            fields: [{ name: 'full_name', type: 'text', title: 'שם' }],
          },
        ],
      })
    ).json<{ id: number }>();
    const link = (
      await call('/form-requests', { template_id: template.id, init_data: { a: '1' } })
    ).json<{ id: number; url: string }>();
    requestId = link.id;
    const token = link.url.slice(link.url.indexOf('/q/') + 3);
    const xsrf = await xsrfPair(app);
    const submitted = await app.inject({
      method: 'POST',
      url: '/api/submit',
      payload: { token, inputData: { full_name: 'דנה לוי' } },
      ...xsrf,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(
      (
        await call('/webhooks', {
          url: 'https://hooks.example/marpe',
          secret: 'whsec_old-secret-1234',
        })
      ).statusCode,
    ).toBe(201);
    await saveConnection(db, whatsappTokenKey(oldKey), clinicId, {
      wabaId: 'waba',
      phoneNumberId: '123',
      businessId: 'biz',
      accessToken: 'business-token',
      connectedAt: new Date(),
    });
    await saveClient(db, shaamKey(oldKey), clinicId, {
      clientId: 'client',
      clientSecret: 'shaam-secret',
    });
    await app.outbox.enqueue(db, { topic: 'rotation.test', payload: { note: 'queued' } });
    // An SMS whose WhatsApp fallback waits, sealed, for its receipt.
    await recordAccepted(
      db,
      sealingKey({ current: oldKey, previous: [] }, 'outbox'),
      { provider: 'twilio', providerMessageId: 'SM-rotation' },
      { outboxId: 1, clinicId, kind: 'reminder', ref: null },
      new Date(),
      { clinicId, to: '0501234567', body: 'תזכורת', kind: 'reminder' },
    );
    await app.close();
  });

  afterAll(async () => {
    await database.current.handle.db.execute(sql`DELETE FROM outbox`);
  });

  it('reads the old key through DATA_KEY_PREVIOUS, re-encrypts everything, then needs only the new key', async () => {
    const db = database.current.handle.db;
    const before = await sealedValues();
    expect(before.length).toBeGreaterThanOrEqual(7);
    expect(before.every((v) => v.startsWith(`v2.${dataKeyId(oldKey)}.`))).toBe(true);

    // New key in use, old one still read: everything works before the rotation.
    const during = await appWith(newKey, [oldKey]);
    expect((await submission(during, apiKey)).json()).toMatchObject({
      values: { full_name: 'דנה לוי' },
    });
    await during.close();

    const results = await rotateDataKey(db, { current: newKey, previous: [oldKey] });
    expect(results.reduce((n, r) => n + r.rotated, 0)).toBe(before.length);
    const after = await sealedValues();
    expect(after.every((v) => v.startsWith(`v2.${dataKeyId(newKey)}.`))).toBe(true);
    // A second run finds nothing to do.
    const again = await rotateDataKey(db, { current: newKey, previous: [oldKey] });
    expect(again.reduce((n, r) => n + r.rotated, 0)).toBe(0);

    // The old key gone: every value reads with the new key alone.
    const only = await appWith(newKey);
    expect((await submission(only, apiKey)).json()).toMatchObject({
      values: { full_name: 'דנה לוי' },
    });
    await only.close();
    expect(await findSendingCredentials(db, whatsappTokenKey(newKey), clinicId)).toMatchObject({
      accessToken: 'business-token',
    });
    expect(await findClient(db, shaamKey(newKey), clinicId)).toMatchObject({
      clientSecret: 'shaam-secret',
    });
    // The fallback, bound to its provider and message id, opens with the new key alone.
    const receipt = await applyReceipt(
      db,
      sealingKey({ current: newKey, previous: [] }, 'outbox'),
      {
        provider: 'twilio',
        providerMessageId: 'SM-rotation',
        state: 'undelivered',
        errorCode: '30003',
      },
      new Date(),
    );
    expect(receipt).toMatchObject({ kind: 'moved', fallback: { body: 'תזכורת' } });
  });

  it('refuses a value copied into another row', async () => {
    const db = database.current.handle.db;
    const app = await appWith(newKey);
    const [other] = await db.insert(clinics).values(clinicRow('מרפאה אחרת')).returning();
    await db.execute(sql`
      INSERT INTO whatsapp_connections (clinic_id, waba_id, phone_number_id, business_id, access_token, connected_at)
      SELECT ${other?.id}, waba_id, phone_number_id, business_id, access_token, connected_at
      FROM whatsapp_connections WHERE clinic_id = ${clinicId}`);
    await expect(
      findSendingCredentials(db, whatsappTokenKey(newKey), other?.id ?? 0),
    ).rejects.toThrow();
    await app.close();
  });
});
