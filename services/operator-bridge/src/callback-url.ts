/**
 * Where the operator posts results for a payment. The simulator signs its callbacks and names the
 * payment in them: one route. The real operators' routes name their account (operator and country,
 * whose adapter reads the callback) and, for operators whose callbacks are unsigned and per request
 * (MTN, Orange), the payment: a callback is then only a hint about that payment, never applied as such.
 */
export function callbackUrlFor(base: string, t: { operator: string; countryCode: string; providerReference: string }): string {
  const root = base.replace(/\/$/, '');
  if (t.operator === 'SIMULATOR') return `${root}/operator/callbacks/simulator`;
  return `${accountCallbackUrl(root, t)}/${encodeURIComponent(t.providerReference)}`;
}

/** The account's own route: what an operator with one registered webhook URL per account (Wave) is given. */
export function accountCallbackUrl(base: string, account: { operator: string; countryCode: string }): string {
  return `${base.replace(/\/$/, '')}/operator/callbacks/${account.operator.toLowerCase()}/${account.countryCode.toLowerCase()}`;
}
