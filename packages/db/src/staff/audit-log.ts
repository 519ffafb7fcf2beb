/**
 * The audit log of staff actions (audit_log, append-only: triggers refuse UPDATE, DELETE and TRUNCATE,
 * and the application's role may only SELECT and INSERT it). `recordAudit` takes the transaction client
 * of the action it records, so the action and its audit row commit together or not at all.
 *
 * Each row is chained to the one before by its hash (audit-chain.ts), by a trigger that serializes
 * appends with a lock held until the appending transaction ends. So call recordAudit last in the
 * transaction: everything after it waits with every other staff action's audit row behind it, and a
 * row lock taken after it could deadlock with a transaction that holds that row and waits for the audit
 * lock. It must be a READ COMMITTED transaction (the default); the trigger refuses the others.
 */
import type { Db, Tx } from '../database/index.js';
import { Prisma, type AuditEntry } from '../generated/prisma/client.js';
import { normalizeStaffEmail } from './staff.js';

export type { AuditEntry };

export interface AuditInput {
  /** Null when nobody is authenticated (a failed login). */
  staffId: string | null;
  /** Who, readable without a join and kept if the account changes: the staff email (or the email tried). */
  actor: string;
  /** What, as a stable verb: `login`, `merchant.disable`, `cashout.approve`, ... */
  action: string;
  targetType?: string;
  targetId?: string;
  /** The record before and after the change; Dates and bigints are converted, secrets redacted. */
  before?: unknown;
  after?: unknown;
  requestId?: string;
  ip?: string;
  /** A merchant portal action: the merchant whose log it is, and its user who acted (staffId is null). */
  merchantId?: string;
  merchantUserId?: string;
}

// The log can never be cleaned, so a secret written into it would stay forever: redact by key name.
const SECRET_KEY = /password|secret|ciphertext|token/i;

function toJson(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (value === null || value === undefined) return Prisma.DbNull;
  const text = JSON.stringify(value, (key, v: unknown) => {
    if (key && SECRET_KEY.test(key)) return '[redacted]';
    return typeof v === 'bigint' ? v.toString() : v;
  });
  return text === undefined ? Prisma.DbNull : (JSON.parse(text) as Prisma.InputJsonValue);
}

export async function recordAudit(db: Db | Tx, input: AuditInput): Promise<AuditEntry> {
  return db.auditEntry.create({
    data: {
      staffId: input.staffId,
      actor: input.actor,
      action: input.action,
      targetType: input.targetType ?? null,
      targetId: input.targetId ?? null,
      before: toJson(input.before),
      after: toJson(input.after),
      requestId: input.requestId ?? null,
      ip: input.ip ?? null,
      merchantId: input.merchantId ?? null,
      merchantUserId: input.merchantUserId ?? null,
    },
  });
}

export interface AuditQuery {
  /** Page size, clamped to 1..500. */
  limit: number;
  /** Keyset cursor: entries older than this id (the `nextBeforeId` of the previous page). */
  beforeId?: bigint | string;
  targetType?: string;
  targetId?: string;
  staffId?: string;
  /**
   * Who, as stored in `actor` (a staff email, lower-cased at login; for failed logins the email tried,
   * also lower-cased): matched exactly after the same normalisation, so an admin can type it any case.
   */
  actor?: string;
  /**
   * One merchant's own log (the portal's Security page): only rows carrying this merchant_id, so never
   * another merchant's nor staff rows without one. Served by audit_log_merchant_idx (merchant_id, id).
   */
  merchantId?: string;
  /** Within a merchant's log: what one of its users did. */
  merchantUserId?: string;
  /** The exact verb (`portal.login`, ...). */
  action?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `beforeId` for the next (older) page; null on the last page. */
  nextBeforeId: bigint | null;
}

/** Newest first, keyset-paginated on the identity id (stable under concurrent inserts, unlike OFFSET). */
export async function listAudit(db: Db | Tx, query: AuditQuery): Promise<AuditPage> {
  const limit = Math.min(500, Math.max(1, Math.trunc(query.limit)));
  let beforeId: bigint | undefined;
  if (query.beforeId !== undefined) {
    if (typeof query.beforeId === 'string' && !/^\d{1,19}$/.test(query.beforeId))
      throw new RangeError('beforeId must be a positive integer');
    beforeId = BigInt(query.beforeId);
  }
  const rows = await db.auditEntry.findMany({
    where: {
      ...(beforeId !== undefined ? { id: { lt: beforeId } } : {}),
      ...(query.targetType !== undefined ? { targetType: query.targetType } : {}),
      ...(query.targetId !== undefined ? { targetId: query.targetId } : {}),
      ...(query.staffId !== undefined ? { staffId: query.staffId } : {}),
      ...(query.actor !== undefined ? { actor: normalizeStaffEmail(query.actor) } : {}),
      ...(query.merchantId !== undefined ? { merchantId: query.merchantId } : {}),
      ...(query.merchantUserId !== undefined ? { merchantUserId: query.merchantUserId } : {}),
      ...(query.action !== undefined ? { action: query.action } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const entries = rows.slice(0, limit);
  return { entries, nextBeforeId: rows.length > limit ? entries[entries.length - 1]!.id : null };
}
