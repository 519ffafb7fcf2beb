import { currencyForCountry, DomainError, linkTerms, type AmountLimits } from '@mm/domain';
import type { Db } from '@mm/db';
import { insertPaymentLink, type LinkAudit, type PaymentLinkRecord } from '@mm/db/payment-links';
import type { PaymentLinkBody } from './payment-link-body.js';

export interface CreatePaymentLinkDeps {
  db: Db;
  limits: AmountLimits;
  isActiveCountry(countryCode: string): Promise<boolean>;
  now(): number;
}

/**
 * A new payment link of the merchant (docs/payment-links.md): its country must be an active
 * subsidiary (its currency follows), its amount terms valid. Nothing is written when it is refused.
 */
export async function createPaymentLink(
  deps: CreatePaymentLinkDeps,
  merchantId: string,
  body: PaymentLinkBody,
  /** The audit row of a link a person created (the portal's), written in the same transaction. */
  audit?: LinkAudit,
): Promise<PaymentLinkRecord> {
  const now = new Date(deps.now());
  const currency = currencyForCountry(body.country_code);
  if (!currency || !(await deps.isActiveCountry(body.country_code)))
    throw new DomainError('COUNTRY_NOT_SUPPORTED', `country ${body.country_code} is not an active subsidiary`);
  const terms = linkTerms(body, deps.limits, currency, now);
  return insertPaymentLink(
    deps.db,
    {
      merchantId,
      description: body.description,
      countryCode: body.country_code,
      currency,
      amount: terms.amount,
      reusable: terms.reusable,
      maxPayments: terms.maxPayments,
      expiresAt: terms.expiresAt,
      redirectUrl: body.redirect_url ?? null,
      metadata: body.metadata ?? null,
    },
    now,
    audit,
  );
}
