/**
 * Where the operator posts results for a payment: the route of the operator account it goes through
 * (operator and country), whose adapter reads the callback with that account's secret, so a callback is
 * proved by the secret of the payment's own account. The simulator signs its callbacks and names the
 * payment in them: its account's route. For operators whose callbacks are unsigned and per request (MTN,
 * Orange), the route names the payment too: a callback is then only a hint about that payment, never
 * applied as such.
 */
export function callbackUrlFor(
  base: string,
  t: { operator: string; countryCode: string; providerReference: string },
): string {
  const account = accountCallbackUrl(base, t);
  if (t.operator === 'SIMULATOR') return account;
  return `${account}/${encodeURIComponent(t.providerReference)}`;
}

/** The account's own route: what an operator with one registered webhook URL per account (Wave) is given. */
export function accountCallbackUrl(base: string, account: { operator: string; countryCode: string }): string {
  return `${base.replace(/\/$/, '')}/operator/callbacks/${account.operator.toLowerCase()}/${account.countryCode.toLowerCase()}`;
}
