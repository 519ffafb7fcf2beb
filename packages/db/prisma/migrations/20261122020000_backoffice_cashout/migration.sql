-- Back-office staff, their audit log, and what cash-out and the transaction timeline need.

-- Cash-outs hold their amount in a reservation account until the operator pays (or the approver rejects).
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('MERCHANT_AVAILABLE', 'MERCHANT_PENDING', 'MERCHANT_REFUND_RESERVED', 'MERCHANT_CASHOUT_RESERVED', 'OPERATOR_RECEIVABLE'));

-- What the operator said (state, txn_status, failure reason) or who decided (staff), per state change.
ALTER TABLE transaction_events ADD COLUMN detail jsonb;

-- Back-office search: by number, by order id across merchants, the approval queue.
CREATE INDEX transactions_msisdn_idx ON transactions (msisdn, created_at);
CREATE INDEX transactions_order_id_idx ON transactions (merchant_order_id);
CREATE INDEX transactions_awaiting_approval_idx ON transactions (created_at) WHERE status = 'AWAITING_APPROVAL';
CREATE INDEX webhook_events_status_idx ON webhook_events (status, created_at) WHERE status IN ('PENDING', 'ABANDONED');

CREATE TABLE staff_users (
  id            uuid PRIMARY KEY,
  -- Stored lower-cased: one account per address whatever the case it is typed in.
  email         text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  role          text NOT NULL CHECK (role IN ('admin', 'approver', 'viewer')),
  -- scrypt, self-describing: scrypt$N$r$p$salt$hash (base64url).
  password_hash text NOT NULL,
  disabled_at   timestamptz(3),
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now()
);

-- Append-only: who did what to which record, with the record before and after.
CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  staff_id    uuid REFERENCES staff_users(id),
  actor       text NOT NULL,
  action      text NOT NULL,
  target_type text,
  target_id   text,
  before      jsonb,
  after       jsonb,
  request_id  text,
  ip          text,
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_idx ON audit_log (created_at);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, created_at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
