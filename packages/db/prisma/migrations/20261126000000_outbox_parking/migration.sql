-- A job that keeps failing for a reason nobody understood is parked after a bounded number of runs
-- (each run: every BullMQ attempt used up) instead of being re-published by the relay for ever.
-- A parked row keeps its last error for the back-office, and runs again only when a person says so.
ALTER TABLE outbox
  ADD COLUMN failed_runs integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error  text,
  -- The failed job last counted (job id and finish time): every replica's relay sees the same failed
  -- job, and it counts once.
  ADD COLUMN last_failed_job text,
  ADD COLUMN parked_at   timestamptz(3);

-- The relay's scan: open rows that are not parked.
CREATE INDEX outbox_due_idx ON outbox (available_at) WHERE completed_at IS NULL AND parked_at IS NULL;
DROP INDEX outbox_open_idx;
CREATE INDEX outbox_parked_idx ON outbox (parked_at) WHERE completed_at IS NULL AND parked_at IS NOT NULL;
