import type { Job } from 'bullmq';
import { completeOutbox } from '@mm/db/outbox';
import { type Db, type Transaction } from '@mm/db';
import { applyOperatorResult, storePreparedSession, transition, type TransitionRequest } from '@mm/db/payments';
import { PENDING_CAUSES, type PendingCause } from '@mm/domain';
import {
  OperatorRefusedError,
  paymentLookupOf,
  type CustomerAction,
  type OperatorAdapter,
  type OperatorAdapters,
  type UssdPushRequest,
} from '@mm/operators';
import { isFinalAttempt, type AfterCommit, type OperatorRequestJob } from '@mm/queues';
import { commitMove, commitStep } from '@mm/worker-runtime';
import type { SeenPending } from '../seen-pending.js';

export interface OperatorRequestsDeps {
  db: Db;
  adapters: OperatorAdapters;
  afterCommit: AfterCommit;
  /** Where the operator posts results for this payment (some operators' callback URLs name it). */
  callbackUrl(t: Transaction): string;
  /** Where a redirect operator sends the customer back: the payment page. */
  returnUrl?(t: Transaction): string;
  confirmationTimeoutMs: number;
  /** Status polls after PENDING, in ms (those past the confirmation delay are dropped). */
  statusPollsMs?: number[];
  /** Where the acknowledged cash-ins are kept as seen, for their result to be applied without a lock first. */
  seenPending?: SeenPending;
  now?: () => number;
}

/**
 * operator-requests consumer: CREATED -> INITIATED, push, then PENDING (or FAILED). A job run twice
 * (stalled, relay) pushes with the same partner reference, which the operator dedupes: never two
 * USSD pushes for one transaction.
 */
export function operatorRequestsHandler(deps: OperatorRequestsDeps) {
  const now = deps.now ?? Date.now;
  return async (payload: OperatorRequestJob, job: Job): Promise<void> => {
    // The move itself tells whether the cash-in was still CREATED: no read before it in the usual case.
    const moved = await commitMove(deps, {
      transactionId: payload.transaction_id,
      to: 'INITIATED',
      from: ['CREATED'],
      ofType: 'CASHIN',
      cause: 'operator-request',
    });
    const t = moved?.transaction ?? (await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } }));
    if (!t || t.status !== 'INITIATED') {
      await completeOutbox(deps.db, payload.outbox_id);
      return;
    }
    // A result arriving while this push is under way waits for its acknowledgement (SeenPending).
    const over = deps.seenPending?.pushing(t.providerReference);
    try {
      await push(deps, t, payload.outbox_id, job, now);
    } finally {
      over?.();
    }
  };
}

async function push(
  deps: OperatorRequestsDeps,
  t: Transaction,
  outboxId: string,
  job: Job,
  now: () => number,
): Promise<void> {
  // Inside the try: an account that cannot be used (its credentials unreadable, its row gone) is an
  // unknown outcome like an unreachable operator, retried and then decided like one, never left INITIATED.
  let adapter: OperatorAdapter | null = null;
  let ack;
  // The operator's id stored by prepare() during this run: the last attempt's status query needs it
  // (Orange mp finds a payment only by its pay token), and `t` was read before it was stored.
  let current = t;
  try {
    adapter = await deps.adapters.adapterFor(t);
    const request: UssdPushRequest = {
      ...paymentLookupOf(t),
      motif: t.motif,
      callbackUrl: deps.callbackUrl(t),
      ...(deps.returnUrl ? { returnUrl: deps.returnUrl(t) } : {}),
    };
    request.providerSessionId = await prepared(deps, adapter, t, request);
    current = { ...t, providerSessionId: request.providerSessionId ?? null };
    ack = await adapter.pushUssd(request);
  } catch (err) {
    // A refusal of the request will be the same on every attempt: decided at once, not retried.
    const refused = err instanceof OperatorRefusedError;
    if (!refused && !isFinalAttempt(job)) throw err;
    await decideAfterLastAttempt(deps, adapter, current, outboxId, refused, now);
    return;
  }
  if (ack.accepted) {
    const moved = await commitMove(
      deps,
      pendingMove(deps, t.id, PENDING_CAUSES.acknowledged, ack.providerSessionId, now, ack.customerAction),
      { completes: outboxId },
    );
    if (moved?.seen) deps.seenPending?.remember(moved.seen);
    return;
  }
  await commitStep(
    deps,
    (tx) =>
      transition(tx, {
        transactionId: t.id,
        to: 'FAILED',
        cause: 'operator-rejected',
        patch: {
          providerState: ack.providerState,
          providerTxnStatus: ack.providerTxnStatus,
          failureCode: ack.failureCode ?? 'OPERATOR_REJECTED',
          ...(ack.failureReason ? { failureReason: ack.failureReason } : {}),
        },
      }),
    { completes: outboxId },
  );
}

/**
 * Refused, or out of attempts: decide, or the relay would retry this push for ever. Only an explicit refusal of the
 * request (OperatorRefusedError, a 4xx about it) fails the cash-in: the operator did nothing with it.
 * Any other error (no answer, an answer outside the protocol, a bug of ours) leaves the outcome unknown:
 * the push may have reached the operator (a slow operator registers it after we gave up), so the
 * operator is asked. A push it knows is adopted (PENDING, or its decided result applied); one it says
 * it does not know is FAILED / OPERATOR_UNAVAILABLE (decisions 4). When the status query fails too,
 * nobody knows: FAILED is final and would lose a payment the customer then confirms, so the cash-in
 * waits as PENDING for its expiry check, which asks again (not found: FAILED; a result: applied; still
 * silent: EXPIRED, from which a late OK still credits the merchant).
 */
async function decideAfterLastAttempt(
  deps: OperatorRequestsDeps,
  adapter: OperatorAdapter | null,
  t: Transaction,
  outboxId: string,
  refused: boolean,
  now: () => number,
): Promise<void> {
  const known = refused
    ? null
    : adapter
      ? await adapter.queryStatus(paymentLookupOf(t)).catch(() => 'no answer' as const)
      : ('no answer' as const);
  await commitStep(
    deps,
    async (tx) => {
      if (known === null) {
        return transition(tx, {
          transactionId: t.id,
          to: 'FAILED',
          cause: 'operator-request-refused',
          patch: { failureCode: 'OPERATOR_REJECTED' },
        });
      }
      // Only an operator whose status is current the moment it takes a push (the simulator) may be believed
      // when it says it never saw one just sent; MTN's and Wave's lookups may lag behind: the expiry check asks again.
      if (known !== 'no answer' && !known.found && !adapter?.statusMayLag) {
        return transition(tx, {
          transactionId: t.id,
          to: 'FAILED',
          cause: 'operator-unavailable',
          patch: { failureCode: 'OPERATOR_UNAVAILABLE' },
        });
      }
      // Known and decided: applied. Known but undecided (PENDING, or an OK without its 200), or no answer: PENDING.
      const decided =
        known === 'no answer' ? null : await applyOperatorResult(tx, t.id, known, 'push-timeout:operator-result');
      const unknown = known === 'no answer' || !known.found;
      return (
        decided ??
        transition(
          tx,
          pendingMove(
            deps,
            t.id,
            unknown ? PENDING_CAUSES.outcomeUnknown : PENDING_CAUSES.knownAfterTimeout,
            null,
            now,
          ),
        )
      );
    },
    { completes: outboxId },
  );
}

/** The operator's own id for the payment, for operators that do not dedupe on our reference (prepare). */
async function prepared(
  deps: OperatorRequestsDeps,
  adapter: OperatorAdapter,
  t: Transaction,
  request: UssdPushRequest,
): Promise<string | null> {
  if (!adapter.prepare || t.providerSessionId) return t.providerSessionId;
  const { providerSessionId } = await adapter.prepare(request);
  return storePreparedSession(deps.db, t.id, providerSessionId);
}

/** The push is with the customer: PENDING, its expiry check and status polls scheduled. */
function pendingMove(
  deps: OperatorRequestsDeps,
  transactionId: string,
  cause: PendingCause,
  sessionId: string | null,
  now: () => number,
  customerAction?: CustomerAction,
): TransitionRequest & { ofType: 'CASHIN' } {
  return {
    transactionId,
    to: 'PENDING',
    cause,
    ofType: 'CASHIN',
    patch: {
      ...(sessionId ? { providerSessionId: sessionId } : {}),
      ...(customerAction ? { customerAction } : {}),
      providerState: 'PENDING',
      expiresAt: new Date(now() + deps.confirmationTimeoutMs),
      pollAt: (deps.statusPollsMs ?? []).map((ms) => new Date(now() + ms)),
    },
  };
}
