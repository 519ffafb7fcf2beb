/** Payments for the portal's tests, made by the same @mm/db functions the API and the workers use. */
import { randomUUID } from 'node:crypto';
import type { Db } from '@mm/db';
import { applyOperatorResult, createCashin, createCashout, transition, type NewCashin } from '@mm/db/payments';
import { recordDeliveryOutcome } from '@mm/db/webhooks';

let seq = 0;

/** A cash-in as POST /v1/payments/cashin records it (PENDING at the operator's acknowledgement, with `to`). */
export async function cashin(
  db: Db,
  merchantId: string,
  overrides: Partial<NewCashin> = {},
  to: 'CREATED' | 'PENDING' | 'SUCCESS' | 'FAILED' = 'SUCCESS',
) {
  const order = overrides.merchantOrderId ?? `order-${++seq}-${randomUUID().slice(0, 8)}`;
  const created = await createCashin(db, {
    merchantId,
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
    ...overrides,
  });
  if (created.kind !== 'created') throw new Error('cash-in not created');
  const id = created.transaction.id;
  if (to === 'CREATED') return created.transaction;
  await db.$transaction(async (tx) => {
    await transition(tx, { transactionId: id, to: 'INITIATED', cause: 'operator-request' });
    await transition(tx, { transactionId: id, to: 'PENDING', cause: 'operator-ack' });
  });
  if (to === 'SUCCESS') {
    await db.$transaction((tx) =>
      applyOperatorResult(
        tx,
        id,
        { providerState: 'OK', providerTxnStatus: '200', providerTxId: `OP-${id.slice(0, 8)}`, failureReason: null },
        'operator-result:callback',
      ),
    );
  } else if (to === 'FAILED') {
    await db.$transaction((tx) =>
      applyOperatorResult(
        tx,
        id,
        { providerState: 'canceled', providerTxnStatus: '54321', providerTxId: null, failureReason: '60019' },
        'operator-result:callback',
      ),
    );
  }
  return db.transaction.findUniqueOrThrow({ where: { id } });
}

/** A cash-out sent without approval (the merchant's available balance must cover it). */
export async function cashout(db: Db, merchantId: string, amount = 500) {
  const order = `payout-${++seq}-${randomUUID().slice(0, 8)}`;
  const created = await createCashout(db, {
    merchantId,
    merchantOrderId: order,
    amount,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000009',
    reason: 'supplier',
    notifyUrl: null,
    requestFingerprint: order,
    approval: 'none',
  });
  if (created.kind !== 'created') throw new Error('cash-out not created');
  return created.transaction;
}

/** One delivery attempt of a webhook event, as the webhook worker records it. */
export function deliveryAttempt(
  db: Db,
  eventId: string,
  a: { attemptNo: number; statusCode: number | null; error: string | null; errorDetail: string | null; ok: boolean },
) {
  const now = new Date();
  return recordDeliveryOutcome(db, {
    eventId,
    outboxId: eventId,
    attempt: {
      attemptNo: a.attemptNo,
      targetUrl: 'https://shop.example/hooks',
      statusCode: a.statusCode,
      latencyMs: 42,
      error: a.error,
      errorDetail: a.errorDetail,
      attemptedAt: now,
      finishedAt: now,
    },
    outcome: a.ok ? { kind: 'delivered' } : { kind: 'retry', at: new Date(now.getTime() + 60_000) },
  });
}
