import type { Job } from 'bullmq';
import { completeOutbox, transition, type Db, type Transaction } from '@mm/db';
import { OperatorUnavailableError, type OperatorAdapter } from '@mm/operators';
import { isFinalAttempt, type AfterCommit, type OperatorRequestJob } from '@mm/queues';

export interface PushUssdDeps {
  db: Db;
  adapter: OperatorAdapter;
  afterCommit: AfterCommit;
  callbackUrl: string;
  confirmationTimeoutMs: number;
  /** Status polls after PENDING, in ms (those past the confirmation delay are dropped). */
  statusPollsMs?: number[];
  now?: () => number;
}

/**
 * operator-requests consumer: CREATED -> INITIATED, push, then PENDING (or FAILED). A job run twice
 * (stalled, relay) pushes with the same partner reference, which the operator dedupes: never two
 * USSD pushes for one transaction.
 */
export function pushUssdProcessor(deps: PushUssdDeps) {
  const now = deps.now ?? Date.now;
  return async (payload: OperatorRequestJob, job: Job): Promise<void> => {
    let t = await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } });
    if (t?.status === 'CREATED') {
      const moved = await deps.db.$transaction((tx) => transition(tx, { transactionId: payload.transaction_id, to: 'INITIATED', cause: 'operator-request' }));
      await deps.afterCommit.run([moved]);
      t = moved?.transaction ?? (await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } }));
    }
    if (!t || t.status !== 'INITIATED') {
      await completeOutbox(deps.db, payload.outbox_id);
      return;
    }
    await push(deps, t, payload.outbox_id, job, now);
  };
}

async function push(deps: PushUssdDeps, t: Transaction, outboxId: string, job: Job, now: () => number): Promise<void> {
  let ack;
  try {
    ack = await deps.adapter.pushUssd({
      partnerReference: t.providerReference,
      msisdn: t.msisdn,
      amount: Number(t.amount),
      currency: t.currency,
      motif: t.motif,
      callbackUrl: deps.callbackUrl,
    });
  } catch (err) {
    if (!isFinalAttempt(job)) throw err;
    // Out of attempts: decide, or the relay would retry this push for ever. An operator that kept
    // refusing the request itself (4xx) rejected it; one that never answered is unavailable.
    const unavailable = err instanceof OperatorUnavailableError;
    const failed = await deps.db.$transaction(async (tx) => {
      const o = await transition(tx, {
        transactionId: t.id, to: 'FAILED', cause: unavailable ? 'operator-unavailable' : 'operator-request-refused',
        patch: { failureCode: unavailable ? 'OPERATOR_UNAVAILABLE' : 'OPERATOR_REJECTED' },
      });
      await completeOutbox(tx, outboxId);
      return o;
    });
    await deps.afterCommit.run([failed]);
    return;
  }
  const outcome = await deps.db.$transaction(async (tx) => {
    const o = ack.accepted
      ? await transition(tx, {
          transactionId: t.id, to: 'PENDING', cause: 'operator-ack',
          patch: {
            providerSessionId: ack.providerSessionId, providerState: 'PENDING',
            expiresAt: new Date(now() + deps.confirmationTimeoutMs),
            pollAt: (deps.statusPollsMs ?? []).map((ms) => new Date(now() + ms)),
          },
        })
      : await transition(tx, {
          transactionId: t.id, to: 'FAILED', cause: 'operator-rejected',
          patch: { providerState: 'KO', providerTxnStatus: ack.providerTxnStatus, failureCode: 'OPERATOR_REJECTED' },
        });
    await completeOutbox(tx, outboxId);
    return o;
  });
  await deps.afterCommit.run([outcome]);
}
