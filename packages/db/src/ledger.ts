import { randomUUID } from 'node:crypto';
import type { AccountKind, Posting } from '@mm/domain';
import type { Tx } from './client.js';

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
async function systemAccountId(tx: Tx, scope: LedgerScope, kind: AccountKind): Promise<bigint> {
  const find = () => tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM ledger_accounts WHERE merchant_id IS NULL AND country_code = ${scope.countryCode} AND kind = ${kind}`;
  const [existing] = await find();
  if (existing) return existing.id;
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
    VALUES (NULL, ${scope.countryCode}, ${scope.currency}, ${kind})
    ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING`;
  const [row] = await find();
  if (!row) throw new Error(`system account ${scope.countryCode}/${kind} missing`);
  return row.id;
}

// The CHECK (balance >= 0) on merchant accounts turns an overdraft into an error that aborts the
// whole database transaction. Update first: the account exists for all but a merchant's first posting
// in a country, so one statement is the usual cost. Then insert-if-missing and update again (an upsert
// would check the CHECK on the proposed, negative row before seeing the conflict). A plain UPDATE per
// account, in kind order: a single statement that locked the rows and updated them in one go
// deadlocked concurrent cash-ins of one merchant under load (chaos/hot-merchant.test.ts).
async function applyToMerchantAccount(tx: Tx, scope: LedgerScope, kind: AccountKind, amount: number): Promise<bigint> {
  const update = () => tx.$queryRaw<{ id: bigint }[]>`
    UPDATE ledger_accounts SET balance = balance + ${amount}, updated_at = now()
     WHERE merchant_id = ${scope.merchantId}::uuid AND country_code = ${scope.countryCode} AND kind = ${kind}
    RETURNING id`;
  const [existing] = await update();
  if (existing) return existing.id;
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
    VALUES (${scope.merchantId}::uuid, ${scope.countryCode}, ${scope.currency}, ${kind})
    ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING`;
  const [row] = await update();
  if (!row) throw new Error('ledger account update returned nothing');
  return row.id;
}

/**
 * Writes one balanced journal (the deferred trigger rejects an unbalanced one at commit). Merchant
 * account rows are locked in one fixed order (by kind), whatever the order of the posting's lines:
 * journals of one merchant that touch its accounts in opposite orders would otherwise deadlock.
 */
export async function post(tx: Tx, scope: LedgerScope, posting: Posting, transactionId: string | null, refundId: string | null = null): Promise<string> {
  const journalId = randomUUID();
  const entries = [];
  const lines = [...posting.lines].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  for (const line of lines) {
    const accountId = line.account === 'OPERATOR_RECEIVABLE'
      ? await systemAccountId(tx, scope, line.account)
      : await applyToMerchantAccount(tx, scope, line.account, line.amount);
    entries.push({ journalId, accountId, amount: BigInt(line.amount), posting: posting.name, transactionId, refundId });
  }
  await tx.journalEntry.createMany({ data: entries });
  return journalId;
}
