import { randomBytes } from 'node:crypto';
import {
  chosenLinkAmount,
  isOperatorCode,
  PaymentLinkRefused,
  type LinkAmount,
  type OperatorCode,
  typedMsisdn,
} from '@mm/domain';
import { type PaymentLinkRecord } from '@mm/db/payment-links';
import { initiateCashin, type InitiateCashinDeps } from '../cashins/initiate-cashin.js';
import { invalidField } from '../invalid-field.js';

/** What the customer's page posts: the number as typed, the amount of an open link, the operator picked. */
export interface LinkPaymentForm {
  msisdn?: unknown;
  amount?: unknown;
  operator?: unknown;
}

/** The amount terms of a stored link. */
export function linkAmountOf(link: Pick<PaymentLinkRecord, 'amount' | 'minAmount' | 'maxAmount'>): LinkAmount {
  return link.amount !== null
    ? { kind: 'fixed', amount: Number(link.amount) }
    : { kind: 'range', min: Number(link.minAmount), max: Number(link.maxAmount) };
}

/** link- and 16 random base64url characters (96 bits): unique among the merchant's orders. */
export function linkOrderId(): string {
  return `link-${randomBytes(12).toString('base64url')}`;
}

/**
 * A customer pays through a link: an ordinary cash-in of the link's merchant, with a generated
 * merchant_order_id, the link's description as motif, its redirect_url as return_url and its metadata,
 * in its country (a number of another country is refused). A link that takes no payment now throws
 * PaymentLinkRefused before anything is written or sent; the place of a single-use link is taken with
 * the insert itself (createCashin), so of two customers at the same moment one goes on.
 */
export async function payThroughLink(
  deps: InitiateCashinDeps,
  link: PaymentLinkRecord,
  form: LinkPaymentForm,
  /** The operators the page offered (the customer's choice must be one of them). */
  offered: readonly string[],
): Promise<{ transactionId: string }> {
  if (link.status !== 'ACTIVE') throw new PaymentLinkRefused(link.status);
  const msisdn = typeof form.msisdn === 'string' ? typedMsisdn(form.msisdn, link.countryCode) : '';
  if (!msisdn) throw invalidField('msisdn', 'is required');
  const amount = chosenLinkAmount(linkAmountOf(link), typeof form.amount === 'string' ? form.amount : undefined);
  if (amount === null)
    throw invalidField('amount', `must be a whole amount from ${link.minAmount} to ${link.maxAmount}`);
  let operator: OperatorCode | undefined;
  if (typeof form.operator === 'string' && form.operator !== '') {
    if (!isOperatorCode(form.operator) || !offered.includes(form.operator))
      throw invalidField('operator', 'is not one of the operators offered');
    operator = form.operator;
  }
  const { transaction } = await initiateCashin(
    deps,
    link.merchantId,
    {
      merchant_order_id: linkOrderId(),
      amount,
      customer_msisdn: msisdn,
      country_code: link.countryCode,
      currency: link.currency,
      motif: link.description,
      ...(operator ? { operator } : {}),
      ...(link.redirectUrl ? { return_url: link.redirectUrl } : {}),
      ...(link.metadata ? { metadata: link.metadata as Record<string, string | number | boolean> } : {}),
    },
    { paymentLinkId: link.id, paymentLinkCapped: link.maxPayments !== null },
  );
  return { transactionId: transaction.id };
}
