import type { AmountLimits } from '@mm/domain';
import { isDatabaseUnavailable, type Db, type Transaction } from '@mm/db';
import { createCashin, readTransaction } from '@mm/db/payments';
import { isAwaitingAck, type AfterCommit, type TransactionUpdateWaiter } from '@mm/queues';
import { chooseOperator, type OperatorChoice } from '../orders/choose-operator.js';
import { assertAmountInRange, replayOf } from '../orders/order-rules.js';
import { requestFingerprint } from '../orders/request-fingerprint.js';
import { resolvePayer } from '../orders/resolve-payer.js';
import { acknowledgedCashin } from './acknowledged-cashin.js';
import type { CashinBody } from './cashin-body.js';

/**
 * What the front end has seen of PostgreSQL going away (the gateway's DatabaseOutage): a cash-in
 * committed just before it stopped waits for an acknowledgement the bridge cannot write.
 */
export interface OutageSignal {
  /** When this was taken: the work that began then. */
  mark(): number;
  /** Aborted when an outage is seen after `since` (already, if one was seen since then). */
  signalSince(since: number): AbortSignal;
}

/** Where the chaos suite makes the process die at the worst moment (the gateway's FaultHooks). */
export interface CashinFaultPoints {
  /** Right after a cash-in's database commit, before its operator request is published. */
  afterCashinCommit(merchantOrderId: string): void;
}

export interface InitiateCashinDeps {
  db: Db;
  afterCommit: AfterCommit;
  waiter: TransactionUpdateWaiter;
  limits: AmountLimits;
  ackWaitMs: number;
  isActiveCountry(countryCode: string): Promise<boolean>;
  operators: OperatorChoice;
  /** Ends the wait for the acknowledgement once PostgreSQL is seen gone: the bridge cannot write it then. */
  databaseOutage?: OutageSignal;
  faults?: CashinFaultPoints;
}

export type InitiateCashinResult = { replayed: boolean; transaction: Transaction };

/**
 * Validates against the subsidiaries, records the cash-in with its outbox row, hands it to the
 * operator bridge and waits (bounded) for the operator's acknowledgement.
 */
export async function initiateCashin(
  deps: InitiateCashinDeps,
  merchantId: string,
  body: CashinBody,
  /** A payment through a link (payThroughLink): a place of the link is taken with the insert. */
  through: { paymentLinkId?: string; paymentLinkCapped?: boolean } = {},
): Promise<InitiateCashinResult> {
  const payer = await resolvePayer(
    {
      msisdn: body.customer_msisdn,
      msisdnField: 'customer_msisdn',
      countryCode: body.country_code,
      currency: body.currency,
    },
    deps.isActiveCountry,
  );
  assertAmountInRange(body.amount, deps.limits, payer.currency);
  const fields = {
    merchantId,
    merchantOrderId: body.merchant_order_id,
    amount: body.amount,
    currency: payer.currency,
    countryCode: payer.countryCode,
    msisdn: payer.e164,
    motif: body.motif ?? null,
    returnUrl: body.return_url ?? null,
    notifyUrl: body.notify_url ?? null,
    metadata: body.metadata ?? null,
  };
  const { merchantId: _m, ...fingerprinted } = fields;
  // The operator asked for is part of the request (a replay names the same one); absent, the
  // fingerprint is what it was before the field existed, so requests of before still replay.
  const fingerprint = requestFingerprint(body.operator ? { ...fingerprinted, operator: body.operator } : fingerprinted);
  const chosen = await chooseOperator(deps.operators, deps.db, {
    merchantId,
    merchantOrderId: body.merchant_order_id,
    countryCode: payer.countryCode,
    e164: payer.e164,
    requested: body.operator ?? null,
    fingerprint,
  });
  if ('replayed' in chosen) return chosen;
  const since = deps.databaseOutage?.mark();
  const result = await createCashin(deps.db, {
    ...fields,
    requestFingerprint: fingerprint,
    operator: chosen.operator,
    paymentLinkId: through.paymentLinkId,
    paymentLinkCapped: through.paymentLinkCapped,
  });

  if (result.kind === 'existing') return replayOf(result.transaction, fingerprint, body.merchant_order_id);

  deps.faults?.afterCashinCommit(body.merchant_order_id);
  // Subscribe before publishing: the acknowledgement may come back before publish() returns. An outage
  // seen since the commit started (however soon after it) means none is coming: no wait at all.
  const outage = since === undefined ? undefined : deps.databaseOutage?.signalSince(since);
  const ack = deps.waiter.wait(result.transaction.id, (s) => !isAwaitingAck(s), deps.ackWaitMs, outage);
  await deps.afterCommit.run([{ transaction: result.transaction, from: null, outbox: result.outbox }]);
  const heard = await ack.promise;
  if (heard?.fields) return { replayed: false, transaction: acknowledgedCashin(result.transaction, heard.fields) };
  // Committed: answered 202 with the state reached, whatever happens to the database now (a 503 would say
  // nothing was done). Without the acknowledged fields (no announcement in time, or one without them) the
  // row is read: it may have moved to INITIATED, or further; unless the database is gone, or goes meanwhile.
  if (outage?.aborted) return { replayed: false, transaction: result.transaction };
  const current = await readTransaction(deps.db, { id: result.transaction.id }).catch((err: unknown) => {
    if (isDatabaseUnavailable(err)) return null;
    throw err;
  });
  return { replayed: false, transaction: current ?? result.transaction };
}
