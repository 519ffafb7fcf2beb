-- An operator record is kept per movement the operator knows (its own id), no longer per reference of ours:
-- two movements booked under one of our references (a customer charged twice for one payment) were one
-- row, the later one's word, and the other was in no case. record_key is now 'op:' and the operator's id,
-- or 'ref:' and our reference when the operator gave no id (packages/db/src/reconciliation/operator-records.ts).
-- Of two rows that now name one movement, the newest word stays.
DELETE FROM operator_records o USING operator_records n
 WHERE o.country_code = n.country_code AND o.operator = n.operator AND o.kind = n.kind
   AND (CASE WHEN o.operator_tx_id IS NOT NULL THEN 'op:' || o.operator_tx_id ELSE 'ref:' || o.reference END)
     = (CASE WHEN n.operator_tx_id IS NOT NULL THEN 'op:' || n.operator_tx_id ELSE 'ref:' || n.reference END)
   AND (o.received_at, o.id) < (n.received_at, n.id);
UPDATE operator_records
   SET record_key = CASE WHEN operator_tx_id IS NOT NULL THEN 'op:' || operator_tx_id ELSE 'ref:' || reference END;
COMMENT ON COLUMN operator_records.record_key IS
  'the movement: op: and the operator''s id, or ref: and our reference when the operator gave no id';
