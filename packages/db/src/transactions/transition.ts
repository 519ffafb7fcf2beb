import {
  allowedSources, NOTIFIED_STATUSES, transactionPosting, transactionStatusChangedPayload,
  type TransactionStatus, type TransactionType,
} from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Tx } from '../client.js';
import type { Transaction } from '../generated/prisma/client.js';
import { post } from '../ledger.js';
import type { OutboxRow } from '../outbox.js';
import { recordChange, type NewJob } from './record-change.js';
import { recordWebhookEvent } from '../webhooks/record-webhook-event.js';
import { snapshotOf } from './snapshot.js';

export const EXPIRY_TOPIC = QUEUE_NAMES.expiryChecks;

export interface TransitionPatch {
  providerState?: string | null;
  providerTxnStatus?: string | null;
  providerTxId?: string | null;
  providerSessionId?: string | null;
  failureCode?: string | null;
  failureReason?: string | null;
  /** What the customer must do, as the operator's answer to the push said (a redirect URL, a code). */
  customerAction?: { type: string; [field: string]: string };
  /** With `to: 'PENDING'`: when the expiry check runs. */
  expiresAt?: Date;
  /** With `to: 'PENDING'`: earlier status polls of the operator (those before expiresAt are kept). */
  pollAt?: Date[];
}

export interface TransitionRequest {
  transactionId: string;
  to: TransactionStatus;
  /** Narrows the allowed sources (an approval moves only a cash-out that awaits one). */
  from?: readonly TransactionStatus[];
  /** Only a transaction of this type moves (an operator's cash-in result must never touch a cash-out). */
  ofType?: TransactionType;
  /** Why, for the audit trail: 'operator-ack', 'operator-result:callback', 'expiry', ... */
  cause: string;
  patch?: TransitionPatch;
  /** Kept on the history row for the back-office timeline (who decided, what they wrote). */
  detail?: Record<string, string | null>;
  /** Jobs the move queues (an approved cash-out's operator request), written with its history row. */
  jobs?: NewJob[];
  now?: Date;
}

export interface TransitionOutcome {
  from: TransactionStatus;
  transaction: Transaction;
  /** Jobs to publish once the database transaction has committed. */
  outbox: OutboxRow[];
}

/**
 * The one way a transaction changes state: a conditional move from an allowed source status, its
 * journal entries, its history row and its outbox rows, all inside the caller's database transaction.
 * Returns null (and writes nothing) when the row is not in an allowed source status: duplicate and
 * late messages are harmless.
 */
export async function transition(tx: Tx, req: TransitionRequest): Promise<TransitionOutcome | null> {
  const now = req.now ?? new Date();
  // The merchant's webhook URL comes with the lock: one round trip fewer for every terminal move.
  const [locked] = await tx.$queryRaw<{ status: TransactionStatus; type: TransactionType; webhook_url: string | null }[]>`
    SELECT t.status, t.type, m.webhook_url FROM transactions t JOIN merchants m ON m.id = t.merchant_id
     WHERE t.id = ${req.transactionId}::uuid FOR UPDATE OF t`;
  if (!locked || !allowedSources(req.to, locked.type).includes(locked.status)) return null;
  if (req.from && !req.from.includes(locked.status)) return null;
  if (req.ofType && req.ofType !== locked.type) return null;
  const from = locked.status;

  const { expiresAt, pollAt = [], ...patch } = req.patch ?? {};
  const terminal = NOTIFIED_STATUSES.includes(req.to);
  const transaction = await tx.transaction.update({
    where: { id: req.transactionId },
    data: {
      ...patch,
      status: req.to,
      updatedAt: now,
      ...(expiresAt ? { expiresAt } : {}),
      ...(terminal ? { completedAt: now } : {}),
    },
  });
  const jobs: NewJob[] = [...(req.jobs ?? [])];
  if (req.to === 'PENDING' && expiresAt) {
    for (const at of pollAt.filter((d) => d < expiresAt)) jobs.push({ topic: EXPIRY_TOPIC, payload: { transaction_id: transaction.id, kind: 'poll' }, availableAt: at });
    jobs.push({ topic: EXPIRY_TOPIC, payload: { transaction_id: transaction.id, kind: 'expiry' }, availableAt: expiresAt });
  }
  const outbox = await recordChange(tx, {
    transactionId: transaction.id, fromStatus: from, toStatus: req.to, cause: req.cause, createdAt: now, detail: eventDetail(patch, req.detail),
  }, jobs);

  if (terminal) {
    const row = await recordWebhookEvent(tx, {
      merchantId: transaction.merchantId,
      transactionId: transaction.id,
      eventType: 'transaction.status_changed',
      targetUrl: transaction.notifyUrl ?? locked.webhook_url,
      buildPayload: (eventId) => transactionStatusChangedPayload(snapshotOf(transaction), eventId, now),
    });
    if (row) outbox.push(row);
  }
  // Last, for the same reason as in createCashin: the merchant's balance rows are the hot ones.
  const posting = transactionPosting(locked.type, from, req.to, Number(transaction.amount));
  if (posting) {
    await post(tx, { merchantId: transaction.merchantId, countryCode: transaction.countryCode, currency: transaction.currency }, posting, transaction.id);
  }
  return { from, transaction, outbox };
}

/** What the operator said with this change (its raw state and codes), plus the caller's own detail. */
function eventDetail(patch: Omit<TransitionPatch, 'expiresAt' | 'pollAt'>, extra: Record<string, string | null> | undefined): Record<string, string | null> | null {
  const said: Record<string, string | null> = {};
  if (patch.providerState !== undefined) said.provider_state = patch.providerState;
  if (patch.providerTxnStatus !== undefined) said.provider_txn_status = patch.providerTxnStatus;
  if (patch.failureCode !== undefined) said.failure_code = patch.failureCode;
  if (patch.failureReason !== undefined) said.failure_reason = patch.failureReason;
  if (patch.providerTxId !== undefined) said.provider_tx_id = patch.providerTxId;
  const all = { ...said, ...extra };
  return Object.keys(all).length > 0 ? all : null;
}
