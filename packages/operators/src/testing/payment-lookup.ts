import type { PaymentLookup } from '../operator-adapter.js';

/** A payment to look up by reference alone, for tests of operators that need nothing else. */
export function lookup(partnerReference: string, overrides: Partial<PaymentLookup> = {}): PaymentLookup {
  return {
    partnerReference,
    providerSessionId: null,
    msisdn: '+2250707000001',
    amount: 1500,
    currency: 'XOF',
    ...overrides,
  };
}
