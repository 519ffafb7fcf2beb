import type { MerchantUserAccount } from '@mm/db/merchant-users';
import { mustSetUpTwoFactor, sessionHolds } from './guard.js';

const TTL_S = 8 * 3600;
const signedOutAt = new Date('2026-12-01T08:00:00Z');
const user: MerchantUserAccount = {
  id: '00000000-0000-4000-8000-000000000001',
  merchantId: '00000000-0000-4000-8000-000000000002',
  email: 'awa@boutique.example',
  name: 'Awa',
  role: 'owner',
  totpEnabledAt: null,
  sessionsValidAfter: signedOutAt,
  disabledAt: null,
  createdAt: signedOutAt,
  updatedAt: signedOutAt,
  merchant: { name: 'Boutique Awa', status: 'ACTIVE', requireTwoFactor: false },
};
const loginAt = signedOutAt.getTime() + 60_000;
const now = loginAt + 3600_000;

describe('sessionHolds', () => {
  it('holds for an enabled user of an active merchant, signed in after its last "sign out everywhere"', () => {
    expect(sessionHolds(user, loginAt, TTL_S, now)).toBe(true);
  });

  it('ends with the user disabled, the merchant disabled, or a sign-out everywhere after the sign-in', () => {
    expect(sessionHolds({ ...user, disabledAt: new Date(now) }, loginAt, TTL_S, now)).toBe(false);
    expect(sessionHolds({ ...user, merchant: { ...user.merchant, status: 'DISABLED' } }, loginAt, TTL_S, now)).toBe(
      false,
    );
    expect(sessionHolds({ ...user, sessionsValidAfter: new Date(loginAt + 1) }, loginAt, TTL_S, now)).toBe(false);
  });

  it('ends at its absolute lifetime, and never holds without a sign-in time', () => {
    expect(sessionHolds(user, loginAt, TTL_S, loginAt + TTL_S * 1000)).toBe(true);
    expect(sessionHolds(user, loginAt, TTL_S, loginAt + TTL_S * 1000 + 1)).toBe(false);
    expect(sessionHolds(user, undefined, TTL_S, now)).toBe(false);
  });
});

describe('mustSetUpTwoFactor', () => {
  const required = { ...user, merchant: { ...user.merchant, requireTwoFactor: true } };
  it('holds only while the team requires two-factor sign-in and the user has not turned it on', () => {
    expect(mustSetUpTwoFactor(required)).toBe(true);
    expect(mustSetUpTwoFactor({ ...required, totpEnabledAt: new Date(now) })).toBe(false);
    expect(mustSetUpTwoFactor(user)).toBe(false);
  });
});
