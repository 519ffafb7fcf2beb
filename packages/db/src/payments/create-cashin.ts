import { randomUUID } from 'node:crypto';
import { cashinPosting } from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Db } from '../database/index.js';
import { postedCount, postingCte } from '../ledger/index.js';
import { rawQuery, retryOnConflict, isUniqueViolation } from '../database/index.js';
import { Prisma, type Transaction } from '../generated/prisma/client.js';
import type { OutboxRow } from '../outbox/index.js';
import { changeStatement } from './moves/change-rows.js';
import { transactionColumns } from './transaction-row.js';
import { newProviderReference } from './provider-reference.js';

export const OPERATOR_REQUEST_TOPIC = QUEUE_NAMES.operatorRequests;

export interface NewCashin {
  merchantId: string;
  merchantOrderId: string;
  amount: number;
  currency: string;
  countryCode: string;
  msisdn: string;
  motif: string | null;
  returnUrl: string | null;
  notifyUrl: string | null;
  metadata: Record<string, unknown> | null;
  /** Hash of the normalised request: tells a replay from a conflicting reuse of the order id. */
  requestFingerprint: string;
  /** The operator routing chose (operator_accounts.operator); the simulator when absent. */
  operator?: string;
}

export type CreateCashinResult =
  { kind: 'created'; transaction: Transaction; outbox: OutboxRow[] } | { kind: 'existing'; transaction: Transaction };

/**
 * Inserts the CREATED transaction, its history row, the operator-request outbox row and its pending
 * journal in one autocommit statement on the client's pg pool (the journal through postingCte), so a
 * cash-in's creation is one round trip. A unique violation on (merchant, merchant_order_id) means
 * another request won: the existing row is returned and the caller decides replay (same fingerprint)
 * or conflict.
 */
export async function createCashin(db: Db, input: NewCashin): Promise<CreateCashinResult> {
  try {
    return await retryOnConflict(async () => {
      const id = randomUUID();
      const now = new Date();
      const change = changeStatement(
        { transactionId: id, fromStatus: null, toStatus: 'CREATED', cause: 'cashin-accepted', createdAt: now },
        [{ topic: OPERATOR_REQUEST_TOPIC, payload: { transaction_id: id } }],
      );
      const posting = cashinPosting(null, 'CREATED', input.amount);
      if (!posting) throw new Error('a new cash-in has a pending posting');
      const scope = { merchantId: input.merchantId, countryCode: input.countryCode, currency: input.currency };
      const [row] = await rawQuery<Transaction & { postedCount: number }>(
        db,
        Prisma.sql`
        WITH created AS (
          INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, motif,
                                    return_url, notify_url, metadata, request_fingerprint, provider_reference, created_at, updated_at
                                    ${input.operator ? Prisma.sql`, operator` : Prisma.empty})
          VALUES (${id}::uuid, ${input.merchantId}::uuid, ${input.merchantOrderId}, 'CASHIN', 'CREATED', ${input.amount}::bigint, ${input.currency},
                  ${input.countryCode}, ${input.msisdn}, ${input.motif}::text, ${input.returnUrl}::text, ${input.notifyUrl}::text,
                  ${input.metadata === null ? null : JSON.stringify(input.metadata)}::jsonb, ${input.requestFingerprint},
                  ${newProviderReference('MM')}, ${now}::timestamptz, ${now}::timestamptz
                  ${input.operator ? Prisma.sql`, ${input.operator}` : Prisma.empty})
          RETURNING *),
        ${change.ctes},
        ${postingCte('created', scope, posting, id)}
        SELECT ${transactionColumns('created')}, ${postedCount} FROM created`,
      );
      if (!row || row.postedCount !== 1) throw new Error('cash-in not inserted with its pending posting');
      const { postedCount: _posted, ...transaction } = row;
      return { kind: 'created' as const, transaction, outbox: change.outbox };
    });
  } catch (err) {
    const transaction = await existingOrder(db, err, input);
    if (transaction) return { kind: 'existing', transaction };
    throw err;
  }
}

/**
 * After a failed insert: the transaction that already holds (merchant, merchant_order_id) when the
 * failure was that unique violation, else null. Shared by cash-ins and cash-outs (one order id space).
 */
export async function existingOrder(
  db: Db,
  err: unknown,
  order: { merchantId: string; merchantOrderId: string },
): Promise<Transaction | null> {
  if (!isUniqueViolation(err)) return null;
  return db.transaction.findUnique({
    where: { merchantId_merchantOrderId: { merchantId: order.merchantId, merchantOrderId: order.merchantOrderId } },
  });
}
