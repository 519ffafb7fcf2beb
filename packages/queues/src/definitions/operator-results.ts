import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * operator-bridge callback route (or a status poll) -> the worker applying the result. A `hint` (an
 * unsigned callback: MTN, Orange) carries no result the worker may apply (provider_state PENDING, the
 * rest null): it only makes the worker ask the operator's status and apply that answer.
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
    reported: Joi.object({ amount: Joi.number().min(0).max(1e12).required(), currency: Joi.string().pattern(/^[A-Z]{3}$/).required() }).allow(null),
  }),
  jobOptions: {
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
