import type { Tx } from '../database/index.js';

/**
 * Takes the payment's row lock, as `transition` does before it records a webhook event. Whoever ends or
 * re-opens an event of a payment must hold it too: otherwise a new event could be held behind this one
 * (seen PENDING) while this one ends without seeing the new one to release, and the new event would wait
 * forever.
 */
export async function lockPaymentRow(tx: Tx, paymentId: string | null): Promise<void> {
  if (!paymentId) return;
  await tx.$queryRaw`SELECT 1 FROM transactions WHERE id = ${paymentId}::uuid FOR UPDATE`;
}
