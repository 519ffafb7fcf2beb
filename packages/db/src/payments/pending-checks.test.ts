import { firstPendingCheck, nextPendingCheck } from './pending-checks.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s));
const id = '6f1c1b4e-8d7a-4a57-9a43-0d3c3f1f2b10';

describe('the checks of a PENDING cash-in', () => {
  it('schedules the earliest poll before the expiry, carrying the later ones in order; polls at or past the expiry are dropped', () => {
    expect(firstPendingCheck(id, [at(40), at(10), at(50), at(30)], at(45))).toEqual({
      topic: 'expiry-checks',
      availableAt: at(10),
      payload: { transaction_id: id, kind: 'poll', next_polls: [at(30).toISOString(), at(40).toISOString()] },
    });
  });

  it('schedules the expiry alone when no poll comes before it', () => {
    expect(firstPendingCheck(id, [at(50)], at(45))).toEqual({
      topic: 'expiry-checks',
      availableAt: at(45),
      payload: { transaction_id: id, kind: 'expiry' },
    });
    expect(firstPendingCheck(id, [], at(45)).payload).toEqual({ transaction_id: id, kind: 'expiry' });
  });

  it('follows a poll with the next poll, the last poll with the expiry, and the expiry with nothing', () => {
    const first = { transaction_id: id, kind: 'poll' as const, next_polls: [at(30).toISOString()] };
    const second = nextPendingCheck(first, at(45));
    expect(second).toEqual({ availableAt: at(30), payload: { transaction_id: id, kind: 'poll', next_polls: [] } });
    const third = nextPendingCheck(second!.payload, at(45));
    expect(third).toEqual({ availableAt: at(45), payload: { transaction_id: id, kind: 'expiry' } });
    expect(nextPendingCheck(third!.payload, at(45))).toBeNull();
  });

  it('leaves a poll of a row from before the chain (no next_polls) on its own: its expiry has a row already', () => {
    expect(nextPendingCheck({ transaction_id: id, kind: 'poll' }, at(45))).toBeNull();
  });
});
