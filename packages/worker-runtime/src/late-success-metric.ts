import { Counter, singleMetric, type Registry } from '@mm/observability';

export type LateSuccessOutcome = 'started' | 'returned' | 'failed';

/**
 * mm_late_success_returns_total{outcome}: late successes for FAILED cash-ins whose money goes back to the
 * customer (decisions 13). `started` (operator bridge): the money was put in suspense and its return queued;
 * `returned` and `failed` (refund worker): the operator paid it back, or refused, which leaves it in
 * suspense for a person: worth an alert.
 */
export function lateSuccessReturns(registry: Registry, outcomes: readonly LateSuccessOutcome[]): Counter<'outcome'> {
  const counter = singleMetric(
    registry,
    'mm_late_success_returns_total',
    () =>
      new Counter({
        name: 'mm_late_success_returns_total',
        help: 'Late successes for FAILED cash-ins returned to the customer: started (held in suspense), returned, or failed (left in suspense for a person).',
        labelNames: ['outcome'],
        registers: [registry],
      }),
  );
  // At zero from the start, so that an alert on its increase sees the series before the first one.
  for (const outcome of outcomes) counter.inc({ outcome }, 0);
  return counter;
}
