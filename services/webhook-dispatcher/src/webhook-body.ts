/**
 * The payload is stored as jsonb, which does not keep key order. The body is sent with the interface's
 * field order (other keys after) so that merchants read what the documentation shows. The signature
 * covers whatever text is produced here, so the order is cosmetic, never a correctness matter.
 */
const FIELD_ORDER = [
  'event', 'event_id', 'transaction_id', 'merchant_order_id', 'type', 'status', 'amount', 'currency',
  'country_code', 'provider_tx_id', 'failure_code', 'failure_reason', 'timestamp',
];

export function webhookBody(payload: Record<string, unknown>): string {
  const rank = (key: string) => {
    const i = FIELD_ORDER.indexOf(key);
    return i === -1 ? FIELD_ORDER.length : i;
  };
  const keys = Object.keys(payload).sort((a, b) => rank(a) - rank(b));
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, payload[k]])));
}
