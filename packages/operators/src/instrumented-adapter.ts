import { Histogram, LATENCY_BUCKETS, singleMetric, type Registry } from '@mm/observability';
import { aroundCalls, type OperatorCall } from './around-calls.js';
import { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter } from './operator-adapter.js';

type Outcome = 'ok' | 'refused' | 'unavailable' | 'error';

/**
 * The same adapter, each call to the operator timed in mm_operator_request_duration_seconds{operator,
 * account, operation, outcome}: ok; refused (the operator answered no: a push KO, a refund or payout FAILED, a
 * status query or a record lookup for a reference it does not know, a request refused with a 4xx); unavailable (no
 * answer, or not in time); error. Reconciliation's calls are operations `records` (a page of the list) and `record`.
 */
export function instrumentAdapter(adapter: OperatorAdapter, registry: Registry, account = ''): OperatorAdapter {
  const calls = singleMetric(
    registry,
    'mm_operator_request_duration_seconds',
    () =>
      new Histogram({
        name: 'mm_operator_request_duration_seconds',
        help: 'Calls to the mobile operator by operation and outcome (ok, refused, unavailable, error), with their duration.',
        // account ("CI:MTN"): the operator health the back-office shows is per account, not per API.
        labelNames: ['operator', 'account', 'operation', 'outcome'],
        buckets: LATENCY_BUCKETS,
        registers: [registry],
      }),
  );
  return aroundCalls(adapter, async (operation, call) => {
    const end = calls.startTimer({ operator: adapter.name, account, operation });
    let outcome: Outcome = 'error';
    try {
      const answer = await call();
      outcome = refusedAnswer(operation, answer) ? 'refused' : 'ok';
      return answer;
    } catch (err) {
      outcome =
        err instanceof OperatorUnavailableError
          ? 'unavailable'
          : err instanceof OperatorRefusedError
            ? 'refused'
            : 'error';
      throw err;
    } finally {
      end({ outcome });
    }
  });
}

/** An answer that is the operator's no: a push KO, a payment or movement it does not know, a refund or payout FAILED. */
function refusedAnswer(operation: OperatorCall, answer: unknown): boolean {
  switch (operation) {
    case 'push':
      return !(answer as { accepted: boolean }).accepted;
    case 'status':
      return !(answer as { found: boolean }).found;
    // The operator has no record of the movement: its no, as a status query's "not found" is.
    case 'record':
      return answer === null;
    case 'refund':
    case 'disburse':
      return (answer as { state: string }).state !== 'OK';
    // The operator does not know the movement.
    case 'record':
      return answer === null;
    default:
      return false;
  }
}
