import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { ApiError, webhookMiddleware, type MobileMoneyClient, type WebhookRequest } from '@mm/sdk';
import type { Orders } from './orders.js';

export interface ShopDeps {
  client: MobileMoneyClient;
  orders: Orders;
  /** The API secret: webhooks are signed with it. */
  apiSecret: string;
  /** Where the payment service can reach this shop (its webhooks go to `${publicUrl}/webhooks`). */
  publicUrl: string;
  log(line: string): void;
}

/** The shop: checkout creates a cash-in, the webhook settles the order, the order can be read back. */
export function createShop(deps: ShopDeps): Express {
  const app = express();

  // The webhook route first, with the SDK's middleware and no JSON parser: the signature covers the raw bytes.
  app.post('/webhooks', webhookMiddleware({ secret: deps.apiSecret }), (req, res) => {
    const event = (req as WebhookRequest).webhookEvent!;
    const applied = deps.orders.apply(event);
    deps.log(`webhook ${event.event} ${event.status} for order ${event.merchant_order_id}${applied ? '' : ' (already applied)'}`);
    // Answer at once: the payment service wants a 2xx within seconds, and retries otherwise.
    res.sendStatus(204);
  });

  app.use(express.json());

  app.post('/checkout', async (req, res) => {
    const { amount, msisdn } = req.body as { amount?: number; msisdn?: string };
    if (!Number.isInteger(amount) || typeof msisdn !== 'string') {
      res.status(400).json({ error: 'amount (integer) and msisdn (E.164) are required' });
      return;
    }
    const order = deps.orders.create(`order-${randomUUID()}`, amount!);
    try {
      const payment = await deps.client.createCashin({
        merchant_order_id: order.id, amount: amount!, customer_msisdn: msisdn, motif: `Order ${order.id.slice(6, 14)}`,
        notify_url: `${deps.publicUrl}/webhooks`, return_url: `${deps.publicUrl}/orders/${order.id}`,
      });
      order.transactionId = payment.transaction_id;
      res.status(201).json({ order_id: order.id, transaction_id: payment.transaction_id, payment_status: payment.status, payment_url: payment.payment_url });
    } catch (err) {
      // Typed errors: a refused payment (bad number, unsupported country...) is the customer's to fix.
      if (err instanceof ApiError && err.status < 500) {
        res.status(422).json({ error: err.code, details: err.details });
        return;
      }
      throw err;
    }
  });

  app.get('/orders/:id', (req, res) => {
    const order = deps.orders.get(req.params.id);
    if (!order) res.sendStatus(404);
    else res.json(order);
  });

  return app;
}
