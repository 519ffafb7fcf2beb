import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@mm/testing';
import { startSystem, type System } from './support/system.js';

/** The runnable example merchant (examples/merchant-shop), as its own process against the system: one payment, its webhook. */
let sys: System;
const REPO = fileURLToPath(new URL('..', import.meta.url));

beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys?.stop();
});

function runExample(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/merchant-shop/src/main.ts', ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

it('takes a payment through the SDK, gets its SUCCESS webhook (verified by the SDK middleware), marks the order paid and exits 0', async () => {
  const port = await freePort();
  const { code, out } = await runExample(['--pay', '+2250707000001'], {
    MM_BASE_URL: sys.gatewayUrl,
    MM_API_KEY: sys.merchant.apiKey,
    MM_API_SECRET: sys.merchant.apiSecret,
    SHOP_PORT: String(port),
    SHOP_WAIT_MS: '20000',
  });
  expect({ code, out }).toEqual({
    code: 0,
    out: expect.stringContaining('webhook transaction.status_changed SUCCESS'),
  });
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
    order_id: string;
    order_status: string;
    payment_status: string;
  };
  expect(result).toMatchObject({ order_status: 'PAID', payment_status: 'SUCCESS' });
  // The webhook went to the shop (its notify_url), delivered once, with a 2xx.
  const events = await sys.db.webhookEvent.findMany({ where: { transaction: { merchantOrderId: result.order_id } } });
  expect(events).toEqual([
    expect.objectContaining({ status: 'DELIVERED', targetUrl: `http://127.0.0.1:${port}/webhooks` }),
  ]);
}, 60_000);

it("serves checkout: a refused number is the customer's 422, and asking to pay an order again is the same payment", async () => {
  const port = await freePort();
  const shop = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/merchant-shop/src/main.ts'], {
    cwd: REPO,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      MM_BASE_URL: sys.gatewayUrl,
      MM_API_KEY: sys.merchant.apiKey,
      MM_API_SECRET: sys.merchant.apiSecret,
      SHOP_PORT: String(port),
    },
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  try {
    await waitFor(
      () =>
        fetch(`${shop}/orders/none`).then(
          (r) => r.status === 404,
          () => false,
        ),
      { what: 'the shop to listen', timeoutMs: 20_000 },
    );
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${shop}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    // A Ghanaian number: no subsidiary there.
    expect(await post('/checkout', { amount: 5000, msisdn: '+233241234567' })).toMatchObject({
      status: 422,
      body: { error: 'COUNTRY_NOT_SUPPORTED' },
    });
    const first = await post('/checkout', { amount: 5000, msisdn: '+2250707000055' });
    expect(first.status).toBe(201);
    const again = await post(`/orders/${first.body.order_id}/pay`);
    expect(again).toMatchObject({
      status: 201,
      body: { order_id: first.body.order_id, transaction_id: first.body.transaction_id },
    });
    expect(await sys.db.transaction.count({ where: { merchantOrderId: first.body.order_id } })).toBe(1);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
}, 60_000);
