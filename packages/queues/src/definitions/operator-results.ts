import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * An operator's result as the bridge took it (its callback route), the one shape in code from the route to
 * the move, applied in the callback's request or by the worker. A `hint` (an unsigned callback: MTN, Orange)
 * carries no result the worker may apply (providerState PENDING, the rest null): it only makes the worker ask
 * the operator's status and apply that answer. Structurally an OperatorResult of @mm/domain.
 */
export interface OperatorResultReceipt {
  providerReference: string;
  providerState: 'PENDING' | 'OK' | 'canceled' | 'KO';
  providerTxnStatus: string | null;
  providerTxId: string | null;
  providerSessionId: string | null;
  failureReason: string | null;
  source: OperatorResultJob['source'];
  operator?: string;
  country?: string;
  reported?: { amount: number; currency: string } | null;
}

/**
 * The receipt as its job waits in Redis (snake_case, as every job payload; never renamed: jobs in flight
 * carry it). Written and read only through operatorResultJobOf and receiptOf.
 */
export interface OperatorResultJob {
  provider_reference: string;
  provider_state: 'PENDING' | 'OK' | 'canceled' | 'KO';
  provider_txn_status: string | null;
  provider_tx_id: string | null;
  provider_session_id: string | null;
  failure_reason: string | null;
  source: 'callback' | 'status-query' | 'hint';
  /**
   * The operator whose callback route took it (SIMULATOR, MTN, WAVE, ...). A signed result is applied only
   * to a payment of that operator: another operator's secret proves nothing about it. Absent: the simulator's
   * route (jobs queued before the field existed).
   */
  operator?: string;
  /**
   * The country of the operator account whose route took it (its secret verified it): with `operator`, the
   * account. A signed result is applied only to a payment of that account. Absent: a job queued before the
   * field existed (the operator alone is compared, as then), or a result for no known payment.
   */
  country?: string;
  /**
   * What the operator says it moved, when its result names it (Wave's webhook): a confirmed payment of another
   * amount or currency than the cash-in's is not applied but kept as a reconciliation case. Absent: nothing to
   * compare (most results; jobs queued before the field existed).
   */
  reported?: { amount: number; currency: string } | null;
}

export function operatorResultJobOf(r: OperatorResultReceipt): OperatorResultJob {
  return {
    provider_reference: r.providerReference,
    provider_state: r.providerState,
    provider_txn_status: r.providerTxnStatus,
    provider_tx_id: r.providerTxId,
    provider_session_id: r.providerSessionId,
    failure_reason: r.failureReason,
    source: r.source,
    ...(r.operator !== undefined ? { operator: r.operator } : {}),
    ...(r.country !== undefined ? { country: r.country } : {}),
    ...(r.reported ? { reported: r.reported } : {}),
  };
}

export function receiptOf(job: OperatorResultJob): OperatorResultReceipt {
  return {
    providerReference: job.provider_reference,
    providerState: job.provider_state,
    providerTxnStatus: job.provider_txn_status,
    providerTxId: job.provider_tx_id,
    providerSessionId: job.provider_session_id,
    failureReason: job.failure_reason,
    source: job.source,
    ...(job.operator !== undefined ? { operator: job.operator } : {}),
    ...(job.country !== undefined ? { country: job.country } : {}),
    reported: job.reported ?? null,
  };
}

export const operatorResults = defineQueue({
  name: QUEUE_NAMES.operatorResults,
  schema: Joi.object<OperatorResultJob, true>({
    provider_reference: Joi.string().max(100).required(),
    provider_state: Joi.string().valid('PENDING', 'OK', 'canceled', 'KO').required(),
    provider_txn_status: Joi.string().max(50).allow(null).required(),
    provider_tx_id: Joi.string().max(100).allow(null).required(),
    provider_session_id: Joi.string().max(100).allow(null).required(),
    failure_reason: Joi.string().max(200).allow(null).required(),
    source: Joi.string().valid('callback', 'status-query', 'hint').required(),
    operator: Joi.string().pattern(/^[A-Z][A-Z0-9_]{1,31}$/),
    country: Joi.string().pattern(/^[A-Z]{2}$/),
    reported: Joi.object({
      amount: Joi.number().min(0).max(1e12).required(),
      currency: Joi.string()
        .pattern(/^[A-Z]{3}$/)
        .required(),
    }).allow(null),
  }),
  jobOptions: {
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
