import { rescheduleOutbox } from '@mm/db/outbox';
import { commitStep, type StepContext } from './commit-step.js';

/** Seconds before asking again an operator that has not decided yet, by how many times it was asked. */
export const ASK_AGAIN_AFTER_S = [2, 5, 15, 30, 60, 300, 900];

/**
 * The operator has the request but has not decided it (a refund or payout it answered 202 to): the job's
 * outbox row runs again later, at growing intervals, as a new job. Not a failure: no attempt is used up,
 * nothing is parked, and the refund or cash-out stays as it is (never FAILED without the operator's word).
 * Returns when it will be asked again.
 */
export async function askAgainLater(ctx: StepContext, outboxId: string, now: () => number = Date.now): Promise<Date> {
  let at = new Date(now());
  await commitStep(ctx, async (tx) => {
    const { run } = await tx.outbox.findUniqueOrThrow({ where: { id: outboxId }, select: { run: true } });
    at = new Date(now() + ASK_AGAIN_AFTER_S[Math.min(run, ASK_AGAIN_AFTER_S.length - 1)]! * 1000);
    return { outbox: [await rescheduleOutbox(tx, outboxId, at)] };
  });
  return at;
}
