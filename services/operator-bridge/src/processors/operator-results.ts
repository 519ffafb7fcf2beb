import type { Db, Transaction } from '@mm/db';
import {
  applyOperatorResultIfUnchanged,
  lockForMove,
  readTransaction,
  settleOperatorResult,
  type HeldLateSuccess,
  type LockedTransaction,
  type SettledResult,
} from '@mm/db/payments';
import { isConfirmedPayment, needsStatusConfirmation, type OperatorResult } from '@mm/domain';
import { paymentLookupOf, type OperatorAdapter, type OperatorAdapters } from '@mm/operators';
import { receiptOf, type AfterCommit, type OperatorResultJob, type OperatorResultReceipt } from '@mm/queues';
import type { Logger } from '@mm/observability';
import { commitStep } from '@mm/worker-runtime';
import type { SeenPending } from '../seen-pending.js';

export interface OperatorResultsDeps {
  db: Db;
  afterCommit: AfterCommit;
  logger: Logger;
  /** Asked when a result is a hint or an OK without its 200: only the operator's status can confirm it. */
  adapters: OperatorAdapters<Pick<OperatorAdapter, 'queryStatus'>>;
  /** Counts operator OKs for cash-ins FAILED here, repeats included. */
  onCapturedButFailed?(): void;
  /** Counts late successes whose return to the customer was started (decisions 13). */
  onLateSuccessHeld?(): void;
  /** The cash-ins this process acknowledged, as seen then: their result is applied in one statement. */
  seenPending?: SeenPending;
}

type Result = OperatorResult & { providerSessionId?: string | null };
/** Fails to compile if the receipt stops being the domain's OperatorResult: it is applied as it came. */
const asResult = (r: OperatorResultReceipt): Result => r;

/** operator-results consumer: a callback or status answer becomes a state transition (or nothing). */
export function operatorResultsHandler(deps: OperatorResultsDeps) {
  return async (payload: OperatorResultJob): Promise<void> => {
    await takeResult(deps, receiptOf(payload), { operatorAllowed: true });
  };
}

/**
 * For the callback route: applies a signed result at once, in the HTTP request that brought it, when
 * nothing but the database is needed (no status query to the operator). Resolves false when the result
 * needs the operator asked first (a hint, a foreign signature, an OK without its 200): that one goes
 * through the operator-results queue, whose retries a slow operator needs. Throws what the database
 * throws; the caller then queues the result, so a callback taken is never lost.
 */
export function applySignedResultNow(deps: OperatorResultsDeps) {
  return (receipt: OperatorResultReceipt): Promise<boolean> => takeResult(deps, receipt, { operatorAllowed: false });
}

/** False (and nothing done) only when the result needs the operator and `operatorAllowed` is false. */
async function takeResult(
  deps: OperatorResultsDeps,
  payload: OperatorResultReceipt,
  { operatorAllowed }: { operatorAllowed: boolean },
): Promise<boolean> {
  const received = asResult(payload);
  // A hint (an unsigned callback) and an OK without its 200 are only reasons to ask the payment's own operator.
  if (payload.source === 'hint' || needsStatusConfirmation(received))
    return takeAfterRead(deps, payload, received, { operatorAllowed });
  return (
    (await applyAsSeen(deps, payload, received)) ||
    (await applyUnderLock(deps, payload, received)) ||
    takeAfterRead(deps, payload, received, { operatorAllowed })
  );
}

/**
 * A result that decides by itself, for a cash-in this process acknowledged and still holds as seen then
 * (the usual case with one bridge process, or a callback routed to the one that pushed; one that arrives
 * while the push is under way here waits for its acknowledgement): one autocommit statement, applied only
 * if the row is still that version (a cash-in's, by the move it makes). False, and nothing changed, when
 * it is not held, is not the signer's, or has changed since, or when the result moves nothing: the
 * lock's path decides those as before.
 */
async function applyAsSeen(
  deps: OperatorResultsDeps,
  payload: OperatorResultReceipt,
  received: Result,
): Promise<boolean> {
  const seen = await deps.seenPending?.take(payload.providerReference);
  if (!seen || seen.status !== 'PENDING') return false;
  if (signedByAnother(payload, seen)) return false;
  const moved = await applyOperatorResultIfUnchanged(deps.db, seen, received, `operator-result:${payload.source}`);
  if (moved === null || moved === 'changed') return false;
  await deps.afterCommit.run([moved]);
  return true;
}

/**
 * A result that decides by itself (signed, or the operator's status answer), applied in the usual case
 * (a cash-in of the operator that signed it) under the row's lock taken by its reference: no read of
 * the row before its transaction. False, and nothing changed, for any other row (unknown, a cash-out,
 * another operator's payment), which takeAfterRead then handles.
 */
async function applyUnderLock(
  deps: OperatorResultsDeps,
  payload: OperatorResultReceipt,
  received: Result,
): Promise<boolean> {
  let row: LockedTransaction | null = null;
  const step = await commitStep(
    deps,
    async (tx) => {
      row = await lockForMove(tx, { providerReference: payload.providerReference });
      if (!row || row.type !== 'CASHIN' || signedByAnother(payload, row)) {
        row = null;
        return null;
      }
      return settleOperatorResult(tx, row, received, `operator-result:${payload.source}`);
    },
    { rawStatements: true },
  );
  // Assigned inside the step, which control-flow analysis does not follow.
  const taken = row as LockedTransaction | null;
  if (!taken) return false;
  await reportUnmoved(deps, taken.id, payload.providerReference, received, step);
  return true;
}

/**
 * A callback signed by another operator account than the payment's (another operator, or the same one in
 * another country, with its own secret): that secret proves nothing about this payment. A status answer
 * was asked of the payment's own account; a hint is signed by nobody. A job without the account's country
 * (queued before it was carried) is held to its operator alone, as it was then.
 */
function signedByAnother(payload: OperatorResultReceipt, payment: { operator: string; countryCode: string }): boolean {
  if (payload.source !== 'callback') return false;
  if ((payload.operator ?? 'SIMULATOR') !== payment.operator) return true;
  return payload.country !== undefined && payload.country !== payment.countryCode;
}

/** Any result: the row read first, the operator asked when the result alone cannot be applied. */
async function takeAfterRead(
  deps: OperatorResultsDeps,
  payload: OperatorResultReceipt,
  received: Result,
  { operatorAllowed }: { operatorAllowed: boolean },
): Promise<boolean> {
  const t = await readTransaction(deps.db, { providerReference: payload.providerReference });
  if (!t) {
    deps.logger.warn(
      { providerReference: payload.providerReference },
      'operator result for an unknown reference ignored',
    );
    return true;
  }
  if (t.type !== 'CASHIN') {
    // A cash-out is decided by the answer to our disbursement call only (applyOperatorResult refuses it too).
    deps.logger.warn(
      { transaction_id: t.id, providerReference: payload.providerReference, source: payload.source },
      'operator result for a cash-out reference ignored',
    );
    return true;
  }
  // A result signed by another account than the payment's (its secret proves nothing about this payment)
  // is only a reason to ask the payment's own operator, as a hint is.
  const foreign = signedByAnother(payload, t);
  const askOperator = payload.source === 'hint' || foreign || needsStatusConfirmation(received);
  if (askOperator && !operatorAllowed) return false;
  if (foreign)
    deps.logger.warn(
      {
        transaction_id: t.id,
        operator: t.operator,
        country: t.countryCode,
        signedBy: payload.operator ?? 'SIMULATOR',
        signedIn: payload.country ?? null,
      },
      "signed result from another operator account than the payment's: taken as a hint",
    );
  const result =
    payload.source === 'hint' || foreign
      ? await decidedStatus(deps, t)
      : askOperator
        ? await confirmedByStatus(deps, t)
        : received;
  if (!result) return true;
  const cause = result === received ? `operator-result:${payload.source}` : 'operator-result:status-confirmation';
  // Refused by the state machine because the cash-in is FAILED, the money goes back, in the same database
  // transaction as the result's other effects would have been (decisions 13).
  const step = await commitStep(deps, (tx) => settleOperatorResult(tx, t.id, result, cause), { rawStatements: true });
  await reportUnmoved(deps, t.id, payload.providerReference, result, step);
  return true;
}

/**
 * An unsigned callback said something happened to this payment: the operator's own status is what is
 * applied (a PENDING answer changes nothing). A status query that fails is retried with the job: the hint
 * may be the only news of a payment made after its expiry (a redirect operator's late confirmation).
 */
async function decidedStatus(deps: OperatorResultsDeps, t: Transaction): Promise<Result | null> {
  const adapter = await deps.adapters.adapterFor(t);
  const status = await adapter.queryStatus(paymentLookupOf(t));
  return status.found && !needsStatusConfirmation(status) ? status : null;
}

/**
 * An OK without its 200 is neither a payment nor a refusal: the operator's status is asked once, and
 * its answer applied if it decides. Otherwise nothing moves; the cash-in's status polls and its expiry
 * check ask again, and an expiry that a real confirmation follows still credits the merchant.
 */
async function confirmedByStatus(deps: OperatorResultsDeps, t: Transaction): Promise<Result | null> {
  const where = { transaction_id: t.id, providerReference: t.providerReference };
  const status = await decidedStatus(deps, t).catch((err: unknown) => {
    deps.logger.warn(
      { err, ...where },
      'status query to confirm an OK without 200 failed; left to the polls and the expiry check',
    );
    return null;
  });
  if (!status) deps.logger.warn(where, 'operator result OK without 200 not confirmed by its status: not credited');
  return status;
}

/** A confirmed payment that did not credit the cash-in: another amount than its own, or a late success of a FAILED one. */
async function reportUnmoved(
  deps: OperatorResultsDeps,
  transactionId: string,
  providerReference: string,
  result: Result,
  step: SettledResult | null,
): Promise<void> {
  if (!isConfirmedPayment(result) || step?.moved) return;
  if (step?.amountDiffers) {
    deps.logger.warn(
      { transaction_id: transactionId, providerReference, reported: result.reported },
      "operator confirmed another amount or currency than the cash-in's: not applied, kept as a reconciliation case",
    );
    return;
  }
  await reportCapturedButFailed(deps, transactionId, providerReference, step?.held ?? null);
}

/**
 * The operator took the customer's money for a cash-in that is FAILED here (final, decisions 4): possible
 * when every push call and the last status query went unanswered, or the operator said it never saw the
 * push, and it registered it afterwards. Its return to the customer was started with this result (held),
 * or by an earlier copy of it (a repeat: nothing more to do). Either way no person has to act unless the
 * return fails, which the refund worker reports.
 */
async function reportCapturedButFailed(
  deps: OperatorResultsDeps,
  transactionId: string,
  providerReference: string,
  held: HeldLateSuccess | null,
): Promise<void> {
  if (held) {
    deps.onCapturedButFailed?.();
    deps.onLateSuccessHeld?.();
    deps.logger.warn(
      { transaction_id: transactionId, providerReference, refund_id: held.refund.id },
      'operator confirmed a payment that is FAILED here: its money is held in suspense and returned to the customer',
    );
    return;
  }
  const t = await deps.db.transaction.findUnique({ where: { id: transactionId }, select: { status: true } });
  if (t?.status === 'FAILED') {
    deps.onCapturedButFailed?.();
    deps.logger.info(
      { transaction_id: transactionId, providerReference },
      'operator confirmed again a payment that is FAILED here: its return was already started',
    );
  }
}
