import pg from 'pg';
import { startTcpRelay, TEST_REDIS_URL, waitFor, type ApiResponse, type TcpRelay } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * The gateway when PostgreSQL or Redis cannot do a request's work in time: a documented 503
 * SERVICE_UNAVAILABLE with Retry-After, in bounded time, nothing written, and the same request signed
 * anew passing once the dependency is back. (The chaos suite breaks a whole private PostgreSQL
 * cluster under load; this suite pins each answer.)
 */

/** The gateway's defaults: a lock waited for at most 1 s (DB_LOCK_TIMEOUT_MS), a Redis command 1 s; plus room for a loaded machine. */
const BOUND_MS = 2_500;

let sys: System;
let seq = 0;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

const order = () => `dep-${Date.now()}-${++seq}`;

async function timed(send: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const started = Date.now();
  const res = await send();
  return { res, ms: Date.now() - started };
}

function expectUnavailable({ res, ms }: { res: ApiResponse; ms: number }): void {
  expect({ status: res.status, code: res.body?.error?.code, retryAfter: res.headers.get('retry-after') }).toEqual({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    retryAfter: '2',
  });
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  expect(ms).toBeLessThan(BOUND_MS);
}

async function captured(): Promise<string> {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: order(),
    amount: 5000,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'captured cash-in',
  });
  return id;
}

/** A connection of its own holding the merchant's balance rows, as a stuck transaction would. */
async function lockBalances(merchantId: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: sys.database.url });
  await client.connect();
  await client.query('BEGIN');
  const locked = await client.query('SELECT id FROM ledger_accounts WHERE merchant_id = $1 FOR UPDATE', [merchantId]);
  expect(locked.rowCount).toBeGreaterThan(0);
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}

describe("PostgreSQL slow: the merchant's balance rows held by another transaction", () => {
  it('a refund answers 503 SERVICE_UNAVAILABLE with Retry-After within the bound and writes nothing; signed anew once released, it passes', async () => {
    const tx = await captured();
    const release = await lockBalances(sys.merchant.id);
    let answered;
    try {
      answered = await timed(() =>
        sys.api(
          'POST',
          '/api/v1/refunds',
          { transaction_id: tx, amount: 1000 },
          { extraHeaders: { 'Idempotency-Key': `k-${tx}` } },
        ),
      );
    } finally {
      await release();
    }
    expectUnavailable(answered);
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(0);

    const again = await sys.api(
      'POST',
      '/api/v1/refunds',
      { transaction_id: tx, amount: 1000 },
      { extraHeaders: { 'Idempotency-Key': `k-${tx}` } },
    );
    expect(again.status).toBe(202);
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(1);
  });

  it('a cash-in answers the same, and its order id is free for the retry', async () => {
    await captured(); // the merchant has balance rows to lock
    const release = await lockBalances(sys.merchant.id);
    const body = { merchant_order_id: order(), amount: 2500, customer_msisdn: CI_NUMBER('01') };
    let answered;
    try {
      answered = await timed(() => sys.api('POST', '/api/v1/payments/cashin', body));
    } finally {
      await release();
    }
    expectUnavailable(answered);
    expect(await sys.db.transaction.count({ where: { merchantOrderId: body.merchant_order_id } })).toBe(0);
    expect((await sys.api('POST', '/api/v1/payments/cashin', body)).status).toBe(202);
  });
});

describe('PostgreSQL unreachable', () => {
  let relay: TcpRelay;
  let gateway: Awaited<ReturnType<System['startExtraGateway']>>;
  beforeAll(async () => {
    const through = new URL(sys.database.url);
    relay = await startTcpRelay(Number(through.port || 5432));
    through.port = String(relay.port);
    gateway = await sys.startExtraGateway({ DATABASE_URL: through.toString() });
  });
  afterAll(async () => {
    await relay.close();
  });

  it('reads and writes answer 503 within the bound, /ready says not ready; both pass again once it is back', async () => {
    const tx = await captured();
    // The key is in the gateway's memory: the read below reaches PostgreSQL for the transaction itself.
    expect((await gateway.api('GET', `/api/v1/payments/${tx}`)).status).toBe(200);
    await relay.cut();
    try {
      expectUnavailable(await timed(() => gateway.api('GET', `/api/v1/payments/${tx}`)));
      expectUnavailable(
        await timed(() =>
          gateway.api('POST', '/api/v1/payments/cashin', {
            merchant_order_id: order(),
            amount: 1500,
            customer_msisdn: CI_NUMBER('01'),
          }),
        ),
      );
      expectUnavailable(await timed(() => gateway.api('GET', '/api/v1/balances')));
      const ready = await fetch(`${gateway.internalUrl}/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { checks: unknown }).checks).toMatchObject({ database: 'failed' });
    } finally {
      await relay.restore();
    }
    await waitFor(async () => (await gateway.api('GET', `/api/v1/payments/${tx}`)).status === 200, {
      what: 'reads served again',
    });
    expect((await fetch(`${gateway.internalUrl}/ready`)).status).toBe(200);
  });
});

describe('Redis unreachable', () => {
  let relay: TcpRelay;
  let gateway: Awaited<ReturnType<System['startExtraGateway']>>;
  beforeAll(async () => {
    relay = await startTcpRelay(Number(new URL(TEST_REDIS_URL).port || 6379));
    gateway = await sys.startExtraGateway({ REDIS_URL: relay.url('redis') });
  });
  afterAll(async () => {
    await relay.close();
  });

  it('a signed POST answers 503 within the bound (no replay check without Redis), a read is served (the limiter lets it through), nothing written', async () => {
    const tx = await captured();
    await relay.cut();
    const body = { merchant_order_id: order(), amount: 1500, customer_msisdn: CI_NUMBER('01') };
    try {
      expectUnavailable(await timed(() => gateway.api('POST', '/api/v1/payments/cashin', body)));
      expectUnavailable(
        await timed(() =>
          gateway.api(
            'POST',
            '/api/v1/refunds',
            { transaction_id: tx, amount: 1000 },
            { extraHeaders: { 'Idempotency-Key': `r-${tx}` } },
          ),
        ),
      );
      const read = await timed(() => gateway.api('GET', `/api/v1/payments/${tx}`));
      expect(read.res.status).toBe(200);
      expect(read.ms).toBeLessThan(BOUND_MS);
      expect((await fetch(`${gateway.internalUrl}/ready`)).status).toBe(503);
    } finally {
      await relay.restore();
    }
    expect(await sys.db.transaction.count({ where: { merchantOrderId: body.merchant_order_id } })).toBe(0);
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(0);
    // ioredis reconnects by itself; the same order, signed anew, then passes.
    await waitFor(
      async () => [200, 202].includes((await gateway.api('POST', '/api/v1/payments/cashin', body)).status),
      { what: 'cash-ins taken again', timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(await sys.db.transaction.count({ where: { merchantOrderId: body.merchant_order_id } })).toBe(1);
  });
});
