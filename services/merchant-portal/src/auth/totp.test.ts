import { matchTotp, newTotpSecret, totpCode, totpUri } from './totp.js';

// RFC 6238, appendix B: the SHA-1 secret "12345678901234567890" and its codes (the last 6 of 8 digits).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('gives the codes of RFC 6238', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
  });

  it('accepts the code of now and of one step either side, and says which step it was', () => {
    const secret = newTotpSecret();
    const at = 1_800_000_000_000;
    const step = Math.floor(at / 30_000);
    expect(matchTotp(secret, totpCode(secret, at), at)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, at - 30_000), at)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, at + 30_000), at)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, at - 60_000), at)).toBeNull();
  });

  it('refuses what is not six digits, and another secret’s code', () => {
    const secret = newTotpSecret();
    const at = Date.now();
    expect(matchTotp(secret, '12345', at)).toBeNull();
    expect(matchTotp(secret, 'abcdef', at)).toBeNull();
    // Another secret's code matches only by a one-in-a-million chance per step: use fixed secrets.
    expect(matchTotp(RFC_SECRET, totpCode('JBSWY3DPEHPK3PXP', 59_000), 59_000)).toBeNull();
  });

  it('writes the otpauth URI an authenticator scans', () => {
    const uri = totpUri(RFC_SECRET, 'awa@boutique.example', 'Mobile money');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Mobile%20money:awa%40boutique\.example\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(RFC_SECRET);
  });
});
