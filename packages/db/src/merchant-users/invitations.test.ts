/** Invitations and password reset links against the real database: hashed tokens, single use under a race. */
import { createHash } from 'node:crypto';
import { createMerchant } from '../merchants/index.js';
import { verifyPassword } from '../staff/index.js';
import type { Db } from '../database/index.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import {
  claimInvitation,
  createInvitation,
  createMerchantUser,
  createPasswordReset,
  findInvitationByToken,
  findMerchantUserForLogin,
  invitationState,
  pendingInvitationsPage,
  resetPasswordWithToken,
  revokeInvitation,
} from './index.js';

describe('invitations and password resets', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  let shop: string;
  let other: string;
  let ownerId: string;
  const now = new Date('2026-12-01T10:00:00Z');
  beforeAll(async () => {
    fixture = await createDbTestDatabase(4);
    ({ db } = fixture);
    shop = (await createMerchant(db, { name: 'Boutique Awa', webhookUrl: null })).id;
    other = (await createMerchant(db, { name: 'Other', webhookUrl: null })).id;
    ownerId = (
      await createMerchantUser(db, { merchantId: shop, email: 'o@x.test', name: 'O', role: 'owner', password: 'p' })
    ).id;
  });
  afterAll(() => fixture.close());

  const invite = (email: string, at = now) =>
    db.$transaction((tx) =>
      createInvitation(tx, {
        merchantId: shop,
        email,
        role: 'finance',
        locale: 'fr',
        invitedBy: { merchantUserId: ownerId },
        now: at,
      }),
    );

  it('keeps only the SHA-256 of a 32-byte token, for 72 hours', async () => {
    const { invitation, token } = await invite(' New@X.Test ');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const [row] = await db.$queryRaw<{ token_hash: string; email: string }[]>`
      SELECT token_hash, email FROM merchant_invitations WHERE id = ${invitation.id}::uuid`;
    expect(row).toEqual({ token_hash: createHash('sha256').update(token).digest('hex'), email: 'new@x.test' });
    expect(invitation.expiresAt.getTime() - now.getTime()).toBe(72 * 3600_000);
    expect((await findInvitationByToken(db, token))?.merchant.name).toBe('Boutique Awa');
    expect(await findInvitationByToken(db, `${token}x`)).toBeNull();
  });

  it('replaces a pending invitation to the same email, and lists the open ones newest first', async () => {
    const first = await invite('again@x.test');
    const second = await invite('again@x.test', new Date(now.getTime() + 1000));
    expect(second.replaced).toEqual([first.invitation.id]);
    expect(invitationState((await findInvitationByToken(db, first.token))!, now)).toBe('revoked');
    const open = (await pendingInvitationsPage(db, shop, now, { limit: 50 })).invitations;
    expect(open.filter((i) => i.email === 'again@x.test').map((i) => i.id)).toEqual([second.invitation.id]);
    expect(open[0]!.id).toBe(second.invitation.id);
    expect(await pendingInvitationsPage(db, other, now, { limit: 50 })).toEqual({ invitations: [], next: null });
  });

  it('is claimed once, even by two requests at the same moment, and never after it expires or is revoked', async () => {
    const { token } = await invite('race@x.test');
    const claims = await Promise.all([1, 2].map(() => db.$transaction((tx) => claimInvitation(tx, token, now))));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);

    const late = await invite('late@x.test');
    const after = new Date(now.getTime() + 72 * 3600_000);
    expect(await db.$transaction((tx) => claimInvitation(tx, late.token, after))).toBeNull();

    const revoked = await invite('revoked@x.test');
    expect(await db.$transaction((tx) => revokeInvitation(tx, other, revoked.invitation.id, now))).toBeNull();
    expect(await db.$transaction((tx) => revokeInvitation(tx, shop, revoked.invitation.id, now))).not.toBeNull();
    expect(await db.$transaction((tx) => claimInvitation(tx, revoked.token, now))).toBeNull();
  });

  it('resets a password once per link, ends the sessions, and a newer link voids the older', async () => {
    const older = await db.$transaction((tx) => createPasswordReset(tx, ownerId, now));
    const newer = await db.$transaction((tx) => createPasswordReset(tx, ownerId, now));
    expect(await db.$transaction((tx) => resetPasswordWithToken(tx, older.token, 'new password 1', now))).toBeNull();
    const at = new Date(now.getTime() + 5000);
    const tries = await Promise.all(
      [1, 2].map(() => db.$transaction((tx) => resetPasswordWithToken(tx, newer.token, 'new password 2', at))),
    );
    expect(tries.filter((t) => t !== null)).toEqual([{ userId: ownerId }]);
    const user = await findMerchantUserForLogin(db, { id: ownerId });
    expect(await verifyPassword('new password 2', user!.passwordHash)).toBe(true);
    expect(user!.sessionsValidAfter).toEqual(at);
  });
});
