import type { Db } from '@mm/db';
import { OperatorRefusedError, paymentLookupOf, type OperatorAdapter, type OperatorAdapters } from '@mm/operators';
import type { CustomerCodeJob } from '@mm/queues';
import type { Logger } from '@mm/observability';

export interface CustomerCodesDeps {
  db: Db;
  adapters: OperatorAdapters<Pick<OperatorAdapter, 'submitCode'>>;
  logger: Logger;
}

/** What a customer-codes job came to; for tests and the log line (never the code itself). */
export type CustomerCodeOutcome = 'submitted' | 'not-waiting' | 'refused' | 'unsupported';

/**
 * customer-codes consumer: hands the one-time code a customer typed on the payment page to the
 * cash-in's operator (its adapter's submitCode). The result comes back as any result does (the
 * operator's callback, or a status poll): nothing is decided here. A code for a cash-in that is no
 * longer waiting for one (decided meanwhile, no OTP action) is dropped; so is one the operator refuses
 * (OperatorRefusedError: it would refuse it again), the customer may type a new one. An unreachable
 * operator throws: BullMQ retries a few times, then the job is removed (the queue keeps no failed
 * job, so the code does not stay in Redis). The code is never logged.
 */
export function customerCodesHandler(deps: CustomerCodesDeps) {
  return async (payload: CustomerCodeJob): Promise<CustomerCodeOutcome> => {
    const t = await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } });
    const action = t?.customerAction as { type?: unknown } | null | undefined;
    if (!t || t.type !== 'CASHIN' || t.status !== 'PENDING' || action?.type !== 'OTP') {
      deps.logger.info(
        { transaction_id: payload.transaction_id, status: t?.status ?? null },
        'one-time code for a cash-in not waiting for one dropped',
      );
      return 'not-waiting';
    }
    const adapter = await deps.adapters.adapterFor(t);
    if (!adapter.submitCode) {
      deps.logger.warn(
        { transaction_id: t.id, operator: t.operator },
        'one-time code for an operator that takes none dropped',
      );
      return 'unsupported';
    }
    try {
      await adapter.submitCode(paymentLookupOf(t), payload.code);
    } catch (err) {
      if (!(err instanceof OperatorRefusedError)) throw err;
      deps.logger.warn(
        { transaction_id: t.id, operator: t.operator, http_status: err.httpStatus },
        'operator refused the one-time code request',
      );
      return 'refused';
    }
    return 'submitted';
  };
}
