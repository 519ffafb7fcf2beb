import { Counter, singleMetric, type Registry } from '@mm/observability';

/**
 * mm_operator_refusals_total{operation}: refunds and cash-outs decided FAILED because the operator
 * refused the request itself (OperatorRefusedError). Each one is money that did not move for a reason
 * on our side of the wire (a malformed request, a reference the operator does not know): worth an alert.
 */
export function operatorRefusals(registry: Registry): Counter<'operation'> {
  return singleMetric(
    registry,
    'mm_operator_refusals_total',
    () =>
      new Counter({
        name: 'mm_operator_refusals_total',
        help: 'Refunds and cash-outs FAILED because the operator refused the request itself (a 4xx about it), by operation.',
        labelNames: ['operation'],
        registers: [registry],
      }),
  );
}
