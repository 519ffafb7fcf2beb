/**
 * Bounds the operator results applied inside callback requests: at most `max` at once (each holds a
 * database connection the bridge's jobs also need) and each answered within `budgetMs` (a row or a
 * balance locked by someone else must not keep the operator's request open). What is refused or runs
 * late resolves false, and the route queues the result for the worker instead; a late apply still
 * finishes in the background, and the worker's second apply of the same result changes nothing.
 */
export class InlineApplies {
  private running = 0;

  constructor(
    private readonly max: number,
    private readonly budgetMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** True when `apply` ran and resolved true within the budget. */
  async run(apply: () => Promise<boolean>): Promise<boolean> {
    if (this.running >= this.max) return false;
    this.running++;
    const applied = apply()
      .catch((err: unknown) => {
        this.onError(err);
        return false;
      })
      .finally(() => {
        this.running--;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.budgetMs);
    });
    try {
      return await Promise.race([applied, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  inFlight(): number {
    return this.running;
  }
}
