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

/** The data key in use and the ones it replaced (DATA_KEY, DATA_KEY_PREVIOUS): see `sealingKey`. */
export interface DataKeys {
  current: Buffer;
  /** Older keys, still read until `marpe rotate-data-key` has re-encrypted everything. */
  previous: readonly Buffer[];
}

/**
 * The keys of one purpose ('forms', 'outbox'…), each derived from a data key and named by a short
 * id computed from it (a fingerprint that tells nothing of the key): ciphertexts name the key that
 * made them, so a rotation can go on while old rows are still read.
 */
export interface SealingKey {
  readonly id: string;
  readonly key: Buffer;
  readonly byId: ReadonlyMap<string, Buffer>;
}

/** 8 hex characters naming a data key in ciphertexts (HMAC of a fixed label, not the key). */
export function dataKeyId(dataKey: Buffer): string {
  return createHmac('sha256', dataKey).update('marpe:key-id').digest('hex').slice(0, 8);
}

export function sealingKey(keys: DataKeys | Buffer, purpose: string): SealingKey {
  const ring = Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys;
  const byId = new Map<string, Buffer>();
  for (const dataKey of [ring.current, ...ring.previous]) {
    const id = dataKeyId(dataKey);
    if (!byId.has(id)) byId.set(id, deriveKey(dataKey, purpose));
  }
  const id = dataKeyId(ring.current);
  return { id, key: byId.get(id) as Buffer, byId };
}

/**
 * What a ciphertext is bound to (AES-GCM associated data): its table, column and row. A value
 * copied into another row or column does not decrypt there.
 */
export function sealedAt(table: string, column: string, row: string | number): string {
  return `${table}.${column}:${String(row)}`;
}

const LEGACY_VERSION = 'v1';
const CIPHER_VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function seal(key: Buffer, plaintext: string, aad: string | null): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== null) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, bytes: Buffer, aad: string | null): string {
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

/**
 * AES-256-GCM with the current key, bound to `at` (see `sealedAt`): `v2.<key id>.` +
 * base64url(iv ‖ tag ‖ ciphertext).
 */
export function encryptText(key: SealingKey, plaintext: string, at: string): string {
  return `${CIPHER_VERSION}.${key.id}.${seal(key.key, plaintext, at).toString('base64url')}`;
}

/**
 * Throws when the text was not made by `encryptText` with one of these keys for this place, or
 * was altered. `v1.` texts (before key ids, unbound) are read with every key until re-encrypted.
 */
export function decryptText(key: SealingKey, sealed: string, at: string): string {
  const parts = sealed.split('.');
  if (parts[0] === CIPHER_VERSION && parts.length === 3) {
    const derived = key.byId.get(parts[1] ?? '');
    if (!derived) throw new Error(`Ciphertext of an unknown data key ${parts[1] ?? ''}`);
    return open(derived, Buffer.from(parts[2] ?? '', 'base64url'), at);
  }
  if (parts[0] === LEGACY_VERSION && parts.length === 2) {
    const bytes = Buffer.from(parts[1] ?? '', 'base64url');
    for (const derived of key.byId.values()) {
      try {
        return open(derived, bytes, null);
      } catch {
        // another key, perhaps
      }
    }
    throw new Error('Ciphertext altered, or of a data key no longer configured');
  }
  throw new Error('Unknown ciphertext format');
}

/** True when `sealed` was made with the current key (a rotation leaves it as it is). */
export function isCurrent(key: SealingKey, sealed: string): boolean {
  return sealed.startsWith(`${CIPHER_VERSION}.${key.id}.`);
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
