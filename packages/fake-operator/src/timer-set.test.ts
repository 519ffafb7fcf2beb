import { TimerSet } from './timer-set.js';

// Timers of equal delay fire in the order they were armed, so a later sentinel proves an earlier timer's fate.
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TimerSet', () => {
  it('runs a timer, and forgets it once run', async () => {
    const timers = new TimerSet();
    const fired: string[] = [];
    timers.after(5, () => fired.push('a'));
    await after(5);
    expect(fired).toEqual(['a']);
  });

  it('clear() stops armed timers and refuses new ones', async () => {
    const timers = new TimerSet();
    const fired: string[] = [];
    timers.after(5, () => fired.push('armed'));
    timers.clear();
    expect(timers.after(1, () => fired.push('late'))).toBeUndefined();
    await after(5);
    expect(fired).toEqual([]);
  });

  it('cancel() stops one timer', async () => {
    const timers = new TimerSet();
    const fired: string[] = [];
    const a = timers.after(5, () => fired.push('a'));
    timers.after(5, () => fired.push('b'));
    timers.cancel(a);
    await after(5);
    expect(fired).toEqual(['b']);
  });
});
