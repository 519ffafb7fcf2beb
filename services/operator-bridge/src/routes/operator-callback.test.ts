import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Db, Transaction } from '@mm/db';
import { createCashin, transition } from '@mm/db/payments';
import { Counter, createLogger, createMetricsRegistry } from '@mm/observability';
import type { OperatorAdapter, VerifiedCallback } from '@mm/operators';
import { oneAdapter } from '@mm/operators/testing';
import type { OperatorResultJob, OperatorResultReceipt, QueueProducer } from '@mm/queues';
import { createMerchantTestDatabase, waitFor, type MerchantTestDatabase } from '@mm/testing';
import { noEffects } from '@mm/worker-runtime/testing';
import { applySignedResultNow } from '../processors/operator-results.js';
import { operatorCallbackRouter } from './operator-callback.js';
import { InlineApplies } from './inline-applies.js';

/** Takes the callback's JSON body as the operator's signed word: the route, not a signature scheme, is tested. */
const trustingAdapter = {
  parseCallback(body: Buffer): VerifiedCallback | null {
    const b = JSON.parse(body.toString()) as {
      ref: string;
      state: VerifiedCallback['providerState'];
      status: string | null;
      n: string;
    };
    return {
      partnerReference: b.ref,
      providerState: b.state,
      providerTxnStatus: b.status,
      providerTxId: 'TX1',
      providerSessionId: null,
      failureReason: null,
      replayKey: b.n,
    };
  },
} as unknown as OperatorAdapter;
const noStatus = {
  queryStatus: async (): Promise<never> => {
    throw new Error('no status query expected');
  },
};

describe('operator callback route', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let server: Server;
  let url: string;
  const queued: OperatorResultJob[] = [];
  let applyNow: (receipt: OperatorResultReceipt) => Promise<boolean>;
  let queueDown = false;
  const seen = new Set<string>();
  let inline: InlineApplies | undefined;
  const metrics = createMetricsRegistry('test');
  const callbacks = new Counter({ name: 'callbacks_total', help: 'x', labelNames: ['outcome'], registers: [metrics] });

  beforeAll(async () => {
    // Connections for a holder of a row lock, an apply waiting behind it and the test's own reads.
    fixture = await createMerchantTestDatabase(8);
    db = fixture.db;
    const logger = createLogger('test', 'silent');
    const results = {
      add: async (job: OperatorResultJob) => {
        if (queueDown) throw new Error('redis down');
        queued.push(job);
      },
    } as unknown as QueueProducer<OperatorResultJob>;
    const app = express();
    app.use(
      operatorCallbackRouter({
        simulator: trustingAdapter,
        adapters: oneAdapter(trustingAdapter),
        results,
        callbacks,
        logger,
        now: Date.now,
        paymentAccount: (providerReference) =>
          db.transaction.findUnique({ where: { providerReference }, select: { countryCode: true, operator: true } }),
        // Bounded as the bridge wires it when a test sets `inline`; unbounded otherwise.
        applyNow: (job) => (inline ? inline.run(() => applyNow(job)) : applyNow(job)),
        replays: {
          taken: async (key) => seen.has(key),
          remember: async (key) => {
            seen.add(key);
          },
        },
      }),
    );
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: 'internal' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/operator/callbacks/simulator`;
  });
  beforeEach(() => {
    queued.length = 0;
    queueDown = false;
    inline = undefined;
    applyNow = applySignedResultNow({
      db,
      afterCommit: noEffects,
      logger: createLogger('test', 'silent'),
      adapters: oneAdapter(noStatus),
    });
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await fixture.close();
  });

  let n = 0;
  async function pendingCashin(): Promise<Transaction> {
    const order = `cb-${++n}`;
    const r = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to: 'INITIATED', cause: 'test' }));
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: r.transaction.id,
        to: 'PENDING',
        cause: 'test',
        patch: { providerState: 'PENDING' },
      }),
    );
    return r.transaction;
  }
  const post = (body: object) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const statusOf = async (id: string) => (await db.transaction.findUniqueOrThrow({ where: { id } })).status;

  it('applies a signed result in the request: SUCCESS is committed when the operator gets its 200, nothing is queued', async () => {
    const t = await pendingCashin();
    const res = await post({ ref: t.providerReference, state: 'OK', status: '200', n: `k${n}` });
    expect(res.status).toBe(200);
    expect(await statusOf(t.id)).toBe('SUCCESS');
    expect(queued).toEqual([]);
    expect(await db.journalEntry.count({ where: { transactionId: t.id, posting: 'CASHIN_CAPTURED' } })).toBe(2);
  });

  it('queues a result that needs the operator asked (an OK without its 200) and changes nothing in the request', async () => {
    const t = await pendingCashin();
    const res = await post({ ref: t.providerReference, state: 'OK', status: null, n: `k${n}` });
    expect(res.status).toBe(200);
    expect(queued).toEqual([
      expect.objectContaining({ provider_reference: t.providerReference, provider_state: 'OK', source: 'callback' }),
    ]);
    expect(await statusOf(t.id)).toBe('PENDING');
  });

  it('queues the result when applying it fails (the database did not answer): taken, not lost', async () => {
    const t = await pendingCashin();
    applyNow = async () => {
      throw new Error('database unreachable');
    };
    const res = await post({ ref: t.providerReference, state: 'OK', status: '200', n: `k${n}` });
    expect(res.status).toBe(200);
    expect(queued).toEqual([
      expect.objectContaining({
        provider_reference: t.providerReference,
        provider_state: 'OK',
        provider_txn_status: '200',
      }),
    ]);
  });

  it("answers 5xx and remembers nothing when it can be neither applied nor queued, so the operator's retry is taken", async () => {
    const t = await pendingCashin();
    applyNow = async () => {
      throw new Error('database unreachable');
    };
    queueDown = true;
    const body = { ref: t.providerReference, state: 'OK', status: '200', n: `k${n}` };
    expect((await post(body)).status).toBe(500);
    // Kept under the payment's account, as its own route keeps it: one delivery, whichever route it came by.
    expect(seen.has(`ci:simulator:k${n}`)).toBe(false);
    applyNow = applySignedResultNow({
      db,
      afterCommit: noEffects,
      logger: createLogger('test', 'silent'),
      adapters: oneAdapter(noStatus),
    });
    queueDown = false;
    expect((await post(body)).status).toBe(200);
    expect(await statusOf(t.id)).toBe('SUCCESS');
    expect(seen.has(`ci:simulator:k${n}`)).toBe(true);
    expect(await (await post(body)).json()).toEqual({ received: true, duplicate: true });
  });

  it('does not keep the operator waiting on a locked row: past its budget the result is queued and answered, the late apply then lands once', async () => {
    inline = new InlineApplies(5, 200, () => undefined);
    const t = await pendingCashin();
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => {
      release = r;
    });
    // Someone else holds the cash-in's row (a long transaction): the apply waits for it.
    const holder = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM transactions WHERE id = ${t.id}::uuid FOR UPDATE`;
        await released;
      },
      { timeout: 20_000 },
    );
    await waitFor(
      async () =>
        (
          await db.$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'transactions' AND l.mode = 'RowShareLock'`
        )[0]!.n > 0,
      { what: 'row locked' },
    );
    const started = Date.now();
    const res = await post({ ref: t.providerReference, state: 'OK', status: '200', n: `k${n}` });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(queued).toEqual([expect.objectContaining({ provider_reference: t.providerReference })]);
    expect(await statusOf(t.id)).toBe('PENDING');
    release();
    await holder;
    await waitFor(async () => (await statusOf(t.id)) === 'SUCCESS', { what: 'late apply' });
    await waitFor(() => inline!.inFlight() === 0, { what: 'apply done' });
    expect(await db.journalEntry.count({ where: { transactionId: t.id, posting: 'CASHIN_CAPTURED' } })).toBe(2);
  });

  it('applies at most so many results at once: the others are queued', async () => {
    inline = new InlineApplies(1, 5_000, () => undefined);
    let finish: () => void = () => undefined;
    const busy = inline.run(
      () =>
        new Promise<boolean>((r) => {
          finish = () => r(true);
        }),
    );
    const t = await pendingCashin();
    expect((await post({ ref: t.providerReference, state: 'OK', status: '200', n: `k${n}` })).status).toBe(200);
    expect(queued).toEqual([expect.objectContaining({ provider_reference: t.providerReference })]);
    expect(await statusOf(t.id)).toBe('PENDING');
    finish();
    expect(await busy).toBe(true);
  });
});
