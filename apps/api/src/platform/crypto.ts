import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDataKey, type Config } from './config.js';

export const DATA_KEY_BYTES = 32;

/**
 * The key that encrypts sensitive data at rest. DATA_KEY wins; otherwise (demo mode only,
 * config refuses it elsewhere) the key kept in DATA_DIR/data-key is used, created on first start.
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

/**
 * A key for one purpose ('xsrf', 'otp', 'outbox'…) derived from the data key with HKDF, so one
 * secret in configuration serves every use without one use's key unlocking another's.
 */
export function deriveKey(dataKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), `marpe:${purpose}`, 32));
}

const CIPHER_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM; the result is `v1.` + base64url(iv ‖ tag ‖ ciphertext). */
export function encryptText(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${CIPHER_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Throws when the text was not made by `encryptText` with this key, or was altered. */
export function decryptText(key: Buffer, sealed: string): string {
  const [version, data] = sealed.split('.');
  if (version !== CIPHER_VERSION || !data) throw new Error('Unknown ciphertext format');
  const bytes = Buffer.from(data, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

/** SHA-256 (hex) of a high-entropy secret (session and link tokens): enough, since they cannot be guessed. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** HMAC-SHA-256 (hex): for low-entropy secrets such as one-time codes, under a secret key. */
export function hmacHex(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** A random token of `bytes` bytes (default 32 = 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
