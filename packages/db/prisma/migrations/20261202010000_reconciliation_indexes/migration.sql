-- What a reconciliation run reads of our books (packages/db/src/reconciliation/our-records.ts): the
-- movements of an account created or decided on one day, and those the operator's records of that day name
-- by our reference or by its own id. Each branch of that OR needs an index of its own, or the planner
-- reads the whole of transactions and refunds once per operator account and day.
CREATE INDEX transactions_completed_idx ON transactions (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX transactions_provider_tx_idx ON transactions (provider_tx_id) WHERE provider_tx_id IS NOT NULL;
CREATE INDEX refunds_created_idx ON refunds (created_at);
CREATE INDEX refunds_completed_idx ON refunds (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX refunds_provider_refund_idx ON refunds (provider_refund_id) WHERE provider_refund_id IS NOT NULL;
