import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDataKey } from './crypto.js';

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
