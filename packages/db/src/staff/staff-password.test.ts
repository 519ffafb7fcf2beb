import {
  DEFAULT_SCRYPT_PARAMS,
  dummyVerifyPassword,
  generatePassword,
  hashPassword,
  verifyPassword,
} from './staff-password.js';

describe('staff password hashing (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash with N=2^15 r=8 p=1, a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('reads the parameters from the stored string, so hashes of another cost still verify', async () => {
    const cheap = await hashPassword('pw-of-another-era', { N: 1024, r: 4, p: 2 });
    expect(cheap).toMatch(/^scrypt\$1024\$4\$2\$/);
    await expect(verifyPassword('pw-of-another-era', cheap)).resolves.toBe(true);
    await expect(verifyPassword('pw-of-another-Era', cheap)).resolves.toBe(false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('caf\u00e9-secret');
    await expect(verifyPassword('cafe\u0301-secret', stored)).resolves.toBe(true);
  });

  it('fails closed on malformed or hostile stored values instead of throwing or exhausting memory', async () => {
    const good = await hashPassword('pw');
    const [, , r, p, salt, key] = good.split('$');
    for (const bad of [
      '',
      'plain-text',
      `bcrypt$32768$${r}$${p}$${salt}$${key}`,
      `scrypt$1000$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`,
      `scrypt$32768$0$${p}$${salt}$${key}`,
      `scrypt$32768$${r}$${p}$$${key}`,
      `scrypt$32768$${r}$${p}$${salt}$`,
      `scrypt$32768$${r}$${p}$${salt}`,
      `scrypt$32768$8.5$${p}$${salt}$${key}`,
    ]) {
      await expect(verifyPassword('pw', bad)).resolves.toBe(false);
    }
  });

  it('dummy verification always fails, and generated passwords are long and distinct', async () => {
    await expect(dummyVerifyPassword('anything')).resolves.toBe(false);
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
