/** "Forgot your password": single-use links valid one hour, their token kept as SHA-256 only. */
import type { Db, Tx } from '../database/index.js';
import { hashPassword } from '../staff/index.js';
import { newLinkToken, tokenHash } from './invitations.js';

export const PASSWORD_RESET_TTL_MS = 3600_000;

/** A new link for the user; its earlier unused links stop working (the latest mail is the one that counts). */
export async function createPasswordReset(
  tx: Tx,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  await tx.merchantPasswordReset.updateMany({ where: { merchantUserId: userId, usedAt: null }, data: { usedAt: now } });
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  await tx.merchantPasswordReset.create({
    data: { merchantUserId: userId, tokenHash: tokenHash(token), createdAt: now, expiresAt },
  });
  return { token, expiresAt };
}

/** The user a link still open at `now` belongs to (without spending it), or null. */
export async function passwordResetUser(db: Db | Tx, token: string, now: Date): Promise<string | null> {
  const row = await db.merchantPasswordReset.findUnique({ where: { tokenHash: tokenHash(token) } });
  return row && row.usedAt === null && row.expiresAt > now ? row.merchantUserId : null;
}

/**
 * Spends the link and sets the password, ending every session of the user begun before `now`. Null when
 * the link was spent by another request, or is unknown or expired: one conditional update decides.
 */
export async function resetPasswordWithToken(
  tx: Tx,
  token: string,
  password: string,
  now: Date,
): Promise<{ userId: string } | null> {
  const [row] = await tx.$queryRaw<{ merchant_user_id: string }[]>`
    UPDATE merchant_password_resets SET used_at = ${now}
    WHERE token_hash = ${tokenHash(token)} AND used_at IS NULL AND expires_at > ${now}
    RETURNING merchant_user_id`;
  if (!row) return null;
  await tx.merchantUser.update({
    where: { id: row.merchant_user_id },
    data: { passwordHash: await hashPassword(password), sessionsValidAfter: now, updatedAt: now },
  });
  return { userId: row.merchant_user_id };
}
