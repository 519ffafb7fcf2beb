import { randomUUID } from 'node:crypto';
import { cashinPosting } from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Db } from '../client.js';
import { runTransaction } from '../run-transaction.js';
import { Prisma, type Transaction } from '../generated/prisma/client.js';
import { post } from '../ledger.js';
import type { OutboxRow } from '../outbox.js';
import { recordChange } from './record-change.js';
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
  | { kind: 'created'; transaction: Transaction; outbox: OutboxRow[] }
  | { kind: 'existing'; transaction: Transaction };

/**
 * Inserts the CREATED transaction, its pending journal and the operator-request outbox row in one
 * database transaction. A unique violation on (merchant, merchant_order_id) means another request won:
 * the existing row is returned and the caller decides replay (same fingerprint) or conflict.
 */
export async function createCashin(db: Db, input: NewCashin): Promise<CreateCashinResult> {
  try {
    return await runTransaction(db, async (tx) => {
      const id = randomUUID();
      const transaction = await tx.transaction.create({
        data: {
          id,
          merchantId: input.merchantId,
          merchantOrderId: input.merchantOrderId,
          type: 'CASHIN',
          status: 'CREATED',
          amount: BigInt(input.amount),
          currency: input.currency,
          countryCode: input.countryCode,
          msisdn: input.msisdn,
          motif: input.motif,
          returnUrl: input.returnUrl,
          notifyUrl: input.notifyUrl,
          metadata: input.metadata === null ? Prisma.DbNull : (input.metadata as Prisma.InputJsonValue),
          requestFingerprint: input.requestFingerprint,
          providerReference: newProviderReference('MM'),
          ...(input.operator ? { operator: input.operator } : {}),
        },
      });
      const outbox = await recordChange(tx, { transactionId: id, fromStatus: null, toStatus: 'CREATED', cause: 'cashin-accepted', createdAt: transaction.createdAt },
        [{ topic: OPERATOR_REQUEST_TOPIC, payload: { transaction_id: id } }]);
      // Last: the posting locks the merchant's balance row, which every cash-in of the merchant
      // updates; holding it only until the commit keeps concurrent cash-ins from queueing behind it.
      const posting = cashinPosting(null, 'CREATED', input.amount);
      if (posting) await post(tx, { merchantId: input.merchantId, countryCode: input.countryCode, currency: input.currency }, posting, id);
      return { kind: 'created' as const, transaction, outbox };
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
export async function existingOrder(db: Db, err: unknown, order: { merchantId: string; merchantOrderId: string }): Promise<Transaction | null> {
  if (!isUniqueViolation(err)) return null;
  return db.transaction.findUnique({
    where: { merchantId_merchantOrderId: { merchantId: order.merchantId, merchantOrderId: order.merchantOrderId } },
  });
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
