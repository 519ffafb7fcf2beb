import type { MovementLookup, OperatorAdapter, PaymentLookup, UssdPushRequest } from './operator-adapter.js';

/** The calls an adapter makes to its operator, by the name metrics give them. */
export type OperatorCall =
  | 'push'
  | 'prepare'
  | 'code'
  | 'status'
  | 'refund'
  | 'disburse'
  /** Reconciliation: a page of the operator's list of movements (listRecords), its word on one movement (recordOf). */
  | 'records'
  | 'record';

export type AroundCall = <T>(operation: OperatorCall, call: () => Promise<T>) => Promise<T>;

/**
 * The same adapter with every call to the operator passed through `around` (timing, the breaker), its
 * optional calls and flags kept. The one place that lists them: a wrapper written by hand once dropped
 * submitCode, and one-time codes then reached no operator.
 */
export function aroundCalls(adapter: OperatorAdapter, around: AroundCall): OperatorAdapter {
  return {
    name: adapter.name,
    ...(adapter.statusMayLag ? { statusMayLag: true } : {}),
    pushUssd: (req) => around('push', () => adapter.pushUssd(req)),
    ...(adapter.prepare ? { prepare: (req: UssdPushRequest) => around('prepare', () => adapter.prepare!(req)) } : {}),
    ...(adapter.submitCode
      ? {
          submitCode: (payment: PaymentLookup, code: string) =>
            around('code', () => adapter.submitCode!(payment, code)),
        }
      : {}),
    queryStatus: (payment) => around('status', () => adapter.queryStatus(payment)),
    refund: (req) => around('refund', () => adapter.refund(req)),
    disburse: (req) => around('disburse', () => adapter.disburse(req)),
    ...(adapter.listRecords
      ? {
          listRecords: (date: string, cursor: string | null) =>
            around('records', () => adapter.listRecords!(date, cursor)),
        }
      : {}),
    ...(adapter.recordOf
      ? { recordOf: (movement: MovementLookup) => around('record', () => adapter.recordOf!(movement)) }
      : {}),
    // Not a call: the operator called us.
    parseCallback: (rawBody, headers, nowMs, path) => adapter.parseCallback(rawBody, headers, nowMs, path),
  };
}
