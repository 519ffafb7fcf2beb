-- The retention job (packages/db/src/retention.ts) deletes, in small batches, the outbox rows completed
-- before a cut-off and the delivery attempts of finished webhook events made before one. Each batch
-- takes the oldest rows first: without these indexes every batch would scan the whole table.
--
-- Partial on completed rows: the relay's scans use outbox_due_idx and outbox_parked_idx, which hold
-- only open rows; an open row never enters this one, and neither index is touched by a row's retries
-- (webhook re-schedules) while it stays open.
--
-- Built in the runner's transaction (so not CONCURRENTLY): writes to each table wait for one scan of
-- it. On a deployment whose outbox has grown large, a DBA builds both beforehand with CREATE INDEX
-- CONCURRENTLY and these exact names; IF NOT EXISTS then makes this migration a no-op.
CREATE INDEX IF NOT EXISTS outbox_completed_idx ON outbox (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhook_attempts_created_idx ON webhook_attempts (created_at);
