import { sql } from 'drizzle-orm';
import {
  decryptText,
  encryptText,
  isCurrent,
  sealedAt,
  sealingKey,
  type DataKeys,
} from './crypto.js';
import type { Database } from './db/client.js';

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
] as const;

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
    const rowColumn = sql.identifier(entry.row);
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
  return results;
}
