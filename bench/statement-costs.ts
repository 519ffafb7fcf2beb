/**
 * What each database step of a cash-in costs PostgreSQL, next to the flow ceiling's step that does the
 * same job: N cash-ins, in batches of BATCH taken through one step at a time (so that no more than a
 * batch waits between two steps, as in the running flow), sequentially on one connection, in a database
 * of their own; per step, the CPU every PostgreSQL process of the machine used during it (the backend,
 * and the WAL writer and checkpointer it leaves work for) and this process's own (the driver's side).
 * The first batch is not counted: the plans PostgreSQL keeps for the named statements are made in it,
 * while the tables are small, as after a deployment.
 *
 *   pnpm --filter @mm/bench exec tsx statement-costs.ts [N]
 *
 * A quiet machine is assumed: the PostgreSQL figure is the machine's, whoever caused it.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { applyOperatorResultIfUnchanged, createCashin, moveNow } from '@mm/db/payments';
import { claimDueDelivery, recordDeliveryOutcome } from '@mm/db/webhooks';
import { cashinInput, createDbTestDatabase } from '@mm/testing/test-database';
import { cpuSnapshot, usedBetween } from './support/cpu.js';
import { capture, createFlowTables, insertCashin, markPending, recordAttempt } from './support/flow-sql.js';

const n = Number(process.argv[2] ?? 2000);

const BATCH = 200;

interface Step {
  name: string;
  one(i: number): Promise<unknown>;
}
interface Cost {
  postgresS: number;
  clientUs: number;
  wallMs: number;
  calls: number;
}
const costs = new Map<string, Cost>();

/** Runs each step over a batch of indices, then the next batch; counts the cost of every batch but the first. */
async function runBatches(steps: Step[]): Promise<void> {
  for (let from = 0; from < n + BATCH; from += BATCH) {
    const counted = from > 0;
    for (const step of steps) {
      const before = cpuSnapshot({});
      const client = process.cpuUsage();
      const started = performance.now();
      for (let i = from; i < from + BATCH; i++) await step.one(i);
      if (!counted) continue;
      const used = process.cpuUsage(client);
      const c = costs.get(step.name) ?? { postgresS: 0, clientUs: 0, wallMs: 0, calls: 0 };
      c.postgresS += usedBetween(before.get('postgres'), cpuSnapshot({}).get('postgres') ?? new Map());
      c.clientUs += used.user + used.system;
      c.wallMs += performance.now() - started;
      c.calls += BATCH;
      costs.set(step.name, c);
    }
  }
}

const fixture = await createDbTestDatabase(1);
const { db } = fixture;
try {
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const merchantId = (await createMerchant(db, { name: 'M', webhookUrl: 'https://merchant.example/hooks' })).id;
  // Indexed by cash-in: what one step hands to the next.
  const ids: string[] = [];
  const outboxIds: string[] = [];
  const seen: NonNullable<Awaited<ReturnType<typeof moveNow>>>['seen'][] = [];
  const events: { eventId: string; outboxId: string }[] = [];
  await runBatches([
    {
      name: 'system: create (gateway)',
      one: async (i) => {
        const created = await createCashin(
          db,
          cashinInput(merchantId, `order-${i}`, { requestFingerprint: `fp-${i}` }),
        );
        if (created.kind !== 'created') throw new Error('not created');
        ids[i] = created.transaction.id;
        outboxIds[i] = created.outbox[0]!.id;
      },
    },
    {
      name: 'system: move to INITIATED (bridge)',
      one: (i) =>
        moveNow(db, {
          transactionId: ids[i]!,
          to: 'INITIATED',
          from: ['CREATED'],
          ofType: 'CASHIN',
          cause: 'operator-request',
        }),
    },
    {
      name: 'system: move to PENDING (bridge)',
      one: async (i) => {
        const moved = await moveNow(
          db,
          {
            transactionId: ids[i]!,
            to: 'PENDING',
            ofType: 'CASHIN',
            cause: 'operator-ack',
            patch: { providerState: 'PENDING', expiresAt: new Date(Date.now() + 300_000) },
          },
          { completesOutbox: outboxIds[i]! },
        );
        seen[i] = moved!.seen;
      },
    },
    {
      name: 'system: capture (bridge)',
      one: async (i) => {
        const captured = await applyOperatorResultIfUnchanged(
          db,
          seen[i]!,
          { providerState: 'OK', providerTxnStatus: '200', providerTxId: `TX-${i}`, failureReason: null },
          'operator-result:callback',
        );
        const job =
          captured && captured !== 'changed'
            ? captured.outbox.find((r) => r.topic === 'webhook-deliveries')
            : undefined;
        if (!job) throw new Error('not captured');
        events[i] = { eventId: (job.payload as { event_id: string }).event_id, outboxId: job.id };
      },
    },
    {
      name: 'system: claim the webhook (dispatcher)',
      one: (i) => claimDueDelivery(db, events[i]!.eventId, new Date(Date.now() + 1000), new Date(Date.now() + 15_000)),
    },
    {
      name: 'system: record the attempt (dispatcher)',
      one: (i) => {
        const now = new Date();
        return recordDeliveryOutcome(db, {
          eventId: events[i]!.eventId,
          outboxId: events[i]!.outboxId,
          attempt: {
            attemptNo: 1,
            targetUrl: 'https://merchant.example/hooks',
            statusCode: 200,
            latencyMs: 5,
            error: null,
            errorDetail: null,
            attemptedAt: now,
            finishedAt: now,
          },
          outcome: { kind: 'delivered' },
        });
      },
    },
  ]);

  const pool = new pg.Pool({ connectionString: fixture.database.url, max: 1 });
  try {
    await createFlowTables(pool);
    const flowIds = Array.from({ length: n + BATCH }, () => randomUUID());
    const eventIds = Array.from({ length: n + BATCH }, () => randomUUID());
    await runBatches([
      {
        name: 'flow ceiling: insert',
        one: (i) =>
          insertCashin(pool, {
            id: flowIds[i]!,
            merchantOrderId: `order-${i}`,
            amount: 1000,
            msisdn: '+2250707000001',
            notifyUrl: 'https://merchant.example/hooks',
          }),
      },
      { name: 'flow ceiling: mark PENDING', one: (i) => markPending(pool, flowIds[i]!) },
      {
        name: 'flow ceiling: capture (5 round trips)',
        one: (i) => capture(pool, flowIds[i]!, `TX-${i}`, eventIds[i]!, (row) => ({ ...row })),
      },
      { name: 'flow ceiling: record the attempt', one: (i) => recordAttempt(pool, eventIds[i]!, 200, 5) },
    ]);
  } finally {
    await pool.end();
  }
} finally {
  await fixture.close();
}

const rows = [...costs].map(([step, c]) => ({
  step,
  postgresMs: (c.postgresS * 1000) / c.calls,
  clientMs: c.clientUs / 1000 / c.calls,
  wallMs: c.wallMs / c.calls,
}));
const total = (prefix: string) =>
  rows
    .filter((r) => r.step.startsWith(prefix))
    .reduce((sum, r) => ({ p: sum.p + r.postgresMs, c: sum.c + r.clientMs }), { p: 0, c: 0 });
console.log(`${n} cash-ins per step (batches of ${BATCH}, the first not counted), one connection, ms per call:`);
console.table(
  rows.map((r) => ({
    step: r.step,
    'postgres CPU': r.postgresMs.toFixed(3),
    'client CPU': r.clientMs.toFixed(3),
    wall: r.wallMs.toFixed(3),
  })),
);
for (const prefix of ['system', 'flow ceiling']) {
  const t = total(prefix);
  console.log(`${prefix}: postgres ${t.p.toFixed(2)} ms, client ${t.c.toFixed(2)} ms per cash-in`);
}
