import type { PaymentLinkRecord } from '@mm/db/payment-links';
import { paymentLinkUrl } from '@mm/domain';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const amount = (a: bigint | null) => (a === null ? null : Number(a));

/** A payment link as the API answers it (docs/payment-links.md): every field present, null when unset. */
export function presentPaymentLink(link: PaymentLinkRecord, publicBaseUrl: string) {
  const url = paymentLinkUrl(publicBaseUrl, link.slug);
  return {
    payment_link_id: link.id,
    url,
    qr_code: { png: `${url}/qr.png`, svg: `${url}/qr.svg` },
    status: link.status,
    description: link.description,
    country_code: link.countryCode,
    currency: link.currency,
    amount: amount(link.amount),
    min_amount: amount(link.minAmount),
    max_amount: amount(link.maxAmount),
    reusable: link.reusable,
    max_payments: link.maxPayments,
    expires_at: iso(link.expiresAt),
    redirect_url: link.redirectUrl,
    metadata: link.metadata,
    payments: { succeeded: link.paid, in_progress: link.inProgress, collected_amount: Number(link.collected) },
    created_at: link.createdAt.toISOString(),
    deactivated_at: iso(link.deactivatedAt),
  };
}
