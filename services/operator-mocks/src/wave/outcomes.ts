/**
 * What happens to a payment or payout in the mock, by the national number's last two digits (the
 * project's scripted convention mapped onto Wave's vocabulary). Wave publishes no sandbox numbers (it has
 * no sandbox: integrators test with small live amounts), so these are the only outcomes.
 */
export type CheckoutScript =
  | { kind: 'succeed'; late: boolean }
  | { kind: 'fail'; code: string; message: string }
  | { kind: 'abandon' }
  | { kind: 'never' }
  | { kind: 'refuse' };

const lastTwo = (mobile: string) => mobile.replace(/\D/g, '').slice(-2);

export function checkoutScript(mobile: string | null): CheckoutScript {
  switch (mobile === null ? '' : lastTwo(mobile)) {
    case '02':
      return { kind: 'fail', code: 'insufficient-funds', message: 'The customer does not have enough funds' };
    // Wave has no PIN failure among its payment errors: its generic one.
    case '03':
      return { kind: 'fail', code: 'payment-failure', message: 'The payment failed' };
    case '04':
      return { kind: 'fail', code: 'kyb-limits-exceeded', message: 'The payment exceeds the account limits' };
    case '05':
      return { kind: 'abandon' };
    case '06':
      return { kind: 'never' };
    case '07':
      return { kind: 'refuse' };
    case '09':
      return { kind: 'succeed', late: true };
    default:
      return { kind: 'succeed', late: false };
  }
}

export type PayoutScript =
  | { kind: 'succeed'; late: boolean }
  | { kind: 'fail'; code: string; message: string }
  | { kind: 'never' }
  | { kind: 'refuse' };

/** Payout error codes from the 0xc007b/wave-api-client ErrorCode enum (docs.wave.com/payout). */
export function payoutScript(mobile: string): PayoutScript {
  switch (lastTwo(mobile)) {
    case '02':
      return { kind: 'fail', code: 'insufficient-funds', message: 'Your wallet balance is too low' };
    case '03':
      return { kind: 'fail', code: 'recipient-account-blocked', message: 'The recipient account is blocked' };
    case '04':
      return { kind: 'fail', code: 'recipient-limit-exceeded', message: 'The recipient would exceed their limits' };
    case '05':
      return { kind: 'fail', code: 'recipient-account-inactive', message: 'The recipient account is inactive' };
    case '06':
      return { kind: 'never' };
    case '07':
      return { kind: 'refuse' };
    case '09':
      return { kind: 'succeed', late: true };
    default:
      return { kind: 'succeed', late: false };
  }
}
