-- A webhook attempt's record in one round trip: what recordDeliveryOutcome sent as BEGIN, the lock of the
-- event's transaction row, one statement and COMMIT (four round trips on every delivery), as one function
-- called in autocommit. The lock comes first and the statement after it takes its own snapshot (a
-- function's statements each do), so it sees an event a move of the same transaction committed while this
-- waited for the lock: the release of the next held event cannot miss it (the reason for the lock).
--
-- `a` holds the attempt: event_id, attempt_no, target_url, status_code, latency_ms, error, error_detail,
-- success, attempted_at; the event's new state: status, updated_at, next_attempt_at, delivered_at,
-- last_error (null keeps the event's); complete_outbox_id (the event ends), release_next (the next held
-- event of its transaction goes), reschedule_outbox_id and reschedule_at (a retry: a new run of the row),
-- now. Conditional on the attempt count the run started from: o_recorded 0 and nothing written for a
-- second run of the same job. The row returned is the outbox row to publish (the released event's or the
-- rescheduled one), if any.
CREATE FUNCTION record_webhook_attempt(a jsonb)
RETURNS TABLE (o_recorded int, o_id text, o_topic text, o_payload jsonb, o_available_at timestamptz, o_run int)
LANGUAGE plpgsql AS $$
DECLARE
  v_event uuid := (a->>'event_id')::uuid;
  v_transaction uuid;
BEGIN
  SELECT t.id INTO v_transaction FROM transactions t
   WHERE t.id = (SELECT e.transaction_id FROM webhook_events e WHERE e.id = v_event) FOR UPDATE;
  RETURN QUERY
  WITH event AS (
    UPDATE webhook_events w
       SET attempt_count = (a->>'attempt_no')::int, status = a->>'status', updated_at = (a->>'updated_at')::timestamptz,
           next_attempt_at = (a->>'next_attempt_at')::timestamptz,
           delivered_at = coalesce((a->>'delivered_at')::timestamptz, w.delivered_at),
           last_error = coalesce(a->>'last_error', w.last_error)
     WHERE w.id = v_event AND w.status = 'PENDING' AND w.attempt_count = (a->>'attempt_no')::int - 1
    RETURNING w.id),
  attempt AS (
    INSERT INTO webhook_attempts (event_id, attempt_no, target_url, status_code, latency_ms, error, error_detail, success, created_at)
    SELECT event.id, (a->>'attempt_no')::int, a->>'target_url', (a->>'status_code')::int, (a->>'latency_ms')::int, a->>'error',
           a->>'error_detail', (a->>'success')::boolean, (a->>'attempted_at')::timestamptz
      FROM event),
  done AS (
    UPDATE outbox d SET completed_at = now()
     WHERE d.id = (a->>'complete_outbox_id')::uuid AND d.completed_at IS NULL AND EXISTS (SELECT 1 FROM event)),
  next AS (
    SELECT w.id FROM webhook_events w
     WHERE (a->>'release_next')::boolean AND w.transaction_id = v_transaction AND w.status = 'PENDING' AND w.id <> v_event
       AND EXISTS (SELECT 1 FROM event)
     ORDER BY w.seq LIMIT 1),
  released_event AS (
    UPDATE webhook_events e SET next_attempt_at = (a->>'now')::timestamptz FROM next WHERE e.id = next.id),
  released_job AS (
    UPDATE outbox o SET available_at = (a->>'now')::timestamptz FROM next WHERE o.id = next.id
    RETURNING o.id::text AS id, o.topic, o.payload, o.available_at, o.run),
  rescheduled AS (
    UPDATE outbox r SET available_at = (a->>'reschedule_at')::timestamptz, run = r.run + 1
     WHERE r.id = (a->>'reschedule_outbox_id')::uuid AND EXISTS (SELECT 1 FROM event)
    RETURNING r.id::text AS id, r.topic, r.payload, r.available_at, r.run),
  published AS (SELECT * FROM released_job UNION ALL SELECT * FROM rescheduled)
  SELECT (SELECT count(*)::int FROM event), p.id, p.topic, p.payload, p.available_at, p.run
    FROM (SELECT 1) one LEFT JOIN published p ON true;
END $$;
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION record_webhook_attempt(jsonb) SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
