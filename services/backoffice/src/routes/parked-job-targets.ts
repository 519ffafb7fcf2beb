import { listParkedJobs, type ParkedJob } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { isUuid } from '@mm/domain';

/** The payload fields that name a record staff can look up; a job's payload is JSON, so each is checked. */
const ID_KEYS = ['transaction_id', 'refund_id', 'event_id'] as const;

export interface PayloadId {
  key: (typeof ID_KEYS)[number];
  id: string;
  /** The transaction page this id leads to: its own, or its refund's or event's; null when there is none. */
  transactionId: string | null;
}

export interface ParkedJobRow extends ParkedJob {
  ids: PayloadId[];
}

function idsOf(payload: Record<string, unknown>): Omit<PayloadId, 'transactionId'>[] {
  return ID_KEYS.flatMap((key) => {
    const value = payload[key];
    return typeof value === 'string' && isUuid(value) ? [{ key, id: value.toLowerCase() }] : [];
  });
}

/**
 * The newest parked jobs with the ids of their payloads, each with the transaction it belongs to.
 * Refunds and webhook events carry no transaction id in their job: two lookups for the whole page,
 * not one per row.
 */
export async function parkedJobsWithTargets(db: Db, limit: number): Promise<ParkedJobRow[]> {
  const jobs = await listParkedJobs(db, limit);
  const found = jobs.map((job) => idsOf(job.payload));
  const idsFor = (key: PayloadId['key']) => [
    ...new Set(
      found
        .flat()
        .filter((f) => f.key === key)
        .map((f) => f.id),
    ),
  ];
  const [refunds, events] = await Promise.all([
    db.refund.findMany({ where: { id: { in: idsFor('refund_id') } }, select: { id: true, transactionId: true } }),
    db.webhookEvent.findMany({ where: { id: { in: idsFor('event_id') } }, select: { id: true, transactionId: true } }),
  ]);
  const transactionOf: Record<PayloadId['key'], Map<string, string | null>> = {
    transaction_id: new Map(),
    refund_id: new Map(refunds.map((r) => [r.id, r.transactionId])),
    event_id: new Map(events.map((e) => [e.id, e.transactionId])),
  };
  return jobs.map((job, i) => ({
    ...job,
    ids: found[i]!.map((f) => ({
      ...f,
      transactionId: f.key === 'transaction_id' ? f.id : (transactionOf[f.key].get(f.id) ?? null),
    })),
  }));
}
