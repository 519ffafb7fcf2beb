import type { Db } from '@mm/db';
import { verifyAuditChain, type AuditChainReport, type ChainAnchor } from '@mm/db/staff';

/** `--anchor ID:HASH`: a head printed by an earlier run and kept outside the database. */
export function parseAnchor(value: string | undefined): ChainAnchor | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{1,19}):([0-9a-f]{64})$/.exec(value);
  if (!m) throw new Error('--anchor must be <id>:<row_hash> (the head printed by an earlier audit:verify)');
  return { id: m[1]!, rowHash: m[2]! };
}

/** Recomputes the audit log's hash chain; the text names the first broken row. */
export async function auditVerify(
  db: Db,
  anchor: ChainAnchor | undefined,
): Promise<{ report: AuditChainReport; text: string }> {
  const report = await verifyAuditChain(db, anchor ? { anchor } : {});
  const head = report.head ? `head #${report.head.id} ${report.head.rowHash}` : 'no rows';
  const text = report.firstBroken
    ? `audit log BROKEN at row #${report.firstBroken.id}: ${report.firstBroken.problem} (${report.rows} row(s) verified before it, ${head})`
    : `audit log OK: ${report.rows} row(s), ${head}${anchor ? `, anchor #${anchor.id} matches` : ''}\n` +
      'keep the head outside the database; pass it back with --anchor <id>:<row_hash> to detect later rows removed or the chain rewritten';
  return { report, text };
}
