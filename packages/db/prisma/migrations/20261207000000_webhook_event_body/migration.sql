-- The body a webhook event is sent with, stored as the bytes that are signed: built once, in its wire order,
-- when the event is recorded (payload, jsonb, keeps the same value for queries and the API but not its key order).
ALTER TABLE webhook_events ADD COLUMN body text;

-- Events recorded before: the text the dispatcher built from payload until now (the interface's fields first,
-- in its order, the others after in jsonb's), so that a retry or a resend of one sends the bytes it sent before.
UPDATE webhook_events w
   SET body = (
     SELECT '{' || string_agg(to_json(f.key)::text || ':' || f.value::text, ',' ORDER BY
                  coalesce(array_position(ARRAY['event', 'event_id', 'transaction_id', 'merchant_order_id', 'type', 'status',
                                                'amount', 'currency', 'country_code', 'provider_tx_id', 'failure_code',
                                                'failure_reason', 'timestamp']::text[], f.key), 14), f.ord) || '}'
       FROM jsonb_each(w.payload) WITH ORDINALITY AS f(key, value, ord))
 WHERE body IS NULL;
