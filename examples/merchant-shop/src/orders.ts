import type { WebhookEvent } from '@mm/sdk';

export type OrderStatus = 'AWAITING_PAYMENT' | 'PAID' | 'PAYMENT_FAILED' | 'REFUNDED';

export interface Order {
  id: string;
  amount: number;
  msisdn: string;
  transactionId: string | null;
  status: OrderStatus;
  refunded: number;
}

const BY_PAYMENT_STATUS: Record<string, OrderStatus> = {
  SUCCESS: 'PAID',
  FAILED: 'PAYMENT_FAILED',
  EXPIRED: 'PAYMENT_FAILED',
  REVERSED: 'REFUNDED',
};

/**
 * The shop's orders (in memory: a real shop keeps them in its database). Webhooks may arrive more than
 * once, so each event is applied once, by event_id.
 */
export class Orders {
  private readonly orders = new Map<string, Order>();
  private readonly applied = new Set<string>();

  create(id: string, amount: number, msisdn: string): Order {
    const order: Order = { id, amount, msisdn, transactionId: null, status: 'AWAITING_PAYMENT', refunded: 0 };
    this.orders.set(id, order);
    return order;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  /** Applies a verified webhook event; false when it was already applied, names no order of ours, or disagrees with it. */
  apply(event: WebhookEvent): boolean {
    if (this.applied.has(event.event_id)) return false;
    const order = this.orders.get(event.merchant_order_id);
    if (!order) return false;
    // Signed by the service, but a payment of another amount than the order's is not this order's payment.
    if (event.event === 'transaction.status_changed' && event.amount !== order.amount) return false;
    this.applied.add(event.event_id);
    if (event.event === 'transaction.status_changed') {
      // A late confirmation (EXPIRED, then SUCCESS) is a payment like any other: the money was taken.
      order.status = BY_PAYMENT_STATUS[event.status] ?? order.status;
    } else if (event.status === 'SUCCESS') {
      order.refunded += event.amount;
    }
    return true;
  }
}
