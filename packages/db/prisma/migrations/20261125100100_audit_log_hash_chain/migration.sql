-- audit_log as a hash chain: each row carries the previous row's hash (prev_hash) and its own
-- (row_hash = sha256 over a canonical form of its content and prev_hash). Changing, removing, inserting
-- or reordering a row breaks the chain at that row or the next, which `pnpm admin audit:verify`
-- recomputes independently (packages/db/src/audit-chain.ts). What it cannot see alone is the newest rows
-- being cut off, or the whole chain rewritten by someone able to disable the triggers: for those, keep the
-- head it prints somewhere else and pass it back with --anchor.

ALTER TABLE audit_log ADD COLUMN prev_hash text, ADD COLUMN row_hash text;

-- One field of the canonical form: `~` for NULL, else `<length in UTF-8 bytes>:<text>`. The length prefix
-- makes the concatenation unambiguous (no content can pass for a field boundary).
CREATE FUNCTION audit_log_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(convert_to(value, 'UTF8'))::text || ':' || value END
$$;

-- Version tag, prev_hash, then every column of the row's content in a fixed order. Values are written as
-- PostgreSQL's own text forms that no session setting changes: jsonb's (normalised: the same value
-- always prints the same), uuid's, bigint's, and created_at as epoch milliseconds (no time zone or
-- DateStyle involved).
CREATE FUNCTION audit_log_row_hash(prev_hash text, r audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    'audit_log/v1|' || prev_hash || '|' ||
    audit_log_field(r.id::text) || audit_log_field(r.staff_id::text) || audit_log_field(r.actor) ||
    audit_log_field(r.action) || audit_log_field(r.target_type) || audit_log_field(r.target_id) ||
    audit_log_field(r.before::text) || audit_log_field(r.after::text) || audit_log_field(r.request_id) ||
    audit_log_field(r.ip) || audit_log_field((extract(epoch FROM r.created_at) * 1000)::bigint::text),
    'UTF8')), 'hex')
$$;

-- Rows already there are chained in id order, from the genesis hash (64 zeros).
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change;
DO $$
DECLARE
  r audit_log;
  previous text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    UPDATE audit_log SET prev_hash = previous, row_hash = audit_log_row_hash(previous, r) WHERE id = r.id
      RETURNING row_hash INTO previous;
  END LOOP;
END $$;
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change;

ALTER TABLE audit_log
  ALTER COLUMN prev_hash SET NOT NULL,
  ALTER COLUMN row_hash SET NOT NULL,
  ADD CONSTRAINT audit_log_hashes_check CHECK (prev_hash ~ '^[0-9a-f]{64}$' AND row_hash ~ '^[0-9a-f]{64}$');
-- One successor per row: even if appends were ever not serialized, a fork would fail to insert instead
-- of being written.
CREATE UNIQUE INDEX audit_log_prev_hash_key ON audit_log (prev_hash);

-- Every insert, by any role and any path (Prisma, SQL, psql), is chained here; the values a client gives
-- for id, created_at, prev_hash and row_hash are replaced. Appends are serialized by a transaction-level
-- advisory lock held until commit, and the id is drawn under it, so id order is chain order and the
-- row read as "previous" is the last one committed. That read needs a fresh snapshot, which only
-- READ COMMITTED gives inside a transaction: under a stricter isolation it could miss the last append
-- and fork, so the insert is refused instead. created_at is the database's clock at the append, not the
-- client's: monotonic along the chain, and the application cannot backdate a row.
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous text;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'audit_log rows are appended under READ COMMITTED only (the hash chain must see the last row)'
      USING ERRCODE = 'feature_not_supported';
  END IF;
  -- Any constant: every appender takes the same one.
  PERFORM pg_advisory_xact_lock(20261125, 1);
  NEW.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  -- Truncated here to the column's millisecond precision, so the hash covers exactly what is stored.
  NEW.created_at := date_trunc('milliseconds', clock_timestamp());
  SELECT row_hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  NEW.prev_hash := coalesce(previous, repeat('0', 64));
  NEW.row_hash := audit_log_row_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END $$;
-- Names inside resolve in this schema: never to a temporary table (which any role may create, and which
-- an unqualified name finds first by default) nor to a function of another schema.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION audit_log_chain() SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
