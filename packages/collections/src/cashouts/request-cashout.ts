import { DomainError, type AmountLimits, type CashoutApprovalRule } from '@mm/domain';
import type { Db, Transaction } from '@mm/db';
import { createCashout, type NewCashout } from '@mm/db/payments';
import type { AfterCommit } from '@mm/queues';
import { chooseOperator, type OperatorChoice } from '../orders/choose-operator.js';
import { assertAmountInRange, replayOf } from '../orders/order-rules.js';
import { requestFingerprint } from '../orders/request-fingerprint.js';
import { resolvePayer } from '../orders/resolve-payer.js';
import type { CashoutBody } from './cashout-body.js';

export interface RequestCashoutDeps {
  db: Db;
  afterCommit: AfterCommit;
  limits: AmountLimits;
  /** decisions 7: false answers 501 and writes nothing. */
  disbursementEnabled: boolean;
  /** decisions 7 and the daily totals: when a cash-out waits for a back-office approver. */
  approvalRule: CashoutApprovalRule;
  isActiveCountry(countryCode: string): Promise<boolean>;
  operators: OperatorChoice;
}

/**
 * Validates the beneficiary against the subsidiaries, reserves the amount and either hands the
 * cash-out to the operator bridge or leaves it waiting for an approver. The merchant learns the
 * outcome by webhook (or GET /payments/{id}): the answer does not wait for the operator.
 */
export async function requestCashout(
  deps: RequestCashoutDeps,
  merchantId: string,
  body: CashoutBody,
  signatureHash: string,
  /** The audit row, in the cash-out's transaction, of a cash-out a person asked for (the portal's). */
  audit?: NewCashout['audit'],
): Promise<{ replayed: boolean; transaction: Transaction }> {
  const payee = await resolvePayer(
    { msisdn: body.beneficiary_msisdn, msisdnField: 'beneficiary_msisdn', currency: body.currency },
    deps.isActiveCountry,
  );
  if (!deps.disbursementEnabled) {
    throw new DomainError(
      'DISBURSEMENT_NOT_CONFIGURED',
      'cash-out is not available: no disbursement capability is configured with the operator',
    );
  }
  assertAmountInRange(body.amount, deps.limits, payee.currency);
  const fields = {
    merchantOrderId: body.merchant_order_id,
    amount: body.amount,
    currency: payee.currency,
    countryCode: payee.countryCode,
    msisdn: payee.e164,
    reason: body.reason ?? null,
    notifyUrl: body.notify_url ?? null,
  };
  // 'CASHOUT' in the fingerprint: the same order id and fields used by a cash-in is a conflict, not a replay.
  const fingerprint = requestFingerprint(
    body.operator ? { type: 'CASHOUT', ...fields, operator: body.operator } : { type: 'CASHOUT', ...fields },
  );
  const chosen = await chooseOperator(deps.operators, deps.db, {
    merchantId,
    merchantOrderId: body.merchant_order_id,
    countryCode: payee.countryCode,
    e164: payee.e164,
    requested: body.operator ?? null,
    fingerprint,
    signatureHash,
  });
  if ('replayed' in chosen) return chosen;
  const result = await createCashout(deps.db, {
    ...fields,
    merchantId,
    requestFingerprint: fingerprint,
    requestSignatureHash: signatureHash,
    approval: deps.approvalRule,
    operator: chosen.operator,
    ...(audit ? { audit } : {}),
  });
  if (result.kind === 'existing')
    return replayOf(result.transaction, fingerprint, body.merchant_order_id, signatureHash);
  await deps.afterCommit.run([{ transaction: result.transaction, from: null, outbox: result.outbox }]);
  return { replayed: false, transaction: result.transaction };
}
