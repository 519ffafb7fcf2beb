import { isInFlight, type TransactionStatus } from '@mm/domain';

// Until the operator has decided, its raw state is PENDING (the interface's cash-in response shows it so, docs/interface.md).
export function providerState(t: { providerState: string | null; status: string }): string | null {
  return t.providerState ?? (isInFlight(t.status as TransactionStatus) ? 'PENDING' : null);
}

// A cash-out is a transfer to the wallet: no push, no customer confirmation.
export const paymentMethod = (t: { type: string }) => (t.type === 'CASHOUT' ? 'WALLET_TRANSFER' : 'USSD_PUSH');
