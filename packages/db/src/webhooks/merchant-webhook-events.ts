import { isUuid } from '@mm/domain';
import type { Db } from '../database/index.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * A merchant's own webhook events for the portal, newest first, paged by key (created_at, seq): the
 * merchant's index (merchant_id, created_at) serves every page, never an OFFSET or a COUNT.
 */
export interface MerchantWebhookEventQuery {
  merchantId: string;
  status?: string;
  eventType?: string;
  /** Created at or after; created before `to`. */
  from?: Date;
  to?: Date;
  /** The cursor of the previous page's last row (`nextCursor`). */
  before?: string;
  limit: number;
}

const LAST_ATTEMPT = { orderBy: { attemptNo: 'desc' }, take: 1 } as const;

export type MerchantWebhookEventRow = Prisma.WebhookEventGetPayload<{ include: { attempts: typeof LAST_ATTEMPT } }>;

export interface MerchantWebhookEventPage {
  events: MerchantWebhookEventRow[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** `<created_at ms>-<seq>`: both parts of the sort key, so a page starts exactly after the last one shown. */
export function parseEventCursor(raw: string): { createdAt: Date; seq: bigint } | null {
  const m = /^(\d{1,15})-(\d{1,19})$/.exec(raw);
  return m ? { createdAt: new Date(Number(m[1])), seq: BigInt(m[2]!) } : null;
}

export async function listMerchantWebhookEvents(
  db: Db,
  q: MerchantWebhookEventQuery,
): Promise<MerchantWebhookEventPage> {
  if (!isUuid(q.merchantId)) return { events: [], nextCursor: null };
  const cursor = q.before ? parseEventCursor(q.before) : null;
  const rows = await db.webhookEvent.findMany({
    where: {
      merchantId: q.merchantId,
      ...(q.status ? { status: q.status } : {}),
      ...(q.eventType ? { eventType: q.eventType } : {}),
      createdAt: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lt: q.to } : {}) },
      ...(cursor
        ? {
            OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, seq: { lt: cursor.seq } }],
          }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
    take: q.limit + 1,
    include: { attempts: LAST_ATTEMPT },
  });
  const events = rows.slice(0, q.limit);
  const last = events.at(-1);
  return {
    events,
    nextCursor: rows.length > q.limit && last ? `${last.createdAt.getTime()}-${last.seq}` : null,
  };
}

/** One event of the merchant with every attempt, oldest first; null for another merchant's or an unknown id. */
export async function findMerchantWebhookEvent(db: Db, merchantId: string, eventId: string) {
  if (!isUuid(eventId) || !isUuid(merchantId)) return null;
  return db.webhookEvent.findFirst({
    where: { id: eventId, merchantId },
    include: { attempts: { orderBy: { attemptNo: 'asc' } } },
  });
}

/** The ids of the merchant's ABANDONED events created in [from, to), oldest first, at most `limit`. */
export async function abandonedEventIds(
  db: Db,
  q: { merchantId: string; from: Date; to: Date; limit: number },
): Promise<string[]> {
  const rows = await db.webhookEvent.findMany({
    where: { merchantId: q.merchantId, status: 'ABANDONED', createdAt: { gte: q.from, lt: q.to } },
    orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }],
    take: q.limit,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
