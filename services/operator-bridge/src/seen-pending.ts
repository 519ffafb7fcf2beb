import type { SeenTransaction } from '@mm/db/payments';

/** Enough for every cash-in of a busy process awaiting its customer's code (minutes at hundreds a second). */
const DEFAULT_MAX_ROWS = 10_000;
/**
 * How long a result for a cash-in whose push this process has under way waits for its acknowledgement:
 * an operator may call back before its answer to the push is read (the simulator at once), and the
 * acknowledgement's commit is a round trip away. Past it, the result takes the lock's path. Well inside
 * the bound of a result applied in its callback request (CALLBACK_APPLY_BUDGET_MS), which the wait and
 * the apply share.
 */
const DEFAULT_ACK_WAIT_MS = 250;

/**
 * The cash-ins this process moved to PENDING, as that move returned them, by provider reference: the
 * operator's result for one of them is then applied in one statement, on condition that the row is still
 * that version (moveIfUnchanged), instead of BEGIN, the row's lock, the move and COMMIT. A row missing
 * here (acknowledged by another process, pushed out by newer ones, or this process restarted) or changed
 * since only costs the usual path; a row is never trusted without its version being checked, so this
 * holds nothing the database has not.
 */
export class SeenPending {
  private readonly rows = new Map<string, SeenTransaction>();
  /** Pushes under way here, each settled once its acknowledgement is remembered or it ended otherwise. */
  private readonly pushes = new Map<string, Promise<void>>();

  constructor(
    private readonly maxRows = DEFAULT_MAX_ROWS,
    private readonly ackWaitMs = DEFAULT_ACK_WAIT_MS,
  ) {}

  /** A push of this cash-in starts; call the function returned when its run is over, whatever it did. */
  pushing(providerReference: string): () => void {
    let over!: () => void;
    const settled = new Promise<void>((resolve) => {
      over = resolve;
    });
    this.pushes.set(providerReference, settled);
    return () => {
      if (this.pushes.get(providerReference) === settled) this.pushes.delete(providerReference);
      over();
    };
  }

  remember(row: SeenTransaction): void {
    this.rows.delete(row.providerReference);
    this.rows.set(row.providerReference, row);
    // A Map iterates in insertion order: the first key is the oldest row.
    if (this.rows.size > this.maxRows) this.rows.delete(this.rows.keys().next().value!);
  }

  /**
   * The row as last seen, forgotten here: a result is applied from it once at most. When its push is
   * under way here, after its acknowledgement (or ackWaitMs, whichever comes first).
   */
  async take(providerReference: string): Promise<SeenTransaction | undefined> {
    const push = this.pushes.get(providerReference);
    if (push) await settledWithin(push, this.ackWaitMs);
    const row = this.rows.get(providerReference);
    this.rows.delete(providerReference);
    return row;
  }

  get size(): number {
    return this.rows.size;
  }
}

function settledWithin(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void p.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
