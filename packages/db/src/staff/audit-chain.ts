/**
 * The audit log's hash chain, recomputed outside the database. The database writes it (the
 * audit_log_chain trigger of migration 20261125100100_audit_log_hash_chain); this module re-derives every
 * row_hash from the row's content with its own code, so a verification does not trust anything the
 * database would compute for it. The canonical form below must stay byte for byte the one of the SQL
 * function audit_log_row_hash: a test checks them against each other on every kind of value.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../database/index.js';

/** prev_hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** A row as the canonical form reads it: each value in PostgreSQL's own text form (see ROWS_AFTER). */
export interface ChainRow {
  id: string;
  staff_id: string | null;
  actor: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** jsonb's text form: normalised by PostgreSQL, the same value always prints the same. */
  before: string | null;
  after: string | null;
  request_id: string | null;
  ip: string | null;
  /** created_at in epoch milliseconds. */
  created_ms: string;
  /** Set on the merchant portal's rows, which are hashed in the v2 form. */
  merchant_id: string | null;
  merchant_user_id: string | null;
  prev_hash: string;
  row_hash: string;
}

/** `~` for NULL, else `<length in UTF-8 bytes>:<text>`: no content can pass for a field boundary. */
function field(value: string | null): string {
  return value === null ? '~' : `${Buffer.byteLength(value, 'utf8')}:${value}`;
}

export function canonicalAuditRow(prevHash: string, r: Omit<ChainRow, 'prev_hash' | 'row_hash'>): string {
  const fields = [
    r.id,
    r.staff_id,
    r.actor,
    r.action,
    r.target_type,
    r.target_id,
    r.before,
    r.after,
    r.request_id,
    r.ip,
    r.created_ms,
  ];
  // v1 for the rows without a merchant, byte for byte the form every row had before the portal existed.
  if (r.merchant_id === null && r.merchant_user_id === null)
    return `audit_log/v1|${prevHash}|${fields.map(field).join('')}`;
  return `audit_log/v2|${prevHash}|${[...fields, r.merchant_id, r.merchant_user_id].map(field).join('')}`;
}

export function auditRowHash(prevHash: string, row: Omit<ChainRow, 'prev_hash' | 'row_hash'>): string {
  return createHash('sha256').update(canonicalAuditRow(prevHash, row), 'utf8').digest('hex');
}

/** A row whose hash someone kept elsewhere (the head printed by an earlier verification). */
export interface ChainAnchor {
  id: string;
  rowHash: string;
}

export interface ChainBreak {
  /** The first row at which the chain does not hold. */
  id: string;
  problem: string;
}

export interface AuditChainReport {
  ok: boolean;
  rows: number;
  /** The last row verified: keep its id and hash elsewhere, and pass them back as an anchor later. */
  head: ChainAnchor | null;
  firstBroken: ChainBreak | null;
}

// Text forms that no session setting (time zone, DateStyle, extra_float_digits) changes. The order is the
// column's, qualified: a bare `id` would be the text alias, and "10" sorts before "9".
const ROWS_AFTER = (db: Db, afterId: string, limit: number) => db.$queryRaw<ChainRow[]>`
  SELECT id::text, staff_id::text, actor, action, target_type, target_id, before::text, after::text, request_id, ip,
         (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms, merchant_id::text,
         merchant_user_id::text, prev_hash, row_hash
    FROM audit_log WHERE audit_log.id > ${afterId}::bigint ORDER BY audit_log.id LIMIT ${limit}`;

/**
 * Walks the whole log in id order (which is chain order: ids are drawn under the append lock) and stops
 * at the first row that does not hold: its prev_hash is not the row_hash of the row before (a row removed,
 * inserted or reordered; for the first row, not the genesis hash: the oldest rows removed), or its
 * content does not give its row_hash (the row changed). With an anchor, the anchored row must still be
 * there with that hash: this is what catches the newest rows cut off, or the whole chain recomputed.
 */
export async function verifyAuditChain(
  db: Db,
  options: { anchor?: ChainAnchor; batchSize?: number } = {},
): Promise<AuditChainReport> {
  const batchSize = options.batchSize ?? 1000;
  let previous: ChainAnchor | null = null;
  let rows = 0;
  let anchorSeen = false;
  const broken = (id: string, problem: string): AuditChainReport => ({
    ok: false,
    rows,
    head: previous,
    firstBroken: { id, problem },
  });

  for (;;) {
    const batch = await ROWS_AFTER(db, previous?.id ?? '0', batchSize);
    for (const row of batch) {
      const expectedPrev = previous?.rowHash ?? GENESIS_HASH;
      if (row.prev_hash !== expectedPrev) {
        return broken(
          row.id,
          previous
            ? `prev_hash is not the row_hash of the row before (id ${previous.id}): a row was removed, inserted or reordered, or the row before was changed with its hash`
            : 'prev_hash of the first row is not the genesis hash: the oldest rows were removed',
        );
      }
      if (auditRowHash(row.prev_hash, row) !== row.row_hash)
        return broken(row.id, 'the content does not give its row_hash: the row was changed');
      if (options.anchor && row.id === options.anchor.id) {
        if (row.row_hash !== options.anchor.rowHash)
          return broken(
            row.id,
            `row_hash is not the anchored ${options.anchor.rowHash}: the chain was rewritten up to here`,
          );
        anchorSeen = true;
      }
      previous = { id: row.id, rowHash: row.row_hash };
      rows++;
    }
    if (batch.length < batchSize) break;
  }
  if (options.anchor && !anchorSeen)
    return broken(options.anchor.id, 'the anchored row is missing: rows up to it were removed');
  return { ok: true, rows, head: previous, firstBroken: null };
}
