import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCipheriv, randomBytes } from 'node:crypto';
import {
  dataKeyId,
  decryptText,
  deriveKey,
  encryptText,
  isCurrent,
  loadDataKey,
  sealedAt,
  sealingKey,
} from './crypto.js';

describe('loadDataKey', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'marpe-key-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses DATA_KEY when given, writing nothing', async () => {
    const key = Buffer.alloc(32, 1);
    expect(await loadDataKey({ dataKey: key, dataDir })).toBe(key);
  });

  it('generates DATA_DIR/data-key (0600) on first start and reuses it', async () => {
    const first = await loadDataKey({ dataKey: null, dataDir });
    expect(first).toHaveLength(32);
    const file = path.join(dataDir, 'data-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    expect(await loadDataKey({ dataKey: null, dataDir })).toEqual(first);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    writeFileSync(path.join(dataDir, 'data-key'), 'garbage');
    await expect(loadDataKey({ dataKey: null, dataDir })).rejects.toThrow(/data-key/);
  });
});

describe('encryptText / decryptText', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const at = sealedAt('form_submissions', 'answers', 7);

  it('names the data key in the ciphertext and binds it to its table, column and row', () => {
    const key = sealingKey(newKey, 'forms');
    const sealed = encryptText(key, 'שלום', at);
    expect(sealed).toMatch(new RegExp(`^v2\\.${dataKeyId(newKey)}\\.[\\w-]+$`));
    expect(dataKeyId(newKey)).toMatch(/^[0-9a-f]{8}$/);
    expect(decryptText(key, sealed, at)).toBe('שלום');
    // Copied to another row, another column or another table: refused.
    for (const elsewhere of [
      sealedAt('form_submissions', 'answers', 8),
      sealedAt('form_submissions', 'signatures', 7),
      sealedAt('form_drafts', 'answers', 7),
    ]) {
      expect(() => decryptText(key, sealed, elsewhere)).toThrow();
    }
    // Another purpose's key does not open it either.
    expect(() => decryptText(sealingKey(newKey, 'outbox'), sealed, at)).toThrow();
  });

  it('reads what the previous keys wrote, and writes with the current one only', () => {
    const before = encryptText(sealingKey(oldKey, 'forms'), 'old', at);
    const rotated = sealingKey({ current: newKey, previous: [oldKey] }, 'forms');
    expect(decryptText(rotated, before, at)).toBe('old');
    expect(isCurrent(rotated, before)).toBe(false);
    const after = encryptText(rotated, 'new', at);
    expect(isCurrent(rotated, after)).toBe(true);
    // Once the old key is dropped, its texts are refused, naming the unknown key.
    expect(() => decryptText(sealingKey(newKey, 'forms'), before, at)).toThrow(
      `unknown data key ${dataKeyId(oldKey)}`,
    );
  });

  it('still reads v1 texts (no key id, unbound) with any configured key', () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', deriveKey(oldKey, 'forms'), iv);
    const body = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()]);
    const v1 = `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    const rotated = sealingKey({ current: newKey, previous: [oldKey] }, 'forms');
    expect(decryptText(rotated, v1, at)).toBe('legacy');
    expect(() => decryptText(sealingKey(newKey, 'forms'), v1, at)).toThrow();
  });
});
