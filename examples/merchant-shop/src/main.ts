// The example shop. With the system of `pnpm start` running (it seeds the demo merchant whose published
// key is the default below):
//   pnpm --filter @mm/example-merchant-shop start                        # serves http://127.0.0.1:3010
//   pnpm --filter @mm/example-merchant-shop start --pay +2250707000001   # takes one payment, waits for its webhook, exits
import type { AddressInfo } from 'node:net';
import { MobileMoneyClient } from '@mm/sdk';
import { Orders } from './orders.js';
import { createShop } from './shop.js';

const env = {
  baseUrl: process.env.MM_BASE_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.MM_API_KEY ?? 'pk_demo_5f1c2a9e4b7d4c3a8e6f0b1d2c3e4f50',
  apiSecret: process.env.MM_API_SECRET ?? 'sk_demo_9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f',
  port: Number(process.env.SHOP_PORT ?? 3010),
};

const log = (line: string) => console.log(`[shop] ${line}`);
const client = new MobileMoneyClient({ apiKey: env.apiKey, apiSecret: env.apiSecret, baseUrl: env.baseUrl });
const orders = new Orders();
const publicUrl = process.env.SHOP_PUBLIC_URL ?? `http://127.0.0.1:${env.port}`;
const server = createShop({ client, orders, apiSecret: env.apiSecret, publicUrl, log }).listen(env.port, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);

const payIndex = process.argv.indexOf('--pay');
if (payIndex > 0) {
  const msisdn = process.argv[payIndex + 1] ?? '+2250707000001';
  const res = await fetch(`${publicUrl}/checkout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 5000, msisdn }),
  });
  const checkout = (await res.json()) as {
    order_id: string;
    transaction_id: string;
    payment_url: string;
    error?: string;
  };
  if (!res.ok) {
    console.error(`checkout refused (${res.status}): ${JSON.stringify(checkout)}`);
    server.close();
    server.closeAllConnections();
    process.exit(1);
  }
  log(
    `order ${checkout.order_id}: payment ${checkout.transaction_id} asked; the customer confirms on the phone (${checkout.payment_url})`,
  );
  const deadline = Date.now() + Number(process.env.SHOP_WAIT_MS ?? 60_000);
  while (orders.get(checkout.order_id)?.status === 'AWAITING_PAYMENT' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  const order = orders.get(checkout.order_id)!;
  const payment = await client.getPayment(checkout.transaction_id);
  console.log(JSON.stringify({ order_id: order.id, order_status: order.status, payment_status: payment.status }));
  server.close();
  server.closeAllConnections();
  process.exitCode = order.status === 'PAID' ? 0 : 1;
} else {
  process.once('SIGINT', () => server.close());
  process.once('SIGTERM', () => server.close());
}
