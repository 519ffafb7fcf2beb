import { Histogram, LATENCY_BUCKETS, singleMetric, type Registry } from '@mm/observability';
import { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter, type PaymentLookup } from './operator-adapter.js';

type Outcome = 'ok' | 'refused' | 'unavailable' | 'error';

/**
 * The same adapter, each call to the operator timed in mm_operator_request_duration_seconds{operator,
 * account, operation, outcome}: ok; refused (the operator answered no: a push KO, a refund or payout FAILED, a
 * status query for a reference it does not know, a request refused with a 4xx); unavailable (no answer, or not in time); error.
 */
export function instrumentAdapter(adapter: OperatorAdapter, registry: Registry, account = ''): OperatorAdapter {
  const calls = singleMetric(registry, 'mm_operator_request_duration_seconds', () => new Histogram({
    name: 'mm_operator_request_duration_seconds',
    help: 'Calls to the mobile operator by operation and outcome (ok, refused, unavailable, error), with their duration.',
    // account ("CI:MTN"): the operator health the back-office shows is per account, not per API.
    labelNames: ['operator', 'account', 'operation', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }));
  const timed = async <T>(operation: string, call: () => Promise<T>, refused: (answer: T) => boolean): Promise<T> => {
    const end = calls.startTimer({ operator: adapter.name, account, operation });
    let outcome: Outcome = 'error';
    try {
      const answer = await call();
      outcome = refused(answer) ? 'refused' : 'ok';
      return answer;
    } catch (err) {
      outcome = err instanceof OperatorUnavailableError ? 'unavailable' : err instanceof OperatorRefusedError ? 'refused' : 'error';
      throw err;
    } finally {
      end({ outcome });
    }
  };
  return {
    name: adapter.name,
    ...(adapter.statusMayLag ? { statusMayLag: true } : {}),
    pushUssd: (req) => timed('push', () => adapter.pushUssd(req), (a) => !a.accepted),
    ...(adapter.prepare ? { prepare: (req: Parameters<NonNullable<OperatorAdapter['prepare']>>[0]) => timed('prepare', () => adapter.prepare!(req), () => false) } : {}),
    ...(adapter.submitCode ? { submitCode: (payment: PaymentLookup, code: string) => timed('code', () => adapter.submitCode!(payment, code), () => false) } : {}),
    queryStatus: (payment) => timed('status', () => adapter.queryStatus(payment), (a) => !a.found),
    refund: (req) => timed('refund', () => adapter.refund(req), (a) => a.state !== 'OK'),
    disburse: (req) => timed('disburse', () => adapter.disburse(req), (a) => a.state !== 'OK'),
    // Not a call: the operator called us (its requests are in the bridge's HTTP metrics).
    parseCallback: (rawBody, headers, nowMs, path) => adapter.parseCallback(rawBody, headers, nowMs, path),
  };
}
