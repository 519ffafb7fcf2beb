import { randomBytes, randomUUID } from 'node:crypto';
import Joi from 'joi';
import type { Redis } from 'ioredis';
import type { OutboxJob, OutboxQueueDefinition, OutboxTopic, QueueCatalog } from './catalog.js';
import { cashoutRequests, type CashoutRequestJob } from './definitions/cashout-requests.js';
import type { CustomerCodeJob } from './definitions/customer-codes.js';
import { expiryChecks, type ExpiryCheckJob } from './definitions/expiry-checks.js';
import { operatorRequests, type OperatorRequestJob } from './definitions/operator-requests.js';
import { operatorResults, type OperatorResultJob } from './definitions/operator-results.js';
import { refundRequests, type RefundRequestJob } from './definitions/refund-requests.js';
import type { RetentionRunJob } from './definitions/retention-runs.js';
import type { ReconciliationRunJob } from './definitions/reconciliation-runs.js';
import { webhookDeliveries, type WebhookDeliveryJob } from './definitions/webhook-deliveries.js';
import { OutboxPublisher, createOutboxPublisher } from './outbox-publisher.js';
import { startOutboxRelay } from './outbox-relay.js';
import type { PublishableOutboxRow } from './outbox-row.js';
import { QueueProducer } from './producer.js';
import { defineQueue, outboxJobId } from './queue-definition.js';
import { createRedisConnection } from './redis-connection.js';

/*
 * The type-level half of this file is checked by `pnpm run typecheck` (this package's tsconfig
 * includes src, tests too): each `@ts-expect-error` line must fail to compile, or the typecheck
 * fails with "Unused '@ts-expect-error' directive". The functions holding them are never called.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(..._proof: Equal<A, B> extends true ? [] : [never]) => undefined;

// The catalog is each queue's own payload type, derived from its definition.
same<
  QueueCatalog,
  {
    'operator-requests': OperatorRequestJob;
    'operator-results': OperatorResultJob;
    'expiry-checks': ExpiryCheckJob;
    'webhook-deliveries': WebhookDeliveryJob;
    'refund-requests': RefundRequestJob;
    'cashout-requests': CashoutRequestJob;
    'customer-codes': CustomerCodeJob;
    'retention-runs': RetentionRunJob;
    'reconciliation-runs': ReconciliationRunJob;
  }
>();
// operator-results, customer-codes, retention-runs and reconciliation-runs have no outbox_id: their jobs are added directly (the
// callback route, the payment page, a job scheduler), never through the outbox.
same<
  OutboxTopic,
  'operator-requests' | 'expiry-checks' | 'webhook-deliveries' | 'refund-requests' | 'cashout-requests'
>();

// prettier-ignore
export function outboxJobsCompileOnlyWithTheirTopicsPayload(): OutboxJob[] {
  const id = randomUUID();
  return [
    { topic: 'operator-requests', payload: { transaction_id: id } },
    { topic: 'cashout-requests', payload: { transaction_id: id } },
    { topic: 'expiry-checks', payload: { transaction_id: id, kind: 'poll' } },
    { topic: 'webhook-deliveries', payload: { event_id: id } },
    { topic: 'refund-requests', payload: { refund_id: id } },
    // @ts-expect-error a refund request names its refund, not a transaction
    { topic: 'refund-requests', payload: { transaction_id: id } },
    // @ts-expect-error a webhook delivery names its event
    { topic: 'webhook-deliveries', payload: { transaction_id: id } },
    // @ts-expect-error an expiry check says which check it is
    { topic: 'expiry-checks', payload: { transaction_id: id } },
    // @ts-expect-error nor any other kind
    { topic: 'expiry-checks', payload: { transaction_id: id, kind: 'later' } },
    // @ts-expect-error an operator request names its transaction
    { topic: 'operator-requests', payload: {} },
    // @ts-expect-error the cash-out request's payload is not a refund's
    { topic: 'cashout-requests', payload: { refund_id: id } },
    // @ts-expect-error a topic that is no queue
    { topic: 'refund-request', payload: { refund_id: id } },
    // @ts-expect-error operator-results is a queue, but not one fed by the outbox
    { topic: 'operator-results', payload: { provider_reference: 'R', provider_state: 'OK', provider_txn_status: null, provider_tx_id: null, provider_session_id: null, failure_reason: null, source: 'callback' } },
    // @ts-expect-error outbox_id is the row's own id, set by the publisher
    { topic: 'refund-requests', payload: { refund_id: id, outbox_id: id } },
  ];
}

// prettier-ignore
export function onlyOutboxQueuesMakeAPublisher(connection: Redis): void {
  const options = { connection, redisPrefix: 'never-run' };
  createOutboxPublisher([operatorRequests, cashoutRequests, expiryChecks, webhookDeliveries, refundRequests], options);
  // @ts-expect-error the outbox cannot feed operator-results (no outbox_id in its payload)
  createOutboxPublisher([operatorResults], options);
  new OutboxPublisher([new QueueProducer(webhookDeliveries, options)]);
  // @ts-expect-error nor through a producer of it
  new OutboxPublisher([new QueueProducer(operatorResults, options)]);
  // defineQueue infers the name's literal type and the payload from the schema.
  const typed: OutboxQueueDefinition = defineQueue({
    name: 'refund-requests', schema: Joi.object<RefundRequestJob, true>({ outbox_id: Joi.string(), refund_id: Joi.string() }), jobOptions: {},
  });
  void typed;
  // @ts-expect-error a definition whose schema has no payload type is refused where it is defined
  defineQueue({ name: 'untyped', schema: Joi.object({ id: Joi.string() }), jobOptions: {} });
  // @ts-expect-error and joi checks the schema has a rule for each field of the payload type
  defineQueue({ name: 'partial', schema: Joi.object<RefundRequestJob, true>({ refund_id: Joi.string() }), jobOptions: {} });
}

// prettier-ignore
export function aRowIsItsTopicsJob(row: PublishableOutboxRow): string {
  if (row.topic === 'refund-requests') return row.payload.refund_id;
  // @ts-expect-error not every row's payload has a refund_id
  return row.payload.refund_id;
}

describe('outbox publisher', () => {
  let connection: Redis;
  let prefix: string;
  const logged: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const logger = {
    warn: (obj: object, msg: string) => {
      logged.push({ level: 'warn', msg, obj: obj as Record<string, unknown> });
    },
    error: (obj: object, msg: string) => {
      logged.push({ level: 'error', msg, obj: obj as Record<string, unknown> });
    },
  };
  let outbox: ReturnType<typeof createOutboxPublisher>;

  beforeAll(() => {
    connection = createRedisConnection(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  beforeEach(() => {
    prefix = `mmtest${randomBytes(5).toString('hex')}`;
    logged.length = 0;
    outbox = createOutboxPublisher([refundRequests], { connection, redisPrefix: prefix }, logger);
  });
  afterEach(async () => {
    await outbox.close();
    const keys = await connection.keys(`${prefix}*`);
    if (keys.length > 0) await connection.del(...keys);
  });
  afterAll(() => connection.disconnect());

  const refundQueue = () => new QueueProducer(refundRequests, { connection, redisPrefix: prefix });

  /**
   * A row as findOverdueOutbox reads it back: its payload is whatever the database holds. Our code
   * cannot write this one (see above), a row from before a schema change could.
   */
  const oldRow = (payload: object): PublishableOutboxRow =>
    ({ id: randomUUID(), topic: 'refund-requests', payload, availableAt: new Date(0), run: 0 }) as PublishableOutboxRow;

  it('publishes a row with its id as outbox_id, under the job id of its run', async () => {
    const row: PublishableOutboxRow = {
      id: randomUUID(),
      topic: 'refund-requests',
      payload: { refund_id: randomUUID() },
      availableAt: new Date(0),
      run: 2,
    };
    await outbox.publisher.publish([row]);
    const queue = refundQueue();
    const job = await queue.queue.getJob(outboxJobId(row.id, 2));
    await queue.close();
    expect(job?.data).toEqual({ outbox_id: row.id, refund_id: row.payload.refund_id });
    expect(logged).toEqual([]);
  });

  it('logs a row whose payload breaks its queue schema at error level, on each relay pass, and queues nothing for it', async () => {
    const broken = oldRow({ transaction_id: randomUUID() });
    const good: PublishableOutboxRow = {
      id: randomUUID(),
      topic: 'refund-requests',
      payload: { refund_id: randomUUID() },
      availableAt: new Date(0),
      run: 0,
    };
    const relay = startOutboxRelay({
      publisher: outbox.publisher,
      topics: ['refund-requests'],
      findOverdue: async () => [broken, good],
      graceMs: 0,
      intervalMs: 60_000,
    });
    await relay.runOnce();
    await relay.runOnce();
    await relay.stop();

    const queue = refundQueue();
    const counts = await queue.queue.getJobCounts('waiting', 'delayed');
    const goodJob = await queue.queue.getJob(outboxJobId(good.id, 0));
    await queue.close();
    expect(counts).toMatchObject({ waiting: 1, delayed: 0 });
    expect(goodJob?.data).toEqual({ outbox_id: good.id, refund_id: good.payload.refund_id });
    // Once per pass, never as a passing publish failure ("the relay will retry").
    expect(logged.map((l) => [l.level, l.msg, l.obj.outboxId])).toEqual([
      ['error', 'outbox row breaks its queue schema; it will not run until fixed by hand', broken.id],
      ['error', 'outbox row breaks its queue schema; it will not run until fixed by hand', broken.id],
    ]);
    expect(String(logged[0]!.obj.err)).toMatch(/invalid refund-requests payload: "refund_id" is required/);
  });
});
