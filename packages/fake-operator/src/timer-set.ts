/** Every timer a fake operator (the simulator, a contract mock) starts goes through here, so close() can stop them all and the process can exit. */
export class TimerSet {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  /** Runs fn after ms; does nothing once clear() was called. */
  after(ms: number, fn: () => void): NodeJS.Timeout | undefined {
    if (this.stopped) return undefined;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  cancel(timer: NodeJS.Timeout | undefined): void {
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  clear(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
