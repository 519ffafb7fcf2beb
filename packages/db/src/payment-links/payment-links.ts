import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, type LinkAmount, type PaymentLinkStatus } from '@mm/domain';
import { rawQuery, runTransaction, type Db, type Tx } from '../database/index.js';
import { recordAudit, type AuditInput } from '../staff/index.js';
import { Prisma } from '../generated/prisma/client.js';
import {
  COUNTS_JOIN,
  LINK_COLUMNS,
  recordOf,
  statusCondition,
  type LinkRow,
  type PaymentLinkRecord,
} from './link-records.js';

export interface NewPaymentLink {
  merchantId: string;
  description: string;
  countryCode: string;
  currency: string;
  amount: LinkAmount;
  reusable: boolean;
  maxPayments: number | null;
  expiresAt: Date | null;
  redirectUrl: string | null;
  metadata: Record<string, unknown> | null;
  /** Only the development seed names one (its published demo link); otherwise newLinkSlug(). */
  slug?: string;
}

/** 16 random bytes (128 bits), base64url: 22 characters no one finds by guessing. */
export function newLinkSlug(): string {
  return randomBytes(16).toString('base64url');
}

/** A person's change (the merchant portal's) has its audit row written in the change's own transaction. */
export type LinkAudit = (link: PaymentLinkRecord) => AuditInput;

async function readLinks(db: Db, where: Prisma.Sql, now: Date, tail = Prisma.empty): Promise<PaymentLinkRecord[]> {
  return (await rawQuery<LinkRow>(db, linksQuery(where, tail))).map((r) => recordOf(r, now));
}

/** The same read on a transaction's own connection (Prisma's), rows typed alike. */
async function readLinksIn(tx: Tx, where: Prisma.Sql, now: Date): Promise<PaymentLinkRecord[]> {
  return (await tx.$queryRaw<LinkRow[]>(linksQuery(where))).map((r) => recordOf(r, now));
}

const linksQuery = (where: Prisma.Sql, tail = Prisma.empty) =>
  Prisma.sql`SELECT ${LINK_COLUMNS} FROM payment_links l ${COUNTS_JOIN} WHERE ${where} ${tail}`;

/** A creation's Idempotency-Key and the fingerprint of its parameters (requestFingerprint). */
export interface LinkIdempotency {
  key: string;
  fingerprint: string;
}

function insertSql(id: string, link: NewPaymentLink, now: Date, idempotency: LinkIdempotency | null): Prisma.Sql {
  const fixed = link.amount.kind === 'fixed' ? link.amount.amount : null;
  const [min, max] = link.amount.kind === 'range' ? [link.amount.min, link.amount.max] : [null, null];
  return Prisma.sql`INSERT INTO payment_links (id, merchant_id, slug, description, country_code, currency, amount,
      min_amount, max_amount, reusable, max_payments, expires_at, redirect_url, metadata, idempotency_key,
      request_fingerprint, created_at, updated_at)
    VALUES (${id}::uuid, ${link.merchantId}::uuid, ${link.slug ?? newLinkSlug()}, ${link.description}, ${link.countryCode},
      ${link.currency}, ${fixed}::bigint, ${min}::bigint, ${max}::bigint, ${link.reusable}, ${link.maxPayments}::int,
      ${link.expiresAt}::timestamptz, ${link.redirectUrl}::text,
      ${link.metadata === null ? null : JSON.stringify(link.metadata)}::jsonb, ${idempotency?.key ?? null}::text,
      ${idempotency?.fingerprint ?? null}::text, ${now}::timestamptz, ${now}::timestamptz)`;
}

export async function insertPaymentLink(
  db: Db,
  link: NewPaymentLink,
  now: Date,
  audit?: LinkAudit,
): Promise<PaymentLinkRecord> {
  const id = randomUUID();
  const insert = insertSql(id, link, now, null);
  const byId = Prisma.sql`l.id = ${id}::uuid`;
  if (!audit) {
    await rawQuery(db, insert);
    return (await readLinks(db, byId, now))[0]!;
  }
  return runTransaction(db, async (tx) => {
    await tx.$executeRaw(insert);
    const record = (await readLinksIn(tx, byId, now))[0]!;
    await recordAudit(tx, audit(record));
    return record;
  });
}

const keyReused = () =>
  new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used with a different request');

/**
 * The link the merchant's earlier creation with this Idempotency-Key made, in its state now; null when the
 * key is new. The same key with other parameters is IDEMPOTENCY_KEY_REUSED.
 */
export async function findLinkByIdempotencyKey(
  db: Db,
  merchantId: string,
  idempotency: LinkIdempotency,
  now: Date,
): Promise<PaymentLinkRecord | null> {
  const [earlier] = await rawQuery<{ id: string; request_fingerprint: string }>(
    db,
    Prisma.sql`SELECT id::text, request_fingerprint FROM payment_links
      WHERE merchant_id = ${merchantId}::uuid AND idempotency_key = ${idempotency.key}`,
  );
  if (!earlier) return null;
  if (earlier.request_fingerprint !== idempotency.fingerprint) throw keyReused();
  return (await readLinks(db, Prisma.sql`l.id = ${earlier.id}::uuid`, now))[0]!;
}

/**
 * Creates the link once per Idempotency-Key: two requests with the same key at the same moment make one
 * link (the unique index decides; the second waits for the first to commit and reads its link). The audit
 * row of a person's creation is written with the link it made, and none for a replay.
 */
export async function insertPaymentLinkOnce(
  db: Db,
  link: NewPaymentLink,
  idempotency: LinkIdempotency,
  now: Date,
  audit?: LinkAudit,
): Promise<{ link: PaymentLinkRecord; replayed: boolean }> {
  const id = randomUUID();
  const insert = Prisma.sql`${insertSql(id, link, now, idempotency)}
    ON CONFLICT (merchant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id::text`;
  const byId = Prisma.sql`l.id = ${id}::uuid`;
  const made = audit
    ? await runTransaction(db, async (tx) => {
        if ((await tx.$queryRaw<{ id: string }[]>(insert)).length === 0) return null;
        const record = (await readLinksIn(tx, byId, now))[0]!;
        await recordAudit(tx, audit(record));
        return record;
      })
    : (await rawQuery<{ id: string }>(db, insert)).length === 1
      ? (await readLinks(db, byId, now))[0]!
      : null;
  if (made) return { link: made, replayed: false };
  const earlier = await findLinkByIdempotencyKey(db, link.merchantId, idempotency, now);
  if (!earlier) throw new Error('payment link insert skipped without a link holding its Idempotency-Key');
  return { link: earlier, replayed: true };
}

/** One of the merchant's links; another merchant's id answers null like an unknown one. */
export async function findMerchantPaymentLink(
  db: Db,
  merchantId: string,
  id: string,
  now: Date,
): Promise<PaymentLinkRecord | null> {
  const [record] = await readLinks(db, Prisma.sql`l.id = ${id}::uuid AND l.merchant_id = ${merchantId}::uuid`, now);
  return record ?? null;
}

/** The link behind a customer's page, with the merchant's name the page shows. */
export async function findPaymentLinkBySlug(
  db: Db,
  slug: string,
  now: Date,
): Promise<(PaymentLinkRecord & { merchantName: string }) | null> {
  const rows = await rawQuery<LinkRow & { merchantName: string }>(
    db,
    Prisma.sql`SELECT ${LINK_COLUMNS}, m.name AS "merchantName" FROM payment_links l JOIN merchants m ON m.id = l.merchant_id
      ${COUNTS_JOIN} WHERE l.slug = ${slug}`,
  );
  return rows[0] ? { ...recordOf(rows[0], now), merchantName: rows[0].merchantName } : null;
}

export interface PaymentLinkPage {
  links: PaymentLinkRecord[];
  hasMore: boolean;
}

/**
 * The merchant's links, newest first, `limit` at a time after the link `startingAfter` (its id: the
 * page goes on from its (created_at, id)), optionally of one status. An unknown `startingAfter`
 * gives an empty page.
 */
export async function listMerchantPaymentLinks(
  db: Db,
  q: { merchantId: string; limit: number; startingAfter?: string; status?: PaymentLinkStatus },
  now: Date,
): Promise<PaymentLinkPage> {
  const conditions = [Prisma.sql`l.merchant_id = ${q.merchantId}::uuid`];
  if (q.startingAfter)
    conditions.push(
      Prisma.sql`(l.created_at, l.id) < (SELECT a.created_at, a.id FROM payment_links a
        WHERE a.id = ${q.startingAfter}::uuid AND a.merchant_id = ${q.merchantId}::uuid)`,
    );
  if (q.status) conditions.push(statusCondition(q.status, now));
  const links = await readLinks(
    db,
    Prisma.join(conditions, ' AND '),
    now,
    Prisma.sql`ORDER BY l.created_at DESC, l.id DESC LIMIT ${q.limit + 1}`,
  );
  return { links: links.slice(0, q.limit), hasMore: links.length > q.limit };
}

/**
 * Stops the link at once (a payment in progress goes on); a second call keeps the first time. `audit`
 * is written with the change, only when this call made it.
 */
export async function deactivatePaymentLink(
  db: Db,
  merchantId: string,
  id: string,
  now: Date,
  audit?: LinkAudit,
): Promise<PaymentLinkRecord | null> {
  const update = Prisma.sql`UPDATE payment_links SET deactivated_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
      WHERE id = ${id}::uuid AND merchant_id = ${merchantId}::uuid AND deactivated_at IS NULL`;
  const mine = Prisma.sql`l.id = ${id}::uuid AND l.merchant_id = ${merchantId}::uuid`;
  if (!audit) {
    await rawQuery(db, update);
    return findMerchantPaymentLink(db, merchantId, id, now);
  }
  return runTransaction(db, async (tx) => {
    const changed = await tx.$executeRaw(update);
    const record = (await readLinksIn(tx, mine, now))[0] ?? null;
    if (record && changed > 0) await recordAudit(tx, audit(record));
    return record;
  });
}
