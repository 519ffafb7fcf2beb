import type { Db } from '@mm/db';
import { isRedisUnavailable, type CustomerCodeJob } from '@mm/queues';
import { storedAction } from './customer-action.js';

/** Where an accepted one-time code goes: an attempt counter and the customer-codes queue (Redis). */
export interface CodeIntake {
  /** Counts one attempt for the cash-in; false once past the limit (the code is then not queued). */
  takeAttempt(transactionId: string): Promise<boolean>;
  /** Queues the code for the operator bridge (Redis only: never written to PostgreSQL). */
  submit(job: CustomerCodeJob): Promise<void>;
}

export interface SubmitCustomerCodeDeps {
  db: Db;
  codes: CodeIntake;
}

/** What became of the code, as the payment page's notice words it; `not_found`: no such cash-in. */
export type CustomerCodeOutcome = 'not_found' | 'sent' | 'invalid' | 'attempts' | 'closed' | 'unavailable';

const ONE_TIME_CODE = /^\d{4,8}$/;

/**
 * The one-time code a customer types on the page of a cash-in whose operator asked for one (OTP): only
 * for a PENDING cash-in with an OTP action, at most as many times as the intake allows. The gateway
 * never calls the operator: the code is queued for the bridge. The code is never logged.
 */
export async function submitCustomerCode(
  deps: SubmitCustomerCodeDeps,
  transactionId: string,
  typed: unknown,
): Promise<CustomerCodeOutcome> {
  const t = await deps.db.transaction.findUnique({
    where: { id: transactionId, type: 'CASHIN' },
    select: { status: true, customerAction: true },
  });
  if (!t) return 'not_found';
  if (t.status !== 'PENDING' || storedAction(t.customerAction)?.type !== 'OTP') return 'closed';
  try {
    // Counted before the code is even looked at: every post is a guess.
    if (!(await deps.codes.takeAttempt(transactionId))) return 'attempts';
    const code = typeof typed === 'string' ? typed.trim() : '';
    if (!ONE_TIME_CODE.test(code)) return 'invalid';
    await deps.codes.submit({ transaction_id: transactionId, code });
    return 'sent';
  } catch (err) {
    // Redis away (the count and the queue live there): the customer is told to try again on the
    // page, not shown an error. The attempt may have been counted, and the code queued or not (a
    // command out of time may still have run): typing it again costs at most one more attempt.
    if (isRedisUnavailable(err)) return 'unavailable';
    throw err;
  }
}
