-- Replay protection that outlives Redis. The gateway's replay guard remembers the (API key, signature)
-- of each non-GET request in Redis for twice the timestamp tolerance; if Redis loses its data, a request
-- signed in the last 300 s would be taken again. A refund or a cash-out keeps, on the row it creates,
-- the SHA-256 of its key and signature (services/gateway/src/http/signed-request.ts), and that value is
-- unique: the same signed request cannot create a second row, whatever Redis remembers.
--
-- Of the key and the signature, not of the signature alone: that pair is what the Redis guard
-- remembers, and uniqueness then does not rest on two keys never sharing a secret.
--
-- Hex text rather than bytea: the other hashes of this schema (request_fingerprint, the audit chain) are
-- hex text, and a transaction row is read both through Prisma and as raw pg rows (transaction-row.ts),
-- which would hand a bytea back as two different types (Uint8Array, Buffer). 32 bytes more, on rows
-- that are few. The CHECK keeps it one spelling (lowercase, 64 digits): an upper-case copy of a hash
-- would otherwise be a second value the unique index lets through. NOT VALID spares a scan under
-- ALTER TABLE's exclusive lock; every existing row is NULL, which passes, and new rows are checked.
--
-- Partial (WHERE NOT NULL): cash-ins, most of the transactions, keep no hash and stay out of the index.
-- Outside schema.prisma, which cannot declare a partial index (as refunds_idempotency_key). Built in
-- the runner's transaction (so not CONCURRENTLY): each table is held for one scan while its index is built.

ALTER TABLE refunds
  ADD COLUMN request_signature_hash text,
  ADD CONSTRAINT refunds_request_signature_hash_hex CHECK (request_signature_hash ~ '^[0-9a-f]{64}$') NOT VALID;
CREATE UNIQUE INDEX refunds_request_signature_key ON refunds (request_signature_hash) WHERE request_signature_hash IS NOT NULL;

ALTER TABLE transactions
  ADD COLUMN request_signature_hash text,
  ADD CONSTRAINT transactions_request_signature_hash_hex CHECK (request_signature_hash ~ '^[0-9a-f]{64}$') NOT VALID;
CREATE UNIQUE INDEX transactions_request_signature_key ON transactions (request_signature_hash) WHERE request_signature_hash IS NOT NULL;
