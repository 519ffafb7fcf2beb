import { ourOutcome, type OurRecord, type RecordKind, type TransactionStatus } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import type { AccountKey } from './operator-records.js';

/** One of our movements, with what is needed to link a case to it and to ask the operator about it. */
export interface OurMovement extends OurRecord {
  transactionId: string;
  refundId: string | null;
  /** The cash-in or cash-out as stored (the refunded cash-in, for a refund). */
  payment: {
    partnerReference: string;
    providerSessionId: string | null;
    providerTxId: string | null;
    msisdn: string;
    amount: number;
    currency: string;
    countryCode: string;
  };
}

interface Row {
  kind: RecordKind;
  transaction_id: string;
  refund_id: string | null;
  reference: string;
  operator_tx_id: string | null;
  amount: bigint;
  currency: string;
  status: string;
  late_success_held: boolean;
  t_reference: string;
  t_session: string | null;
  t_tx_id: string | null;
  msisdn: string;
  t_amount: bigint;
  country_code: string;
}

/**
 * Our movements through one operator account: those created on `date` (UTC), those decided that day (a
 * refund or payout left pending on an earlier day is compared again once it is decided), and those of other days that
 * the operator's records of the day name (by our reference or its id). Cash-ins and cash-outs are the
 * account's transactions; refunds are those of its cash-ins, the automatic returns of late successes
 * included (decisions 13: the operator pays them like any refund). A FAILED cash-in whose late success is
 * held counts as collected, with the operator's id of the late payment.
 */
export async function ourMovementsFor(
  db: Db | Tx,
  account: AccountKey,
  date: string,
  references: readonly string[] = [],
  operatorTxIds: readonly string[] = [],
): Promise<OurMovement[]> {
  const rows = await db.$queryRaw<Row[]>`
    WITH day AS (SELECT ${date}::date::timestamp AT TIME ZONE 'UTC' AS lo)
    SELECT CASE WHEN t.type = 'CASHOUT' THEN 'PAYOUT' ELSE 'CASHIN' END AS kind, t.id AS transaction_id, NULL::uuid AS refund_id,
           t.provider_reference AS reference, coalesce(t.provider_tx_id, ls.original_provider_tx_id) AS operator_tx_id,
           t.amount, t.currency, t.status, ls.id IS NOT NULL AS late_success_held,
           t.provider_reference AS t_reference, t.provider_session_id AS t_session, t.provider_tx_id AS t_tx_id, t.msisdn, t.amount AS t_amount, t.country_code
      FROM transactions t
      LEFT JOIN refunds ls ON ls.transaction_id = t.id AND ls.origin = 'LATE_SUCCESS'
     WHERE t.country_code = ${account.countryCode} AND t.operator = ${account.operator}
       AND ((t.created_at >= (SELECT lo FROM day) AND t.created_at < (SELECT lo FROM day) + interval '1 day')
            OR (t.completed_at >= (SELECT lo FROM day) AND t.completed_at < (SELECT lo FROM day) + interval '1 day')
            OR t.provider_reference = ANY(${references}::text[]) OR t.provider_tx_id = ANY(${operatorTxIds}::text[]))
    UNION ALL
    SELECT 'REFUND', t.id, r.id, r.provider_reference, r.provider_refund_id, r.amount, r.currency, r.status, false,
           t.provider_reference, t.provider_session_id, t.provider_tx_id, t.msisdn, t.amount, t.country_code
      FROM refunds r JOIN transactions t ON t.id = r.transaction_id
     WHERE t.country_code = ${account.countryCode} AND t.operator = ${account.operator}
       AND ((r.created_at >= (SELECT lo FROM day) AND r.created_at < (SELECT lo FROM day) + interval '1 day')
            OR (r.completed_at >= (SELECT lo FROM day) AND r.completed_at < (SELECT lo FROM day) + interval '1 day')
            OR r.provider_reference = ANY(${references}::text[]) OR r.provider_refund_id = ANY(${operatorTxIds}::text[]))`;
  return rows.map((r) => ({
    kind: r.kind,
    reference: r.reference,
    operatorTxId: r.operator_tx_id,
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    outcome:
      r.kind === 'REFUND' ? refundOutcome(r.status) : ourOutcome(r.status as TransactionStatus, r.late_success_held),
    transactionId: r.transaction_id,
    refundId: r.refund_id,
    payment: {
      partnerReference: r.t_reference,
      providerSessionId: r.t_session,
      providerTxId: r.t_tx_id,
      msisdn: r.msisdn,
      amount: Number(r.t_amount),
      currency: r.currency,
      countryCode: r.country_code,
    },
  }));
}

function refundOutcome(status: string): OurRecord['outcome'] {
  return status === 'SUCCESS' ? 'SUCCESS' : status === 'FAILED' ? 'FAILED' : 'PENDING';
}
