import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDataKey, type Config } from './config.js';

export const DATA_KEY_BYTES = 32;

/**
 * The key that encrypts sensitive data at rest. DATA_KEY wins; otherwise (never in production,
 * config refuses that) the key kept in DATA_DIR/data-key is used, created on first start.
 */
export async function loadDataKey(config: Pick<Config, 'dataKey' | 'dataDir'>): Promise<Buffer> {
  if (config.dataKey) return config.dataKey;

  const file = path.join(config.dataDir, 'data-key');
  const existing = await readKeyFile(file);
  if (existing) return existing;

  await mkdir(config.dataDir, { recursive: true });
  const key = randomBytes(DATA_KEY_BYTES);
  try {
    // 'wx': never overwrite a key that may already encrypt data.
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another instance sharing DATA_DIR created it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const created = await readKeyFile(file);
      if (created) return created;
    }
    throw error;
  }
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseDataKey(text);
  if (!key) throw new Error(`${file} does not hold a 32-byte key (base64 or 64 hex characters)`);
  return key;
}
