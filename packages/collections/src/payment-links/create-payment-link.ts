import { currencyForCountry, DomainError, linkTerms, type AmountLimits } from '@mm/domain';
import type { Db } from '@mm/db';
import {
  findLinkByIdempotencyKey,
  insertPaymentLink,
  insertPaymentLinkOnce,
  type LinkAudit,
  type LinkIdempotency,
  type NewPaymentLink,
  type PaymentLinkRecord,
} from '@mm/db/payment-links';
import { requestFingerprint } from '../orders/request-fingerprint.js';
import type { PaymentLinkBody } from './payment-link-body.js';

export interface CreatePaymentLinkDeps {
  db: Db;
  limits: AmountLimits;
  isActiveCountry(countryCode: string): Promise<boolean>;
  now(): number;
}

export interface CreatePaymentLinkOptions {
  /** The audit row of a link a person created (the portal's), written in the same transaction. */
  audit?: LinkAudit;
  /** The request's Idempotency-Key: the same key and body again answer the link it made (replayed). */
  idempotencyKey?: string | null;
}

/**
 * A new payment link of the merchant (docs/payment-links.md): its country must be an active
 * subsidiary (its currency follows), its amount terms valid. Nothing is written when it is refused.
 */
export async function createPaymentLink(
  deps: CreatePaymentLinkDeps,
  merchantId: string,
  body: PaymentLinkBody,
  options: CreatePaymentLinkOptions = {},
): Promise<{ link: PaymentLinkRecord; replayed: boolean }> {
  const now = new Date(deps.now());
  const idempotency: LinkIdempotency | null = options.idempotencyKey
    ? { key: options.idempotencyKey, fingerprint: requestFingerprint({ ...body }) }
    : null;
  // A retry is answered the link it made even once its terms would be refused now (an expiry since
  // passed, a subsidiary since closed): it asks for no new link.
  if (idempotency) {
    const earlier = await findLinkByIdempotencyKey(deps.db, merchantId, idempotency, now);
    if (earlier) return { link: earlier, replayed: true };
  }
  const currency = currencyForCountry(body.country_code);
  if (!currency || !(await deps.isActiveCountry(body.country_code)))
    throw new DomainError('COUNTRY_NOT_SUPPORTED', `country ${body.country_code} is not an active subsidiary`);
  const terms = linkTerms(body, deps.limits, currency, now);
  const link: NewPaymentLink = {
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
  };
  if (idempotency) return insertPaymentLinkOnce(deps.db, link, idempotency, now, options.audit);
  return { link: await insertPaymentLink(deps.db, link, now, options.audit), replayed: false };
}
