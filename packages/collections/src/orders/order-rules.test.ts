import type { Transaction } from '@mm/db';
import { DomainError } from '@mm/domain';
import { replayOf } from './order-rules.js';

const HASH = 'a'.repeat(64);
const existing = { requestFingerprint: 'fp', requestSignatureHash: HASH } as Transaction;
const codeOf = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.code : err;
  }
};

describe('replayOf: an order id already taken', () => {
  it('by the very signed request that created it: REQUEST_REPLAYED, as the Redis replay guard answers', () => {
    expect(codeOf(() => replayOf(existing, 'fp', 'o-1', HASH))).toBe('REQUEST_REPLAYED');
  });

  it('by the same request signed anew: a replay of the order (200)', () => {
    expect(replayOf(existing, 'fp', 'o-1', 'b'.repeat(64))).toEqual({ replayed: true, transaction: existing });
    expect(replayOf(existing, 'fp', 'o-1')).toEqual({ replayed: true, transaction: existing });
    // A row that kept no hash (a cash-in) is never taken for the same signed request.
    expect(replayOf({ ...existing, requestSignatureHash: null }, 'fp', 'o-1', HASH)).toEqual({
      replayed: true,
      transaction: { ...existing, requestSignatureHash: null },
    });
  });

  it('with other parameters: DUPLICATE_ORDER_ID', () => {
    expect(codeOf(() => replayOf(existing, 'other', 'o-1', 'b'.repeat(64)))).toBe('DUPLICATE_ORDER_ID');
  });
});
