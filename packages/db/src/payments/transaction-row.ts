import type { Db } from '../database/index.js';
import { Prisma, type Transaction } from '../generated/prisma/client.js';
import { rawQuery } from '../database/index.js';

/**
 * Every column of `transactions` under its Prisma field name, for raw statements on the hot paths
 * that read or return a whole row (a lock, an insert) without a second round trip through the model
 * API. transaction-row.test.ts compares it with Prisma's own read: a column added to the schema and
 * not here fails that test.
 */
const FIELDS: Record<keyof Transaction, string> = {
  id: 'id',
  merchantId: 'merchant_id',
  merchantOrderId: 'merchant_order_id',
  type: 'type',
  status: 'status',
  amount: 'amount',
  currency: 'currency',
  countryCode: 'country_code',
  msisdn: 'msisdn',
  motif: 'motif',
  returnUrl: 'return_url',
  notifyUrl: 'notify_url',
  metadata: 'metadata',
  requestFingerprint: 'request_fingerprint',
  providerReference: 'provider_reference',
  providerTxId: 'provider_tx_id',
  providerSessionId: 'provider_session_id',
  providerState: 'provider_state',
  providerTxnStatus: 'provider_txn_status',
  failureCode: 'failure_code',
  failureReason: 'failure_reason',
  operator: 'operator',
  customerAction: 'customer_action',
  refundedAmount: 'refunded_amount',
  refundReservedAmount: 'refund_reserved_amount',
  requestSignatureHash: 'request_signature_hash',
  expiresAt: 'expires_at',
  completedAt: 'completed_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  paymentLinkId: 'payment_link_id',
};

/** `id, merchant_id AS "merchantId", …` for these fields (all of them by default), columns of `alias` when given. */
export function columnList(
  fields: readonly (keyof Transaction)[] = Object.keys(FIELDS) as (keyof Transaction)[],
  alias?: string,
): string {
  return fields.map((field) => `${alias ? `${alias}.` : ''}${FIELDS[field]} AS "${field}"`).join(', ');
}

/** Built once per alias: every move and insert of a cash-in uses one. */
const wholeRows = new Map<string, Prisma.Sql>();

/** `t.id, t.merchant_id AS "merchantId", …`: the select list of a whole row read as a Transaction. */
export function transactionColumns(alias: string): Prisma.Sql {
  let list = wholeRows.get(alias);
  if (!list) wholeRows.set(alias, (list = Prisma.raw(columnList(undefined, alias))));
  return list;
}

/**
 * The fields a move sets, without those given as undefined: a patch that leaves a field out (or
 * spreads an undefined one) keeps the stored value, as Prisma's model update does.
 */
export function definedFields(fields: Partial<Transaction>): Partial<Transaction> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Transaction>;
}

/** `status = …, updated_at = …, …` for the fields a statement changes (JSON ones as jsonb); undefined ones are left out. */
export function setColumns(changed: Partial<Transaction>): Prisma.Sql {
  return Prisma.join(
    Object.entries(definedFields(changed)).map(([field, value]) => {
      const column = Prisma.raw(FIELDS[field as keyof Transaction]);
      if (field === 'customerAction' || field === 'metadata')
        return Prisma.sql`${column} = ${value === null ? null : JSON.stringify(value)}::jsonb`;
      return Prisma.sql`${column} = ${value}`;
    }),
  );
}

/** A whole transaction by id or by provider reference, on the client's pg pool (rawQuery): reads every cash-in makes. */
export async function readTransaction(
  db: Db,
  by: { id: string } | { providerReference: string },
): Promise<Transaction | null> {
  const where =
    'id' in by ? Prisma.sql`t.id = ${by.id}::uuid` : Prisma.sql`t.provider_reference = ${by.providerReference}`;
  const [row] = await rawQuery<Transaction>(
    db,
    Prisma.sql`SELECT ${transactionColumns('t')} FROM transactions t WHERE ${where}`,
  );
  return row ?? null;
}
