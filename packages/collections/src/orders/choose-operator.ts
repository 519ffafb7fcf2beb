import { DomainError, type OperatorRoute } from '@mm/domain';
import type { Db, Transaction } from '@mm/db';
import { replayOf } from './order-rules.js';

/** The routing of decisions for one subsidiary: its accounts (cached) and the rule of @mm/domain. */
export type RouteOperator = (countryCode: string, e164: string, requested: string | null) => Promise<OperatorRoute>;

export interface OperatorChoice {
  route: RouteOperator;
  /** Retry-After of a 503 OPERATOR_UNAVAILABLE: how long an operator marked down usually stays so. */
  unavailableRetryAfterS: number;
  /** The operators a payment link's customer may name (operatorsByNameOnly); none when absent. */
  byNameOnly?(countryCode: string): Promise<string[]>;
}

function refusal(
  route: Exclude<OperatorRoute, { kind: 'routed' }>,
  countryCode: string,
  retryAfterS: number,
): DomainError {
  if (route.kind === 'unsupported') {
    return new DomainError('OPERATOR_NOT_SUPPORTED', `no enabled operator serves this number in ${countryCode}`);
  }
  const why = route.reason === 'down' ? 'is marked down' : 'is not enabled';
  return new DomainError(
    'OPERATOR_UNAVAILABLE',
    `operator ${route.operator} ${why} in ${countryCode}; try again later`,
    undefined,
    retryAfterS,
  );
}

/**
 * The operator a new payment goes to, decided before anything is written: a number no enabled operator
 * serves (422) or an operator that cannot take it now (503) writes nothing. The same request sent
 * again for an order already recorded is still a replay of it, whatever the operator's state now.
 */
export async function chooseOperator(
  choice: OperatorChoice,
  db: Db,
  payment: {
    merchantId: string;
    merchantOrderId: string;
    countryCode: string;
    e164: string;
    requested: string | null;
    fingerprint: string;
    /** A cash-out's signedRequestHash: the same signed request again is REQUEST_REPLAYED (replayOf). */
    signatureHash?: string;
  },
): Promise<{ operator: string } | { replayed: true; transaction: Transaction }> {
  const route = await choice.route(payment.countryCode, payment.e164, payment.requested);
  if (route.kind === 'routed') return { operator: route.operator };
  const existing = await db.transaction.findUnique({
    where: { merchantId_merchantOrderId: { merchantId: payment.merchantId, merchantOrderId: payment.merchantOrderId } },
  });
  if (existing) return replayOf(existing, payment.fingerprint, payment.merchantOrderId, payment.signatureHash);
  throw refusal(route, payment.countryCode, choice.unavailableRetryAfterS);
}
