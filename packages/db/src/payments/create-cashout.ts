import { randomUUID } from 'node:crypto';
import {
  cashoutApprovalReason,
  cashoutPosting,
  DomainError,
  requestReplayed,
  type CashoutApprovalReason,
  type CashoutApprovalRule,
} from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Db, Tx } from '../database/index.js';
import { runTransaction, violatedUniqueIndex } from '../database/index.js';
import type { Transaction } from '../generated/prisma/client.js';
import { isOverdraft, post } from '../ledger/index.js';
import type { OutboxRow } from '../outbox/index.js';
import { existingOrder } from './create-cashin.js';
import { recordChange } from './moves/change-rows.js';
import { cashoutWindowTotals, lockMerchantCashouts } from './cashout-window.js';
import { recordAudit, type AuditInput } from '../staff/index.js';
import { newProviderReference } from './provider-reference.js';

export const CASHOUT_REQUEST_TOPIC = QUEUE_NAMES.cashoutRequests;

/** The partial unique index on transactions.request_signature_hash (migration 20261129000000). */
const SIGNATURE_INDEX = 'transactions_request_signature_key';

export interface NewCashout {
  merchantId: string;
  merchantOrderId: string;
  amount: number;
  currency: string;
  countryCode: string;
  /** The beneficiary's number, E.164. */
  msisdn: string;
  reason: string | null;
  notifyUrl: string | null;
  requestFingerprint: string;
  /**
   * SHA-256 (hex) of the API key and signature of the request asking for it (the gateway's
   * signedRequestHash), kept on the row under a unique index. Absent for a cash-out no signed request
   * asked for (tools, tests).
   */
  requestSignatureHash?: string | null;
  /** The operator routing chose; the simulator when absent. */
  operator?: string;
  /**
   * When it waits for a back-office approver instead of being sent: by the rule (amount and the
   * merchant's 24 h totals, decided under the merchant's cash-out lock), or always / never (tools, tests).
   */
  approval: CashoutApprovalRule | 'required' | 'none';
  /**
   * The audit row of a cash-out a person asked for (the merchant portal), written in the cash-out's
   * own transaction: the cash-out and its row exist together or not at all.
   */
  audit?: (transaction: Transaction) => AuditInput;
}

export type CreateCashoutResult =
  { kind: 'created'; transaction: Transaction; outbox: OutboxRow[] } | { kind: 'existing'; transaction: Transaction };

/**
 * Records a cash-out and reserves its amount from the available balance in one database
 * transaction (the ledger's CHECK refuses an overdraft: INSUFFICIENT_BALANCE, nothing written).
 * One that needs no approval also gets its operator request (outbox); one that does waits in
 * AWAITING_APPROVAL with nothing queued. merchant_order_id is shared with cash-ins: a reuse finds
 * the existing row and the caller decides replay or conflict (the same signed request again is told
 * by the row's requestSignatureHash). A row the signature's unique index refuses is REQUEST_REPLAYED,
 * nothing written (for the same order the order id's index refuses it first: the caller decides).
 */
export async function createCashout(db: Db, input: NewCashout): Promise<CreateCashoutResult> {
  try {
    return await runTransaction(db, async (tx) => {
      const reason = await approvalReason(tx, input);
      const status = reason ? 'AWAITING_APPROVAL' : 'CREATED';
      const id = randomUUID();
      const transaction = await tx.transaction.create({
        data: {
          id,
          merchantId: input.merchantId,
          merchantOrderId: input.merchantOrderId,
          type: 'CASHOUT',
          status,
          amount: BigInt(input.amount),
          currency: input.currency,
          countryCode: input.countryCode,
          msisdn: input.msisdn,
          // The cash-out's free-text purpose; shown to the beneficiary where the operator supports it.
          motif: input.reason,
          notifyUrl: input.notifyUrl,
          requestFingerprint: input.requestFingerprint,
          requestSignatureHash: input.requestSignatureHash ?? null,
          providerReference: newProviderReference('CO'),
          ...(input.operator ? { operator: input.operator } : {}),
        },
      });
      const outbox = await recordChange(
        tx,
        {
          transactionId: id,
          fromStatus: null,
          toStatus: status,
          cause: 'cashout-accepted',
          createdAt: transaction.createdAt,
          detail: reason ? { approval_reason: reason } : null,
        },
        reason ? [] : [{ topic: CASHOUT_REQUEST_TOPIC, payload: { transaction_id: id } }],
      );
      await post(
        tx,
        { merchantId: input.merchantId, countryCode: input.countryCode, currency: input.currency },
        cashoutPosting(null, status, input.amount)!,
        id,
      );
      if (input.audit) await recordAudit(tx, input.audit(transaction));
      return { kind: 'created' as const, transaction, outbox };
    });
  } catch (err) {
    if (isOverdraft(err))
      throw new DomainError(
        'INSUFFICIENT_BALANCE',
        'the available balance of this subsidiary cannot cover the cash-out',
      );
    if (violatedUniqueIndex(err) === SIGNATURE_INDEX) throw requestReplayed();
    const transaction = await existingOrder(db, err, input);
    if (transaction) return { kind: 'existing', transaction };
    throw err;
  }
}

async function approvalReason(tx: Tx, input: NewCashout): Promise<CashoutApprovalReason | 'REQUIRED' | null> {
  if (input.approval === 'required') return 'REQUIRED';
  if (input.approval === 'none') return null;
  await lockMerchantCashouts(tx, input.merchantId);
  return cashoutApprovalReason(
    input.amount,
    input.approval,
    await cashoutWindowTotals(tx, input.merchantId, input.msisdn),
  );
}
