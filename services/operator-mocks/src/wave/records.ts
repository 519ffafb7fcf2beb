import { groupBy, type MockRecords } from '../records.js';
import type { MockPayout } from './payout-book.js';
import type { MockSession } from './session-book.js';

/**
 * Wave's own record by client_reference (our reference): checkout sessions created (Wave does not dedupe
 * them: a correct client makes one), the money taken once a session succeeded, refunds paid back per
 * session (Wave's refund names no reference of ours: counted on the payment); payouts paid once succeeded.
 */
export function waveRecords(sessions: readonly MockSession[], payouts: readonly MockPayout[]): MockRecords {
  return {
    payments: [...groupBy(sessions, (s) => s.client_reference)].map(([reference, group]) => {
      const shown = group.find((s) => s.payment_status === 'succeeded') ?? group.at(-1)!;
      return {
        reference,
        created: group.length,
        state: `${shown.checkout_status}/${shown.payment_status}`,
        taken: group.some((s) => s.payment_status === 'succeeded'),
        // An open session may still be paid, even after a failed attempt.
        decided: group.every((s) => s.checkout_status !== 'open'),
        refundsPaid: group.reduce((n, s) => n + s.refundsPaid, 0),
      };
    }),
    refunds: [],
    payouts: [...groupBy(payouts, (p) => p.client_reference)].map(([reference, group]) => ({
      reference,
      paymentReference: null,
      created: group.length,
      state: (group.find((p) => p.status === 'succeeded') ?? group.at(-1)!).status,
      paid: group.filter((p) => p.status === 'succeeded').length,
    })),
  };
}
