import { randomUUID } from 'node:crypto';
import type { Posting } from '@mm/domain';
import type { Tx } from './client.js';

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
 * deferred trigger rejects an unbalanced one at commit). Merchant account rows are locked in one fixed
 * order (by kind), whatever the order of the posting's lines: journals of one merchant that touch its
 * accounts in opposite orders would otherwise deadlock. Each is one plain UPDATE, in that order: a
 * single statement that locked the rows and updated them in one go deadlocked concurrent cash-ins of
 * one merchant under load (chaos/hot-merchant.test.ts).
 */
export async function post(tx: Tx, scope: LedgerScope, posting: Posting, transactionId: string | null, refundId: string | null = null): Promise<string> {
  const journalId = randomUUID();
  const lines = [...posting.lines].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  await tx.$executeRaw`
    SELECT ledger_post(${journalId}::uuid, ${scope.merchantId}::uuid, ${scope.countryCode}::text, ${scope.currency}::text,
                       ${posting.name}::text, ${transactionId}::uuid, ${refundId}::uuid, ${JSON.stringify(lines)}::jsonb)`;
  return journalId;
}
