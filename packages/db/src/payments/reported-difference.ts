import {
  categorize,
  isDifference,
  ourOutcome,
  type OperatorRecord,
  type ReportedAmount,
  type TransactionStatus,
} from '@mm/domain';
import type { Tx } from '../database/index.js';
import type { Transaction } from '../generated/prisma/client.js';
import { LATE_SUCCESS_ORIGIN } from './refunds/late-success-return.js';
import type { OurMovement } from '../reconciliation/index.js';
import { recordPairCase } from '../reconciliation/index.js';

/**
 * A payment the operator confirmed with another amount or currency than the cash-in's (confirmationDiffers),
 * not applied: kept as a reconciliation case of the cash-in's day, as the day's run would have it. A cash-in
 * still undecided here is compared as applying the confirmation would make it: AMOUNT_DIFFERS. Its difference
 * is what the operator holds for us beyond our books (nothing was credited). Runs in the caller's database
 * transaction, the cash-in's row locked by it.
 */
export async function recordReportedDifference(
  tx: Tx,
  t: Transaction,
  confirmed: { providerTxId: string | null; reported: ReportedAmount },
  now = new Date(),
): Promise<void> {
  const held =
    t.status === 'FAILED' &&
    (await tx.refund.count({ where: { transactionId: t.id, origin: LATE_SUCCESS_ORIGIN } })) > 0;
  const ours: OurMovement = {
    kind: 'CASHIN',
    reference: t.providerReference,
    operatorTxId: t.providerTxId,
    amount: Number(t.amount),
    currency: t.currency,
    outcome: ourOutcome(t.status as TransactionStatus, held),
    status: t.status,
    transactionId: t.id,
    refundId: null,
    payment: {
      partnerReference: t.providerReference,
      providerSessionId: t.providerSessionId,
      providerTxId: t.providerTxId,
      msisdn: t.msisdn,
      amount: Number(t.amount),
      currency: t.currency,
      countryCode: t.countryCode,
    },
  };
  const theirs: OperatorRecord = {
    kind: 'CASHIN',
    reference: t.providerReference,
    operatorTxId: confirmed.providerTxId,
    amount: confirmed.reported.amount,
    currency: confirmed.reported.currency,
    outcome: 'SUCCESS',
  };
  const category = categorize(ours, theirs);
  await recordPairCase(
    tx,
    { countryCode: t.countryCode, operator: t.operator },
    t.createdAt.toISOString().slice(0, 10),
    {
      kind: 'CASHIN',
      key: t.providerReference,
      ours,
      theirs,
      category: isDifference(category) ? category : 'AMOUNT_DIFFERS',
    },
    now,
  );
}
