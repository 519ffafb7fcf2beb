-- Refunds. The sum of refunds that are not FAILED is kept on the transaction and bounded by a CHECK,
-- so two concurrent refunds can never together exceed the captured amount: the second conditional
-- update finds no room (or violates the CHECK) and is refused inside the database.

ALTER TABLE transactions
  ADD COLUMN refund_reserved_amount bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT transactions_refunds_within_amount
    CHECK (refund_reserved_amount >= 0 AND refund_reserved_amount <= amount AND refunded_amount <= refund_reserved_amount);

CREATE TABLE refunds (
  id                  uuid PRIMARY KEY,
  transaction_id      uuid NOT NULL REFERENCES transactions(id),
  merchant_id         uuid NOT NULL REFERENCES merchants(id),
  amount              bigint NOT NULL CHECK (amount > 0),
  currency            text NOT NULL,
  reason              text,
  status              text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  failure_reason      text,
  provider_reference  text NOT NULL UNIQUE,
  provider_refund_id  text,
  idempotency_key     text,
  request_fingerprint text NOT NULL,
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  completed_at        timestamptz(3),
  CONSTRAINT refunds_completed_when_final CHECK ((status = 'PENDING') = (completed_at IS NULL))
);
CREATE INDEX refunds_transaction_idx ON refunds (transaction_id);
-- Optional Idempotency-Key: unique per merchant when given.
CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (merchant_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

ALTER TABLE journal_entries ADD COLUMN refund_id uuid REFERENCES refunds(id);
ALTER TABLE webhook_events ADD COLUMN refund_id uuid REFERENCES refunds(id);
