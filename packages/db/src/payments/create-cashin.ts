import { randomUUID } from 'node:crypto';
import {
  cashinPosting,
  LINK_IN_PROGRESS_STATUSES,
  LINK_PAID_STATUSES,
  linkRefusal,
  PaymentLinkRefused,
} from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Db } from '../database/index.js';
import { postedCount, postingCte } from '../ledger/index.js';
import { rawQuery, retryOnConflict, isUniqueViolation, runPgTransaction, type Tx } from '../database/index.js';
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
  /** The payment link the customer pays through: a place of it is taken in the same transaction. */
  paymentLinkId?: string;
  /**
   * false: the link has no max_payments (it never changes once created), so no place is counted: its row
   * is only read, not locked, and its customers' payments start side by side. Absent
   * or true: locked and counted (claimLinkPlace).
   */
  paymentLinkCapped?: boolean;
}

export type CreateCashinResult =
  { kind: 'created'; transaction: Transaction; outbox: OutboxRow[] } | { kind: 'existing'; transaction: Transaction };

/**
 * Inserts the CREATED transaction, its history row, the operator-request outbox row and its pending
 * journal in one autocommit statement on the client's pg pool (the journal through postingCte), so a
 * cash-in's creation is one round trip. A unique violation on (merchant, merchant_order_id) means
 * another request won: the existing row is returned and the caller decides replay (same fingerprint)
 * or conflict. A payment through a link (paymentLinkId) is that statement inside a transaction that
 * first takes a place of the link (claimLinkPlace): three statements, the link's row locked until commit.
 */
export async function createCashin(db: Db, input: NewCashin): Promise<CreateCashinResult> {
  try {
    if (input.paymentLinkId) {
      const linkId = input.paymentLinkId;
      return await runPgTransaction(db, async (tx) => {
        await claimLinkPlace(tx, linkId, input.paymentLinkCapped ?? true, new Date());
        const statement = cashinStatement(input);
        return inserted(await tx.$queryRaw<InsertedRow[]>(statement.sql), statement.outbox);
      });
    }
    return await retryOnConflict(async () => {
      const statement = cashinStatement(input);
      return inserted(await rawQuery<InsertedRow>(db, statement.sql), statement.outbox);
    });
  } catch (err) {
    const transaction = await existingOrder(db, err, input);
    if (transaction) return { kind: 'existing', transaction };
    throw err;
  }
}

type InsertedRow = Transaction & { postedCount: number };

function inserted([row]: InsertedRow[], outbox: OutboxRow[]): CreateCashinResult {
  if (!row || row.postedCount !== 1) throw new Error('cash-in not inserted with its pending posting');
  const { postedCount: _posted, ...transaction } = row;
  return { kind: 'created', transaction, outbox };
}

/**
 * The one statement that records a cash-in: its row, its history row and outbox job, its pending
 * journal. Built anew for each try (a new id), with the outbox rows it inserts.
 */
function cashinStatement(input: NewCashin): { sql: Prisma.Sql; outbox: OutboxRow[] } {
  const id = randomUUID();
  const now = new Date();
  const change = changeStatement(
    { transactionId: id, fromStatus: null, toStatus: 'CREATED', cause: 'cashin-accepted', createdAt: now },
    [{ topic: OPERATOR_REQUEST_TOPIC, payload: { transaction_id: id } }],
  );
  const posting = cashinPosting(null, 'CREATED', input.amount);
  if (!posting) throw new Error('a new cash-in has a pending posting');
  const scope = { merchantId: input.merchantId, countryCode: input.countryCode, currency: input.currency };
  const extra = (column: string, value: Prisma.Sql | null) =>
    value === null ? { column: Prisma.empty, value: Prisma.empty } : { column: Prisma.raw(`, ${column}`), value };
  const operator = extra('operator', input.operator ? Prisma.sql`, ${input.operator}` : null);
  const link = extra('payment_link_id', input.paymentLinkId ? Prisma.sql`, ${input.paymentLinkId}::uuid` : null);
  const sql = Prisma.sql`
        WITH created AS (
          INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, motif,
                                    return_url, notify_url, metadata, request_fingerprint, provider_reference, created_at, updated_at
                                    ${operator.column}${link.column})
          VALUES (${id}::uuid, ${input.merchantId}::uuid, ${input.merchantOrderId}, 'CASHIN', 'CREATED', ${input.amount}::bigint, ${input.currency},
                  ${input.countryCode}, ${input.msisdn}, ${input.motif}::text, ${input.returnUrl}::text, ${input.notifyUrl}::text,
                  ${input.metadata === null ? null : JSON.stringify(input.metadata)}::jsonb, ${input.requestFingerprint},
                  ${newProviderReference('MM')}, ${now}::timestamptz, ${now}::timestamptz
                  ${operator.value}${link.value})
          RETURNING *),
        ${change.ctes},
        ${postingCte('created', scope, posting, id)}
        SELECT ${transactionColumns('created')}, ${postedCount} FROM created`;
  return { sql, outbox: change.outbox };
}

/**
 * Takes a place of the payment link for the cash-in about to be inserted in the same transaction, or
 * throws PaymentLinkRefused. The link's row is locked first, and its payments counted by a second
 * statement: under READ COMMITTED that one sees every payment committed by whoever held the lock
 * before (a count in the locking statement would read the snapshot taken before the wait). So two
 * customers of a single-use link are taken one after the other, and the second finds the first's
 * payment in progress.
 */
async function claimLinkPlace(tx: Tx, linkId: string, capped: boolean, now: Date): Promise<void> {
  const [link] = await tx.$queryRaw<
    { deactivatedAt: Date | null; expiresAt: Date | null; maxPayments: number | null }[]
  >(
    Prisma.sql`SELECT deactivated_at AS "deactivatedAt", expires_at AS "expiresAt", max_payments AS "maxPayments"
      FROM payment_links WHERE id = ${linkId}::uuid ${capped ? Prisma.sql`FOR UPDATE` : Prisma.empty}`,
  );
  if (!link) throw new PaymentLinkRefused('INACTIVE');
  if (!capped || link.maxPayments === null) {
    // Nothing to count: only deactivation and expiry refuse, read as committed. Not locked: a lock of one
    // row by every customer of a busy link costs half its rate (bench/link-bench.ts), and a deactivation
    // committed while this payment starts is one in progress, which goes on as the API says.
    const refusal = linkRefusal({ ...link, maxPayments: null, paid: 0, inProgress: 0 }, now);
    if (refusal) throw new PaymentLinkRefused(refusal);
    return;
  }
  const [held] = await tx.$queryRaw<{ paid: number; inProgress: number }[]>(
    Prisma.sql`SELECT count(*) FILTER (WHERE status IN (${statusList(LINK_PAID_STATUSES)}))::int AS paid,
      count(*) FILTER (WHERE status IN (${statusList(LINK_IN_PROGRESS_STATUSES)}))::int AS "inProgress"
      FROM transactions WHERE payment_link_id = ${linkId}::uuid`,
  );
  const refusal = linkRefusal({ ...link, paid: held!.paid, inProgress: held!.inProgress }, now);
  if (refusal) throw new PaymentLinkRefused(refusal);
}

const statusList = (statuses: readonly string[]) => Prisma.join(statuses.map((s) => Prisma.sql`${s}`));

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
