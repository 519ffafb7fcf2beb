import { randomUUID } from 'node:crypto';
import type { AccountKind, Posting } from '@mm/domain';
import type { Tx } from './client.js';
import { Prisma } from './generated/prisma/client.js';

const MERCHANT_OVERDRAFT = 'ledger_accounts_merchant_non_negative';

/** The ledger's CHECK refused a posting that would take a merchant account below zero. */
export function isOverdraft(err: unknown): boolean {
  return err instanceof Error && err.message.includes(MERCHANT_OVERDRAFT);
}

export interface LedgerScope {
  merchantId: string;
  countryCode: string;
  currency: string;
}

// System accounts keep no running balance: one row per country would serialise every cash-in of that
// country. Their balance is derived from the journal (ledger verification does it).
const isSystem = (kind: AccountKind) => kind === 'OPERATOR_RECEIVABLE';

/** Creates the accounts a posting needs that do not exist yet (the first posting of a merchant in a country). */
async function openAccounts(tx: Tx, scope: LedgerScope, kinds: AccountKind[]): Promise<void> {
  for (const kind of kinds) {
    await tx.$executeRaw`
      INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
      VALUES (${isSystem(kind) ? null : scope.merchantId}::uuid, ${scope.countryCode}, ${scope.currency}, ${kind})
      ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING`;
  }
}

/**
 * The whole posting in one statement (one round trip instead of two or three per line): lock the
 * merchant's accounts in one fixed order (by kind), move their running balances, write the entries.
 * It writes nothing unless every account exists, and answers how many entries it wrote.
 * The CHECK (balance >= 0) on merchant accounts turns an overdraft into an error that aborts the
 * whole database transaction.
 */
async function postOnce(tx: Tx, scope: LedgerScope, posting: Posting, journalId: string, transactionId: string | null, refundId: string | null): Promise<number> {
  const lines = Prisma.join(posting.lines.map((l) => Prisma.sql`(${l.account}::text, ${BigInt(l.amount)}::bigint, ${isSystem(l.account)}::boolean)`));
  const [row] = await tx.$queryRaw<{ entries: number }[]>`
    WITH lines (kind, amount, system) AS (VALUES ${lines}),
    merchant_accounts AS MATERIALIZED (
      SELECT a.id, a.kind FROM ledger_accounts a
       WHERE a.merchant_id = ${scope.merchantId}::uuid AND a.country_code = ${scope.countryCode}
         AND a.kind IN (SELECT kind FROM lines WHERE NOT system)
       ORDER BY a.kind FOR UPDATE),
    found AS MATERIALIZED (
      SELECT l.kind, l.amount, l.system, coalesce(m.id, s.id) AS account_id FROM lines l
        LEFT JOIN merchant_accounts m ON NOT l.system AND m.kind = l.kind
        LEFT JOIN ledger_accounts s ON l.system AND s.merchant_id IS NULL AND s.country_code = ${scope.countryCode} AND s.kind = l.kind),
    complete AS (SELECT bool_and(account_id IS NOT NULL) AS ok FROM found),
    moved AS (
      UPDATE ledger_accounts a SET balance = a.balance + f.amount, updated_at = now()
        FROM found f WHERE a.id = f.account_id AND NOT f.system AND (SELECT ok FROM complete)
      RETURNING a.id),
    written AS (
      INSERT INTO journal_entries (journal_id, account_id, amount, posting, transaction_id, refund_id)
      SELECT ${journalId}::uuid, f.account_id, f.amount, ${posting.name}, ${transactionId}::uuid, ${refundId}::uuid
        FROM found f WHERE (SELECT ok FROM complete)
      RETURNING 1)
    SELECT (SELECT count(*) FROM written)::int AS entries`;
  return row?.entries ?? 0;
}

/**
 * Writes one balanced journal (the deferred trigger rejects an unbalanced one at commit). Merchant
 * account rows are locked in one fixed order (by kind), whatever the order of the posting's lines:
 * journals of one merchant that touch its accounts in opposite orders would otherwise deadlock.
 */
export async function post(tx: Tx, scope: LedgerScope, posting: Posting, transactionId: string | null, refundId: string | null = null): Promise<string> {
  const journalId = randomUUID();
  if ((await postOnce(tx, scope, posting, journalId, transactionId, refundId)) === posting.lines.length) return journalId;
  await openAccounts(tx, scope, posting.lines.map((l) => l.account));
  const written = await postOnce(tx, scope, posting, journalId, transactionId, refundId);
  if (written !== posting.lines.length) throw new Error(`posting ${posting.name} wrote ${written} of ${posting.lines.length} entries`);
  return journalId;
}
