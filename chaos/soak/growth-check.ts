/** One value of one series (a service's heap, Redis's memory…) at one moment of the soak. */
export interface Point {
  atMs: number;
  value: number;
}

/**
 * What growth a series may show between the start and the end of the steady part of a run before it
 * is called unbounded: the larger of an absolute allowance (noise, caches filling once) and a share of
 * where it started.
 */
export interface Allowance {
  absolute: number;
  relative: number;
}

export interface GrowthVerdict {
  /** Median of the first third of the steady part, and of its last third. */
  early: number;
  late: number;
  growth: number;
  allowed: number;
  bounded: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Whether a series levelled off: the run's first `warmupShare` is left out (pools filling, JIT, caches),
 * the rest cut in thirds, and the median of the last third compared with the median of the first. A
 * leak grows with time and shows as a late median above the early one by more than the allowance; a
 * garbage collector's saw-tooth or one spike does not move a median. Too few points to cut in thirds
 * is not a verdict of boundedness, and says so.
 */
export function growthOf(points: Point[], allowance: Allowance, warmupShare = 0.2): GrowthVerdict | null {
  if (points.length === 0) return null;
  const start = points[0]!.atMs;
  const end = points[points.length - 1]!.atMs;
  const steady = points.filter((p) => p.atMs >= start + (end - start) * warmupShare);
  const third = Math.floor(steady.length / 3);
  if (third < 2) return null;
  const early = median(steady.slice(0, third).map((p) => p.value));
  const late = median(steady.slice(-third).map((p) => p.value));
  const growth = late - early;
  const allowed = Math.max(allowance.absolute, Math.abs(early) * allowance.relative);
  return { early, late, growth, allowed, bounded: growth <= allowed };
}
