import { signedRequestHash } from './signed-request.js';

const KEY = `pk_${'a'.repeat(32)}`;
const SIGNATURE = 'b'.repeat(64);

describe('signedRequestHash', () => {
  it('is 64 lowercase hex digits, the only form the database columns accept', () => {
    expect(signedRequestHash({ apiKey: KEY, signature: SIGNATURE })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the same key and signature, and differs when either does', () => {
    const hash = signedRequestHash({ apiKey: KEY, signature: SIGNATURE });
    expect(signedRequestHash({ apiKey: KEY, signature: SIGNATURE })).toBe(hash);
    expect(signedRequestHash({ apiKey: `pk_${'c'.repeat(32)}`, signature: SIGNATURE })).not.toBe(hash);
    expect(signedRequestHash({ apiKey: KEY, signature: 'd'.repeat(64) })).not.toBe(hash);
  });
});
