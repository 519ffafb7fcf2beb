import { DatabaseOutage } from './database-outage.js';

describe('DatabaseOutage', () => {
  const lost = () =>
    Object.assign(new Error('terminating connection due to immediate shutdown command'), { code: '57P01' });

  it('is PostgreSQL going away only: a connection ended or refused aborts the waits, a lock or a statement out of time does not', () => {
    let clock = 0;
    const outage = new DatabaseOutage(() => clock);
    const waiting = outage.signalSince(outage.mark());
    outage.seen(Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }));
    outage.seen(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    outage.seen(new Error('some bug'));
    expect(waiting.aborted).toBe(false);
    clock = 5;
    outage.seen(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(waiting.aborted).toBe(true);
  });

  it('an outage seen since the work began aborts its wait at once; one seen before it began does not', () => {
    let clock = 10;
    const outage = new DatabaseOutage(() => clock);
    outage.seen(lost());
    clock = 20;
    const after = outage.mark();
    expect(outage.signalSince(after).aborted).toBe(false);
    const before = outage.mark();
    clock = 30;
    outage.seen(lost());
    expect(outage.signalSince(before).aborted).toBe(true);
  });
});
