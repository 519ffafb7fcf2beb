import { afterFailedAttempt } from './retry-policy.js';

const DEFAULT_MS = [60, 300, 900, 3600, 21600, 86400].map((s) => s * 1000);

describe('retry policy', () => {
  it('retries after each delay of the schedule, and abandons after the 7th attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => afterFailedAttempt(n, DEFAULT_MS))).toEqual([
      ...DEFAULT_MS.map((delayMs) => ({ kind: 'retry', delayMs })),
      { kind: 'abandon' },
    ]);
  });

  it('gives a re-sent event a new round of the same schedule (attempts 8 to 14)', () => {
    expect([8, 9, 13, 14].map((n) => afterFailedAttempt(n, DEFAULT_MS))).toEqual([
      { kind: 'retry', delayMs: 60_000 },
      { kind: 'retry', delayMs: 300_000 },
      { kind: 'retry', delayMs: 86_400_000 },
      { kind: 'abandon' },
    ]);
  });

  it('abandons at once with an empty schedule (a single attempt)', () => {
    expect(afterFailedAttempt(1, [])).toEqual({ kind: 'abandon' });
  });
});
