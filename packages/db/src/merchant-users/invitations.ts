/**
 * Invitations to a merchant's team. The token goes out by mail only; the table keeps its SHA-256. Each
 * change is a conditional update, so two clicks on one link, or an accept racing a revoke, cannot both win.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isUuid, type MerchantRole } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import type { MerchantInvitation } from '../generated/prisma/client.js';
import { normalizeMerchantUserEmail } from './merchant-users.js';

/** 72 hours: a weekend, and the Monday to read the mail. */
export const INVITATION_TTL_MS = 72 * 3600_000;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, base64url: the only copy is in the link. */
export const newLinkToken = () => randomBytes(32).toString('base64url');

export type Invitation = Omit<MerchantInvitation, 'tokenHash'>;

const INVITATION = {
  id: true,
  merchantId: true,
  email: true,
  role: true,
  locale: true,
  invitedBy: true,
  invitedByStaffId: true,
  createdAt: true,
  expiresAt: true,
  acceptedAt: true,
  revokedAt: true,
} as const;

export interface NewInvitation {
  merchantId: string;
  email: string;
  role: MerchantRole;
  locale: 'fr' | 'en';
  /** Exactly one: a member of the merchant, or staff (a first owner from the back-office). */
  invitedBy: { merchantUserId: string } | { staffId: string };
  now: Date;
}

/**
 * A new invitation, revoking the merchant's pending ones to the same email (a re-invitation replaces the
 * old link). In the caller's transaction; returns the token for the mail and the revoked ids for the audit.
 */
export async function createInvitation(
  tx: Tx,
  input: NewInvitation,
): Promise<{ invitation: Invitation; token: string; replaced: string[] }> {
  const email = normalizeMerchantUserEmail(input.email);
  const pending = await tx.merchantInvitation.findMany({
    where: { merchantId: input.merchantId, email, acceptedAt: null, revokedAt: null },
    select: { id: true },
  });
  if (pending.length > 0) {
    await tx.merchantInvitation.updateMany({
      where: { id: { in: pending.map((p) => p.id) }, acceptedAt: null, revokedAt: null },
      data: { revokedAt: input.now },
    });
  }
  const token = newLinkToken();
  const invitation = await tx.merchantInvitation.create({
    data: {
      merchantId: input.merchantId,
      email,
      role: input.role,
      locale: input.locale,
      tokenHash: tokenHash(token),
      ...('staffId' in input.invitedBy
        ? { invitedByStaffId: input.invitedBy.staffId }
        : { invitedBy: input.invitedBy.merchantUserId }),
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + INVITATION_TTL_MS),
    },
    select: INVITATION,
  });
  return { invitation, token, replaced: pending.map((p) => p.id) };
}

/**
 * The merchant's invitations still open at `now`, newest first, keyset-paged on (created_at, id) like the
 * members (`role`: only those for this role).
 */
export async function pendingInvitationsPage(
  db: Db | Tx,
  merchantId: string,
  now: Date,
  q: { role?: MerchantRole | undefined; limit: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<{ invitations: Invitation[]; next: { createdAt: Date; id: string } | null }> {
  const after = q.after;
  const rows = await db.merchantInvitation.findMany({
    where: {
      merchantId,
      acceptedAt: null,
      revokedAt: null,
      expiresAt: { gt: now },
      ...(q.role ? { role: q.role } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    select: INVITATION,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
  });
  const invitations = rows.slice(0, q.limit);
  const last = invitations.at(-1);
  return { invitations, next: rows.length > q.limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationState(i: Invitation, now: Date): InvitationState {
  if (i.acceptedAt) return 'accepted';
  if (i.revokedAt) return 'revoked';
  return i.expiresAt > now ? 'pending' : 'expired';
}

/** The invitation a link's token opens, with its merchant's name; null for a token never issued. */
export async function findInvitationByToken(
  db: Db | Tx,
  token: string,
): Promise<(Invitation & { merchant: { name: string; status: string } }) | null> {
  return db.merchantInvitation.findUnique({
    where: { tokenHash: tokenHash(token) },
    select: { ...INVITATION, merchant: { select: { name: true, status: true } } },
  });
}

/** Revokes a pending invitation of this merchant; null when it is not one (another merchant's, or closed). */
export async function revokeInvitation(tx: Tx, merchantId: string, id: string, now: Date): Promise<Invitation | null> {
  if (!isUuid(id)) return null;
  const { count } = await tx.merchantInvitation.updateMany({
    where: { id, merchantId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });
  return count === 1 ? tx.merchantInvitation.findUnique({ where: { id }, select: INVITATION }) : null;
}

/**
 * Spends the link: marks it accepted if it is still pending at `now`, in the caller's transaction (which
 * then creates the user). Null when another request spent it first, or it was revoked or expired.
 */
export async function claimInvitation(tx: Tx, token: string, now: Date): Promise<Invitation | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE merchant_invitations SET accepted_at = ${now}
    WHERE token_hash = ${tokenHash(token)} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}
    RETURNING id`;
  return row ? tx.merchantInvitation.findUnique({ where: { id: row.id }, select: INVITATION }) : null;
}
