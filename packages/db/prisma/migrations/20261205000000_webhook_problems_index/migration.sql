-- The back office's list of deliveries that need a look (ABANDONED events, and PENDING ones with a failed
-- attempt: listProblemDeliveries) is this index's one reader. It held every PENDING event
-- (status IN ('PENDING', 'ABANDONED')), so the statements every delivery runs, which name an event or a
-- transaction with status = 'PENDING' (the check for an earlier undelivered event when an event is
-- written, the claim of an attempt, the record_webhook_attempt function), could be planned on it, and
-- on a table never analysed were: while a merchant's endpoint was down, each of them read every event
-- waiting for it. A new event (no attempt yet) is no longer in it and none of those statements implies
-- its predicate, so they find their rows by key (webhooks/delivery-plans.test.ts).
--
-- Built in the runner's transaction (so not CONCURRENTLY): writes to webhook_events wait for one scan
-- of it. On a deployment whose table has grown large, a DBA builds the new index beforehand with
-- CREATE INDEX CONCURRENTLY and this exact name; IF NOT EXISTS then makes that step a no-op.
CREATE INDEX IF NOT EXISTS webhook_events_problems_idx ON webhook_events (status, created_at)
  WHERE status = 'ABANDONED' OR (status = 'PENDING' AND attempt_count > 0);
DROP INDEX IF EXISTS webhook_events_status_idx;
