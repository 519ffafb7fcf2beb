import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@mm/testing';
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
      cwd: REPO, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

it('takes a payment through the SDK, gets its SUCCESS webhook (verified by the SDK middleware), marks the order paid and exits 0', async () => {
  const port = await freePort();
  const { code, out } = await runExample(['--pay', '+2250707000001'], {
    MM_BASE_URL: sys.gatewayUrl, MM_API_KEY: sys.merchant.apiKey, MM_API_SECRET: sys.merchant.apiSecret, SHOP_PORT: String(port), SHOP_WAIT_MS: '20000',
  });
  expect({ code, out }).toEqual({ code: 0, out: expect.stringContaining('webhook transaction.status_changed SUCCESS') });
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as { order_id: string; order_status: string; payment_status: string };
  expect(result).toMatchObject({ order_status: 'PAID', payment_status: 'SUCCESS' });
  // The webhook went to the shop (its notify_url), delivered once, with a 2xx.
  const events = await sys.db.webhookEvent.findMany({ where: { transaction: { merchantOrderId: result.order_id } } });
  expect(events).toEqual([expect.objectContaining({ status: 'DELIVERED', targetUrl: `http://127.0.0.1:${port}/webhooks` })]);
}, 60_000);
