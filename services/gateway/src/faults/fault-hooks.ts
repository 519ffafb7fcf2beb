/**
 * Fault points for the chaos suite: places where a test makes the process die at the worst moment.
 * Off unless CHAOS_KILL_AFTER_COMMIT_PREFIX is set, which env.ts refuses unless NODE_ENV=test.
 */
export interface FaultHooks {
  /** Right after a cash-in's database commit, before its operator request is published. */
  afterCashinCommit(merchantOrderId: string): void;
}

/** kill -9 of this very process for cash-ins whose merchant_order_id starts with the prefix. */
export function killAfterCommitHooks(orderPrefix: string): FaultHooks | undefined {
  if (!orderPrefix) return undefined;
  return {
    afterCashinCommit(merchantOrderId) {
      if (merchantOrderId.startsWith(orderPrefix)) process.kill(process.pid, 'SIGKILL');
    },
  };
}
