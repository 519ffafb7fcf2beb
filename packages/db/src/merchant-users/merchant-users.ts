/**
 * The merchant portal's users (merchant_users): people of one merchant with a role. Emails are stored
 * lower-cased and trimmed, as the table requires. Passwords are hashed with the staff accounts' scrypt
 * (@mm/db/staff): one implementation of password hashing for both web apps.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isUuid, type MerchantRole } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import type { MerchantUser } from '../generated/prisma/client.js';
import { hashPassword } from '../staff/index.js';

/** A user without the password hash or the sealed TOTP secret, with what the guard needs of its merchant. */
export type MerchantUserAccount = Omit<MerchantUser, 'passwordHash' | 'totpSecretCiphertext'> & {
  merchant: { name: string; status: string; requireTwoFactor: boolean };
};

const ACCOUNT = {
  id: true,
  merchantId: true,
  email: true,
  name: true,
  role: true,
  totpEnabledAt: true,
  sessionsValidAfter: true,
  disabledAt: true,
  createdAt: true,
  updatedAt: true,
  merchant: { select: { name: true, status: true, requireTwoFactor: true } },
} as const;

export function normalizeMerchantUserEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewMerchantUser {
  merchantId: string;
  email: string;
  name: string;
  role: MerchantRole;
  /** Plain text, hashed here: nothing can store a password that is not hashed. */
  password: string;
}

/** Throws a unique violation (isUniqueViolation) when the email is taken, by this merchant or another. */
export async function createMerchantUser(db: Db | Tx, input: NewMerchantUser): Promise<MerchantUserAccount> {
  return db.merchantUser.create({
    data: {
      merchantId: input.merchantId,
      email: normalizeMerchantUserEmail(input.email),
      name: input.name.trim(),
      role: input.role,
      passwordHash: await hashPassword(input.password),
    },
    select: ACCOUNT,
  });
}

/**
 * The binding of a user's sealed TOTP secret: it opens for this user only. One definition for the
 * portal's sign-in and enrolment and for the demo seed, which seals the demo owner's published secret.
 */
export const merchantUserTotpBinding = (userId: string) => `merchant_user_totp:${userId}`;

/** A user with its password hash and sealed TOTP secret: for the sign-in checks only. */
export type MerchantUserWithSecrets = MerchantUser & { merchant: MerchantUserAccount['merchant'] };

/** By email (the password step) or by id (the second step): one read each, secrets included. */
export async function findMerchantUserForLogin(
  db: Db | Tx,
  by: { email: string } | { id: string },
): Promise<MerchantUserWithSecrets | null> {
  if ('id' in by && !isUuid(by.id)) return null;
  return db.merchantUser.findUnique({
    where: 'email' in by ? { email: normalizeMerchantUserEmail(by.email) } : { id: by.id },
    include: { merchant: ACCOUNT.merchant },
  });
}

/** The same user without its secrets: what a session and the pages get. */
export function accountOf(user: MerchantUserWithSecrets): MerchantUserAccount {
  const { passwordHash: _hash, totpSecretCiphertext: _secret, ...account } = user;
  return account;
}

export async function findMerchantUserById(db: Db | Tx, id: string): Promise<MerchantUserAccount | null> {
  if (!isUuid(id)) return null;
  return db.merchantUser.findUnique({ where: { id }, select: ACCOUNT });
}

/** One merchant's users: the only list there is, so a merchant never sees another's team. */
export async function listMerchantUsers(db: Db | Tx, merchantId: string): Promise<MerchantUserAccount[]> {
  return db.merchantUser.findMany({ where: { merchantId }, select: ACCOUNT, orderBy: { createdAt: 'asc' } });
}

export interface TeamPageQuery {
  role?: MerchantRole | undefined;
  limit: number;
  /** The last member of the page before (from `next`): the page holds those created before it. */
  after?: { createdAt: Date; id: string } | undefined;
}

/**
 * The Team page: one merchant's members still in the team (a removed one is a disabled row kept for the
 * audit log's sake), newest first, keyset-paged on (created_at, id) so a page costs the same however deep.
 */
export async function teamPage(
  db: Db | Tx,
  merchantId: string,
  q: TeamPageQuery,
): Promise<{ members: MerchantUserAccount[]; next: { createdAt: Date; id: string } | null }> {
  const after = q.after;
  const rows = await db.merchantUser.findMany({
    where: {
      merchantId,
      disabledAt: null,
      ...(q.role ? { role: q.role } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    select: ACCOUNT,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
  });
  const members = rows.slice(0, q.limit);
  const last = members.at(-1);
  return { members, next: rows.length > q.limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** Every session begun before `now` is refused from now on ("sign out of every session"). */
export async function signOutEverywhere(db: Db | Tx, userId: string, now: Date): Promise<void> {
  await db.merchantUser.update({ where: { id: userId }, data: { sessionsValidAfter: now, updatedAt: now } });
}

/** A TOTP secret being enrolled (sealed by the caller): not required at sign-in until confirmed. */
export async function startTotpEnrolment(db: Db | Tx, userId: string, ciphertext: string): Promise<void> {
  await db.merchantUser.update({
    where: { id: userId },
    data: { totpSecretCiphertext: ciphertext, totpEnabledAt: null, updatedAt: new Date() },
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Ten codes of 10 base-32 characters (50 bits each), shown once; grouped `xxxxx-xxxxx` for reading aloud. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(10);
    const text = [...bytes].map((b) => alphabet[b % 32]).join('');
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

const normalizeCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

/** Confirms the enrolment and replaces the user's recovery codes, in the caller's transaction. */
export async function confirmTotpEnrolment(tx: Tx, userId: string, recoveryCodes: string[], now: Date): Promise<void> {
  await tx.merchantUser.update({ where: { id: userId }, data: { totpEnabledAt: now, updatedAt: now } });
  await tx.merchantUserRecoveryCode.deleteMany({ where: { merchantUserId: userId } });
  await tx.merchantUserRecoveryCode.createMany({
    data: recoveryCodes.map((code) => ({ merchantUserId: userId, codeHash: sha256(normalizeCode(code)) })),
  });
}

/** Two-factor off: the secret and every recovery code go, in the caller's transaction. */
export async function disableTotp(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.merchantUser.update({
    where: { id: userId },
    data: { totpSecretCiphertext: null, totpEnabledAt: null, updatedAt: now },
  });
  await tx.merchantUserRecoveryCode.deleteMany({ where: { merchantUserId: userId } });
}

/** How many recovery codes the user has left (ten at most: no big count). */
export async function unusedRecoveryCodeCount(db: Db | Tx, userId: string): Promise<number> {
  return db.merchantUserRecoveryCode.count({ where: { merchantUserId: userId, usedAt: null } });
}

/**
 * The owner's "two-factor for the whole team" setting; returns what it was, for the audit row. Kept with
 * the users because it decides what each of them must do at sign-in.
 */
export async function setTeamTwoFactorRequired(
  tx: Tx,
  merchantId: string,
  required: boolean,
  now: Date,
): Promise<{ before: boolean }> {
  const [row] = await tx.$queryRaw<{ require_two_factor: boolean }[]>`
    SELECT require_two_factor FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
  if (!row) throw new Error(`no merchant ${merchantId}`);
  await tx.merchant.update({ where: { id: merchantId }, data: { requireTwoFactor: required, updatedAt: now } });
  return { before: row.require_two_factor };
}

/** Spends a recovery code: true once, false for an unknown or already used one (one conditional update). */
export async function useRecoveryCode(db: Db | Tx, userId: string, code: string, now: Date): Promise<boolean> {
  const { count } = await db.merchantUserRecoveryCode.updateMany({
    where: { merchantUserId: userId, codeHash: sha256(normalizeCode(code)), usedAt: null },
    data: { usedAt: now },
  });
  return count === 1;
}

/**
 * Disables (or enables again) a user: it can no longer sign in, and its open sessions end at their next
 * click (the portal's guard reads disabled_at on every request). Null for an unknown id; a user already in
 * that state is left as it is (before and after are the same).
 */
export async function setMerchantUserDisabled(
  db: Db | Tx,
  id: string,
  disabled: boolean,
  now = new Date(),
): Promise<{ before: MerchantUserAccount; after: MerchantUserAccount } | null> {
  const before = await findMerchantUserById(db, id);
  if (!before) return null;
  if ((before.disabledAt !== null) === disabled) return { before, after: before };
  const after = await db.merchantUser.update({
    where: { id },
    data: { disabledAt: disabled ? now : null, updatedAt: now },
    select: ACCOUNT,
  });
  return { before, after };
}
