-- An optional Idempotency-Key on POST /v1/payment-links, as on refunds: the same key and body answer the
-- link it made, another body 409 IDEMPOTENCY_KEY_REUSED. Unique per merchant where given; the fingerprint
-- (SHA-256 of the request's parameters) tells a retry from a reuse. Links made without a key keep nulls.
ALTER TABLE payment_links ADD COLUMN idempotency_key text;
ALTER TABLE payment_links ADD COLUMN request_fingerprint text;
ALTER TABLE payment_links ADD CONSTRAINT payment_links_idempotency_fingerprint
  CHECK (idempotency_key IS NULL OR request_fingerprint IS NOT NULL);
CREATE UNIQUE INDEX payment_links_idempotency_key ON payment_links (merchant_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
