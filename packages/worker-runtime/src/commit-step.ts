import { completeOutbox } from '@mm/db/outbox';
import { runPgTransaction, runTransaction, type Db, type Tx } from '@mm/db';
import { moveNow, type TransitionRequest } from '@mm/db/payments';
import type { AfterCommit, CommittedChange } from '@mm/queues';

export interface StepContext {
  db: Db;
  afterCommit: AfterCommit;
}

/**
 * One step of a job: its database work and, when the step finishes the job, the completion of the
 * job's outbox row, in one transaction (run again on a deadlock or a serialization failure:
 * runTransaction; a transaction out of time fails the attempt, retried with the job's backoff); then, once committed, its jobs published and its change
 * announced. Every processor moves money this way, so none can commit without completing its row or
 * publish what did not commit.
 */
export async function commitStep<C extends CommittedChange | null>(
  ctx: StepContext,
  step: (tx: Tx) => Promise<C>,
  options: {
    completes?: string;
    /**
     * The step sends raw statements only ($queryRaw, $executeRaw): it runs as a pg transaction
     * (runPgTransaction), not a Prisma one, for the steps every payment takes (a cash-in's capture).
     */
    rawStatements?: boolean;
  } = {},
): Promise<C> {
  const run = options.rawStatements ? runPgTransaction : runTransaction;
  const change = await run(ctx.db, async (tx) => {
    const c = await step(tx);
    if (options.completes) await completeOutbox(tx, options.completes);
    return c;
  });
  await ctx.afterCommit.run([change]);
  return change;
}

/**
 * A move that writes no journal and no webhook (moveNow: one statement, no database transaction
 * around it), with the completion of the job's outbox row, then its jobs published and the change
 * announced, as commitStep does.
 */
export async function commitMove(
  ctx: StepContext,
  req: TransitionRequest & { ofType: NonNullable<TransitionRequest['ofType']> },
  options: { completes?: string } = {},
): Promise<Awaited<ReturnType<typeof moveNow>>> {
  const change = await moveNow(ctx.db, req, { completesOutbox: options.completes });
  await ctx.afterCommit.run([change]);
  return change;
}
