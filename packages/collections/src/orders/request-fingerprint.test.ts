import { requestFingerprint } from './request-fingerprint.js';

describe('request fingerprint', () => {
  it('ignores key order, at every depth', () => {
    expect(requestFingerprint({ a: 1, b: { x: 1, y: 2 } })).toBe(requestFingerprint({ b: { y: 2, x: 1 }, a: 1 }));
  });
  it('changes with any value', () => {
    expect(requestFingerprint({ amount: 5000, metadata: { k: 'v' } })).not.toBe(
      requestFingerprint({ amount: 5000, metadata: { k: 'w' } }),
    );
    expect(requestFingerprint({ motif: null })).not.toBe(requestFingerprint({ motif: '' }));
  });
});
