import type { RedisClient } from './redis-connection.js';

/**
 * Redis pub/sub channel on which every committed transaction state change is announced, so the
 * gateway can wait for the operator's acknowledgement without polling PostgreSQL.
 */
export function transactionUpdatesChannel(redisPrefix: string): string {
  return `${redisPrefix}:transaction-updates`;
}

/**
 * The columns of a cash-in that can change between its creation and the first move out of
 * CREATED/INITIATED, as they were once that move committed. With the row it created, they are the
 * whole answer the gateway gives, so it answers without reading the row back.
 */
export interface AcknowledgedFields {
  status: string;
  providerTxId: string | null;
  providerSessionId: string | null;
  providerState: string | null;
  providerTxnStatus: string | null;
  failureCode: string | null;
  failureReason: string | null;
  customerAction: unknown;
  updatedAt: Date;
  expiresAt: Date | null;
  completedAt: Date | null;
}

export interface TransactionUpdate {
  transaction_id: string;
  status: string;
  /** Absent from a publisher that does not know the moved row (or of a version before it was sent). */
  fields?: Omit<AcknowledgedFields, 'updatedAt' | 'expiresAt' | 'completedAt'> & {
    updatedAt: string;
    expiresAt: string | null;
    completedAt: string | null;
  };
}

/** What a waiter hears: the status, and the acknowledged fields when the publisher sent them. */
export interface HeardUpdate {
  status: string;
  fields: AcknowledgedFields | null;
}

/** The announcement of a moved row: with its acknowledged fields when `moved` carries them. */
export function transactionUpdateOf(
  moved: { id: string; status: string } & Partial<AcknowledgedFields>,
): TransactionUpdate {
  const update: TransactionUpdate = { transaction_id: moved.id, status: moved.status };
  if (!(moved.updatedAt instanceof Date)) return update;
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  update.fields = {
    status: moved.status,
    providerTxId: moved.providerTxId ?? null,
    providerSessionId: moved.providerSessionId ?? null,
    providerState: moved.providerState ?? null,
    providerTxnStatus: moved.providerTxnStatus ?? null,
    failureCode: moved.failureCode ?? null,
    failureReason: moved.failureReason ?? null,
    customerAction: moved.customerAction ?? null,
    updatedAt: moved.updatedAt.toISOString(),
    expiresAt: iso(moved.expiresAt),
    completedAt: iso(moved.completedAt),
  };
  return update;
}

function heardOf(update: TransactionUpdate): HeardUpdate {
  const f = update.fields;
  if (!f || typeof f.updatedAt !== 'string') return { status: update.status, fields: null };
  const date = (s: string | null) => (s === null ? null : new Date(s));
  return {
    status: update.status,
    fields: { ...f, updatedAt: new Date(f.updatedAt), expiresAt: date(f.expiresAt), completedAt: date(f.completedAt) },
  };
}

export async function announceTransactionUpdate(
  redis: RedisClient,
  redisPrefix: string,
  update: TransactionUpdate,
): Promise<void> {
  await redis.publish(transactionUpdatesChannel(redisPrefix), JSON.stringify(update));
}

/** One subscriber connection per process; callers wait on a transaction id with a deadline. */
export class TransactionUpdateWaiter {
  private readonly waiters = new Map<string, Set<(update: TransactionUpdate) => void>>();

  private constructor(private readonly subscriber: RedisClient) {}

  static async start(subscriber: RedisClient, redisPrefix: string): Promise<TransactionUpdateWaiter> {
    const waiter = new TransactionUpdateWaiter(subscriber);
    // SUBSCRIBE may be written before ioredis's ready check (INFO), which then fails in subscriber
    // mode and drops the connection with its subscription: every gateway waited out its ack budget.
    if (subscriber.status !== 'ready') await new Promise((ready) => subscriber.once('ready', ready));
    await subscriber.subscribe(transactionUpdatesChannel(redisPrefix));
    subscriber.on('message', (_channel: string, message: string) => waiter.dispatch(message));
    return waiter;
  }

  /**
   * Resolves with the first announcement whose status `until` accepts, or null after `timeoutMs`, or as
   * soon as `signal` is aborted (at once if it already is): the caller knows no announcement can come.
   */
  wait(
    transactionId: string,
    until: (status: string) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): { promise: Promise<HeardUpdate | null>; cancel(): void } {
    let done: (heard: HeardUpdate | null) => void = () => undefined;
    const promise = new Promise<HeardUpdate | null>((resolve) => {
      done = resolve;
    });
    const listener = (update: TransactionUpdate) => {
      if (until(update.status)) finish(heardOf(update));
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const set = this.waiters.get(transactionId) ?? new Set();
    set.add(listener);
    this.waiters.set(transactionId, set);
    const aborted = () => finish(null);
    const finish = (heard: HeardUpdate | null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      set.delete(listener);
      if (set.size === 0) this.waiters.delete(transactionId);
      done(heard);
    };
    if (signal?.aborted) finish(null);
    else signal?.addEventListener('abort', aborted, { once: true });
    return { promise, cancel: () => finish(null) };
  }

  private dispatch(message: string): void {
    let update: TransactionUpdate;
    try {
      update = JSON.parse(message) as TransactionUpdate;
    } catch {
      return;
    }
    for (const listener of this.waiters.get(update.transaction_id) ?? []) listener(update);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
