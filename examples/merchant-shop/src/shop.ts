import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import {
  ConnectionError,
  InvalidRequestError,
  ServerError,
  UnprocessableError,
  webhookMiddleware,
  type MobileMoneyClient,
  type WebhookRequest,
} from '@mm/sdk';
import type { Order } from './orders.js';
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
    deps.log(
      `webhook ${event.event} ${event.status} for order ${event.merchant_order_id}${applied ? '' : ' (already applied)'}`,
    );
    // Answer at once: the payment service wants a 2xx within seconds, and retries otherwise.
    res.sendStatus(204);
  });

  app.use(express.json());

  /** Asks for the order's payment: the same merchant_order_id and parameters every time, so asking again is safe. */
  async function pay(order: Order, res: express.Response): Promise<void> {
    try {
      const payment = await deps.client.createCashin({
        merchant_order_id: order.id,
        amount: order.amount,
        customer_msisdn: order.msisdn,
        motif: `Order ${order.id.slice(6, 14)}`,
        notify_url: `${deps.publicUrl}/webhooks`,
        return_url: `${deps.publicUrl}/orders/${order.id}`,
      });
      order.transactionId = payment.transaction_id;
      res.status(201).json({
        order_id: order.id,
        transaction_id: payment.transaction_id,
        payment_status: payment.status,
        payment_url: payment.payment_url,
      });
    } catch (err) {
      if (err instanceof InvalidRequestError || err instanceof UnprocessableError) {
        // The customer's number or the amount: theirs to fix.
        res.status(422).json({ order_id: order.id, error: err.code, details: err.details });
      } else if (err instanceof ConnectionError || err instanceof ServerError) {
        // Unknown whether it was taken into account: POST /orders/{id}/pay asks again, harmlessly.
        res
          .status(503)
          .json({ order_id: order.id, error: 'PAYMENT_SERVICE_UNAVAILABLE', retry: `/orders/${order.id}/pay` });
      } else {
        // Our key, our account, our rate: the shop's problem, not the customer's.
        deps.log(`payment refused for order ${order.id}: ${(err as Error).message}`);
        res.status(502).json({ order_id: order.id, error: 'PAYMENT_REFUSED' });
      }
    }
  }

  app.post('/checkout', async (req, res) => {
    const { amount, msisdn } = req.body as { amount?: number; msisdn?: string };
    if (!Number.isInteger(amount) || typeof msisdn !== 'string') {
      res.status(400).json({ error: 'amount (integer) and msisdn (E.164) are required' });
      return;
    }
    await pay(deps.orders.create(`order-${randomUUID()}`, amount!, msisdn), res);
  });

  app.post('/orders/:id/pay', async (req, res) => {
    const order = deps.orders.get(req.params.id);
    if (!order) res.sendStatus(404);
    else await pay(order, res);
  });

  app.get('/orders/:id', (req, res) => {
    const order = deps.orders.get(req.params.id);
    if (!order) res.sendStatus(404);
    else res.json(order);
  });

  return app;
}
