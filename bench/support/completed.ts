/** The completed-cash-ins measure of the flow loads (bench/load.ts), apart so that it can be tested. */
export interface Completed {
  /** Cash-ins answered 202 during the load. */
  accepted: number;
  /** Of those, the ones whose SUCCESS webhook arrived. */
  completed: number;
  /** Answered 202, and no SUCCESS webhook by the deadline. */
  lost: number;
  /** From the start of the load to the last completed cash-in's webhook. */
  seconds: number;
  /** Completed cash-ins per second: completed ÷ seconds (0 when none completed). */
  perS: number;
}

/**
 * Completed cash-ins: the ones answered 202 during the load (`accepted`, by merchant_order_id) whose
 * SUCCESS webhook arrived (`arrivals`: merchant_order_id → time of the first one, on the clock of
 * `startedAt`, in ms), per second from the start of the load to the last of those webhooks. A webhook
 * of a cash-in that was not answered 202 (cut off by the end of the load) is not counted.
 */
export function completedCashins(
  accepted: Iterable<string>,
  arrivals: ReadonlyMap<string, number>,
  startedAt: number,
): Completed {
  const ids = new Set(accepted);
  let completed = 0;
  let last = startedAt;
  for (const id of ids) {
    const at = arrivals.get(id);
    if (at === undefined) continue;
    completed++;
    last = Math.max(last, at);
  }
  const seconds = (last - startedAt) / 1000;
  return {
    accepted: ids.size,
    completed,
    lost: ids.size - completed,
    seconds,
    perS: completed > 0 && seconds > 0 ? completed / seconds : 0,
  };
}
