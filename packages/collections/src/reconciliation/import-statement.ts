import { createHash } from 'node:crypto';
import { saveOperatorRecords, type AccountKey } from '@mm/db/reconciliation';
import { operatorAccountTargetId } from '@mm/db/operator-accounts';
import { recordAudit } from '@mm/db/staff';
import { MAX_STATEMENT_LINES, parseStatement, type StatementLineError } from '@mm/reconciliation';
import type { AuditContext } from '../audit-context.js';
import type { ReconciliationRunDeps } from './requery-reconciliation-day.js';

export interface StatementFile {
  name: string;
  bytes: Buffer;
}

export interface ImportedDay {
  date: string;
  records: number;
}

export type ImportOutcome =
  /** Nothing was written: the file as a whole was refused, each bad line named. */
  | { kind: 'refused'; errors: StatementLineError[] }
  | {
      kind: 'imported';
      records: number;
      days: ImportedDay[];
      sha256: string;
      /** The days whose reconciliation run is queued. */
      queued: string[];
      /** The days whose run could not be queued (Redis refused): the records are kept; re-query or import again. */
      notQueued: string[];
    };

/** A whole statement is one transaction: bounded by the file's size limit (20 MB, ~200 000 lines). */
const IMPORT_TIMEOUT_MS = 120_000;

/**
 * An operator's statement (CSV, docs/reconciliation.md) for one operator account: parsed whole, refused
 * whole when any line is bad (half a statement would make the other half look missing at the operator).
 * Its records replace what was stored for the same movements (a re-import of the same file changes
 * nothing but the time received), with one `reconciliation.import` audit row in the same transaction;
 * then, once committed (a run must find them), one reconciliation-runs job per business day it covers.
 */
export async function importStatement(
  deps: ReconciliationRunDeps,
  context: AuditContext,
  account: AccountKey,
  file: StatementFile,
  onQueueError?: (err: unknown, date: string) => void,
): Promise<ImportOutcome> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    return {
      kind: 'refused',
      errors: [{ line: 0, message: 'the file is not UTF-8 text: export the statement as CSV (UTF-8)' }],
    };
  }
  // parseStatement stops reading at its bound: a longer file would be imported in part, silently.
  if (lineCount(text) > MAX_STATEMENT_LINES + 1) {
    return {
      kind: 'refused',
      errors: [
        {
          line: MAX_STATEMENT_LINES + 2,
          message: `more than ${MAX_STATEMENT_LINES} movements in one file: split the statement (by day, say) and import each part`,
        },
      ],
    };
  }
  const parsed = parseStatement(text);
  if (!parsed.ok) return { kind: 'refused', errors: parsed.errors };

  const perDay = new Map<string, number>();
  for (const r of parsed.records) perDay.set(r.businessDate, (perDay.get(r.businessDate) ?? 0) + 1);
  const days = [...perDay]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, records]) => ({ date, records }));
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');

  await deps.db.$transaction(
    async (tx) => {
      const written = await saveOperatorRecords(tx, account, parsed.records, 'STATEMENT');
      await recordAudit(tx, {
        ...context,
        action: 'reconciliation.import',
        targetType: 'operator_account',
        targetId: operatorAccountTargetId(account),
        before: null,
        after: {
          file_name: file.name.slice(0, 200),
          file_sha256: sha256,
          file_bytes: file.bytes.length,
          records: parsed.records.length,
          rows_written: written,
          days,
        },
      });
    },
    { timeout: IMPORT_TIMEOUT_MS },
  );

  const queued: string[] = [];
  const notQueued: string[] = [];
  for (const { date } of days) {
    // After one refusal Redis is not tried again for every other day (each would wait its timeout).
    if (notQueued.length > 0) {
      notQueued.push(date);
      continue;
    }
    try {
      await deps.runs.add({ country_code: account.countryCode, operator: account.operator, date, trigger: 'manual' });
      queued.push(date);
    } catch (err) {
      onQueueError?.(err, date);
      notQueued.push(date);
    }
  }
  return { kind: 'imported', records: parsed.records.length, days, sha256, queued, notQueued };
}

/** Lines of the text, a last line without its newline counted, a final newline not. */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return text.endsWith('\n') || text.length === 0 ? n : n + 1;
}
