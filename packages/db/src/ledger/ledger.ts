import { randomUUID } from 'node:crypto';
import type { Posting } from '@mm/domain';
import type { Tx } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';

const MERCHANT_OVERDRAFT = 'ledger_accounts_merchant_non_negative';

/** The ledger's CHECK refused a posting that would take a merchant account below zero. */
export function isOverdraft(err: unknown): boolean {
  return err instanceof Error && err.message.includes(MERCHANT_OVERDRAFT);
}

export interface LedgerScope {
  /** Null for a posting that touches no merchant account (a reconciliation case). */
  merchantId: string | null;
  countryCode: string;
  currency: string;
}

/**
 * Writes one balanced journal in one round trip (the ledger_post function of the migrations; the
 * deferred trigger rejects an unbalanced one at commit). The balances move while the transaction
 * commits (migration 20261202000000): a merchant's balance rows are locked for the COMMIT alone, not
 * from this statement to the caller's COMMIT, which on a loaded host kept every other posting of the
 * merchant queued behind a client round trip. So an overdraft (isOverdraft) or a deadlock is raised by
 * COMMIT, and the whole transaction is rolled back as before. Lines are booked in one fixed order (by
 * kind), whatever the order of the posting's lines: journals of one merchant that touch its accounts in
 * opposite orders would otherwise deadlock (chaos/hot-merchant.test.ts).
 */
export async function post(
  tx: Tx,
  scope: LedgerScope,
  posting: Posting,
  transactionId: string | null,
  refundId: string | null = null,
): Promise<string> {
  const journalId = randomUUID();
  await tx.$executeRaw`SELECT ${ledgerPostCall(journalId, scope, posting, transactionId, refundId)}`;
  return journalId;
}

/** `ledger_post(…)` of a posting, its lines in the fixed order (post() says why). */
function ledgerPostCall(
  journalId: string,
  scope: LedgerScope,
  posting: Posting,
  transactionId: string | null,
  refundId: string | null,
): Prisma.Sql {
  const lines = [...posting.lines].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return Prisma.sql`ledger_post(${journalId}::uuid, ${scope.merchantId}::uuid, ${scope.countryCode}::text, ${scope.currency}::text,
                       ${posting.name}::text, ${transactionId}::uuid, ${refundId}::uuid, ${JSON.stringify(lines)}::jsonb)`;
}

/**
 * The posting of a transaction's change as a common table expression `posted` of the statement that
 * makes the change, one round trip fewer than post() after it: `ledger_post` is called once for the
 * one row of `after` (the CTE that inserts or moves the transaction, RETURNING it), so it runs once
 * that row is written, and sees it (a function's statements see what its calling statement wrote so
 * far). The statement must read `posted` (postedCount) or PostgreSQL never runs it; the caller checks
 * the count is 1. Balances still move at COMMIT (the deferred trigger), as with post().
 */
export function postingCte(after: string, scope: LedgerScope, posting: Posting, transactionId: string): Prisma.Sql {
  return Prisma.sql`posted AS (SELECT ${ledgerPostCall(randomUUID(), scope, posting, transactionId, null)} FROM ${Prisma.raw(after)})`;
}

/** The select-list item that makes the statement run `posted` and says how many postings it wrote. */
export const postedCount = Prisma.sql`(SELECT count(*)::int FROM posted) AS "postedCount"`;
