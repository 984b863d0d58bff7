import { sql } from 'drizzle-orm';
import {
  dataKeyId,
  decryptText,
  encryptText,
  isCurrent,
  sealedAt,
  sealingKey,
  type DataKeys,
} from './crypto.js';
import type { Database } from './db/client.js';
import { dataKeys as dataKeysTable } from './db/schema.js';

/**
 * Every encrypted column, with the key purpose it is sealed under and the column its ciphertext is
 * bound to (`sealedAt(table, column, <row column>)`): the one list `rotateDataKey` walks. A new
 * encrypted column must be added here, or a rotation would leave it readable only by an old key.
 */
export const sealedColumns = [
  { table: 'shaam_connections', column: 'client_secret', purpose: 'shaam', row: 'clinic_id' },
  { table: 'shaam_connections', column: 'access_token', purpose: 'shaam', row: 'clinic_id' },
  { table: 'shaam_connections', column: 'refresh_token', purpose: 'shaam', row: 'clinic_id' },
  { table: 'whatsapp_connections', column: 'access_token', purpose: 'whatsapp', row: 'clinic_id' },
  { table: 'webhook_endpoints', column: 'secret', purpose: 'webhooks', row: 'id' },
  { table: 'webhook_endpoints', column: 'previous_secret', purpose: 'webhooks', row: 'id' },
  { table: 'webhook_deliveries', column: 'body', purpose: 'webhooks', row: 'id' },
  { table: 'form_requests', column: 'init_data', purpose: 'forms', row: 'token_hash' },
  { table: 'form_drafts', column: 'draft', purpose: 'forms', row: 'request_id' },
  { table: 'form_submissions', column: 'answers', purpose: 'forms', row: 'request_id' },
  { table: 'form_submissions', column: 'signatures', purpose: 'forms', row: 'request_id' },
  { table: 'outbox', column: 'payload', purpose: 'outbox', row: 'id' },
  { table: 'clinics', column: 'tranzila_secret', purpose: 'payments', row: 'id' },
  {
    table: 'calendar_connections',
    column: 'refresh_token',
    purpose: 'calendar',
    row: 'caregiver_id',
  },
  {
    table: 'calendar_connection_links',
    column: 'code_verifier',
    purpose: 'calendar',
    row: 'token_hash',
  },
  {
    table: 'calendar_connection_links',
    column: 'refresh_token',
    purpose: 'calendar',
    row: 'token_hash',
  },
  {
    table: 'calendar_connection_links',
    column: 'access_token',
    purpose: 'calendar',
    row: 'token_hash',
  },
  // Bound to the provider and its message id (messaging/deliveries.ts): a row id is not known
  // before the insert.
  {
    table: 'message_deliveries',
    column: 'fallback',
    purpose: 'outbox',
    row: "provider || ':' || provider_message_id",
  },
] as const;

/** The SQL naming a sealed column's binding: a column, or an expression over the row's columns. */
const rowSqlOf = (row: string) =>
  /^[a-z_]+$/.test(row) ? sql.identifier(row) : sql.raw(`(${row})`);

const BATCH = 500;

export interface RotationResult {
  table: string;
  column: string;
  /** Re-encrypted with the current key. */
  rotated: number;
  /** Already under the current key. */
  current: number;
}

/**
 * Re-encrypts every sealed value not made with the current data key, batch by batch (each value
 * read with whichever configured key made it). Safe to run again, and while servers run: a value
 * is rewritten only if it is still the one read. Once it reports nothing left to rotate, the old
 * keys can leave DATA_KEY_PREVIOUS.
 */
export async function rotateDataKey(db: Database, keys: DataKeys): Promise<RotationResult[]> {
  const results: RotationResult[] = [];
  for (const entry of sealedColumns) {
    const key = sealingKey(keys, entry.purpose);
    const table = sql.identifier(entry.table);
    const column = sql.identifier(entry.column);
    const rowColumn = rowSqlOf(entry.row);
    let after = '';
    const result: RotationResult = {
      table: entry.table,
      column: entry.column,
      rotated: 0,
      current: 0,
    };
    for (;;) {
      const batch = await db.execute(sql`
        SELECT ${rowColumn}::text AS row, ${column} AS value FROM ${table}
        WHERE ${column} IS NOT NULL AND ${rowColumn}::text > ${after}
        ORDER BY ${rowColumn}::text LIMIT ${BATCH}`);
      const rows = (batch as unknown as { rows: { row: string; value: string }[] }).rows;
      for (const { row, value } of rows) {
        if (isCurrent(key, value)) {
          result.current += 1;
          continue;
        }
        const at = sealedAt(entry.table, entry.column, row);
        const sealed = encryptText(key, decryptText(key, value, at), at);
        await db.execute(sql`
          UPDATE ${table} SET ${column} = ${sealed}
          WHERE ${rowColumn}::text = ${row} AND ${column} = ${value}`);
        result.rotated += 1;
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]?.row ?? after;
    }
    results.push(result);
  }
  await forgetUnusedDataKeys(db, keys);
  return results;
}

// Any constant; the same in every process sharing a database (retention's is 7170923282).
const DATA_KEYS_LOCK_KEY = 7170923283;

/** A process's keys cannot read what the database holds; `missing` names the key ids it lacks. */
export class DataKeyMismatchError extends Error {
  constructor(
    readonly missing: readonly string[],
    readonly current: string,
  ) {
    super(
      `DATA_KEY (key id ${current}) cannot read this database: it holds values sealed with data key ` +
        `${missing.length === 1 ? 'id' : 'ids'} ${missing.join(', ')}, which neither DATA_KEY nor ` +
        'DATA_KEY_PREVIOUS provides. Every process on one database needs the same DATA_KEY ' +
        '(docs/operations.md, "One key for every process")',
    );
    this.name = 'DataKeyMismatchError';
  }
}

/**
 * At start-up, before anything is read or written: refuses (DataKeyMismatchError) when the
 * database holds values sealed with a key that is neither `keys.current` nor among
 * `keys.previous`, else records the current key as one in use. The check and the record are one
 * step under a lock, so two processes starting at once on an empty database with different keys
 * cannot both pass: the second one sees the first's key.
 */
export async function claimDataKeys(db: Database, keys: DataKeys): Promise<void> {
  const current = dataKeyId(keys.current);
  const held = new Set([current, ...keys.previous.map(dataKeyId)]);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DATA_KEYS_LOCK_KEY})`);
    const inUse = await tx.select({ keyId: dataKeysTable.keyId }).from(dataKeysTable);
    const missing = inUse
      .map((row) => row.keyId)
      .filter((id) => !held.has(id))
      .sort();
    if (missing.length > 0) throw new DataKeyMismatchError(missing, current);
    await tx.insert(dataKeysTable).values({ keyId: current }).onConflictDoNothing();
  });
}

/**
 * Drops from the keys in use those no sealed value names any more (after a rotation), so that
 * they may leave DATA_KEY_PREVIOUS. The current key stays: its process writes with it. Resolves
 * with the ids still in use.
 */
export async function forgetUnusedDataKeys(db: Database, keys: DataKeys): Promise<string[]> {
  const current = dataKeyId(keys.current);
  const named = sealedColumns.map((entry) => {
    const column = sql.identifier(entry.column);
    return sql`SELECT DISTINCT split_part(${column}::text, '.', 2) AS key_id FROM ${sql.identifier(entry.table)} WHERE ${column}::text LIKE 'v2.%'`;
  });
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DATA_KEYS_LOCK_KEY})`);
    const found = await tx.execute(sql.join(named, sql` UNION `));
    const used = new Set(
      (found as unknown as { rows: { key_id: string }[] }).rows.map((row) => row.key_id),
    );
    used.add(current);
    const registered = await tx.select({ keyId: dataKeysTable.keyId }).from(dataKeysTable);
    for (const { keyId } of registered) {
      if (!used.has(keyId)) {
        await tx.execute(sql`DELETE FROM ${dataKeysTable} WHERE key_id = ${keyId}`);
      }
    }
    await tx.insert(dataKeysTable).values({ keyId: current }).onConflictDoNothing();
    return [...used].filter((id) => /^[0-9a-f]{8}$/.test(id)).sort();
  });
}
