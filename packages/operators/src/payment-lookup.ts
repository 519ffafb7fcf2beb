import type { PaymentLookup } from './operator-adapter.js';

/** The fields of a stored transaction an adapter may need to find its payment at the operator. */
export interface StoredPayment {
  providerReference: string;
  providerSessionId: string | null;
  msisdn: string;
  amount: bigint | number;
  currency: string;
  countryCode: string;
}

export function paymentLookupOf(t: StoredPayment): PaymentLookup {
  return {
    partnerReference: t.providerReference,
    providerSessionId: t.providerSessionId,
    msisdn: t.msisdn,
    amount: Number(t.amount),
    currency: t.currency,
    countryCode: t.countryCode,
  };
}
