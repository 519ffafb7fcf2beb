-- Initial schema. Hand-written (SQL-first): constraints here are the last line of defence for money.

CREATE TABLE merchants (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  webhook_url text,
  status      text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED')),
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at  timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id       uuid NOT NULL REFERENCES merchants(id),
  api_key           text NOT NULL UNIQUE,
  -- AES-256-GCM: base64(iv).base64(tag).base64(ciphertext); the secret must be usable in clear for HMAC.
  secret_ciphertext text NOT NULL,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at        timestamptz(3)
);
CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id, created_at);

CREATE TABLE subsidiaries (
  country_code text PRIMARY KEY CHECK (country_code ~ '^[A-Z]{2}$'),
  country_name text NOT NULL,
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  active       boolean NOT NULL DEFAULT false,
  updated_at   timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE transactions (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id         uuid NOT NULL REFERENCES merchants(id),
  merchant_order_id   text NOT NULL,
  type                text NOT NULL CHECK (type IN ('CASHIN', 'CASHOUT')),
  status              text NOT NULL CHECK (status IN ('CREATED', 'INITIATED', 'PENDING', 'SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED', 'AWAITING_APPROVAL')),
  amount              bigint NOT NULL CHECK (amount > 0),
  currency            text NOT NULL,
  country_code        text NOT NULL REFERENCES subsidiaries(country_code),
  msisdn              text NOT NULL,
  motif               text,
  return_url          text,
  notify_url          text,
  metadata            jsonb,
  request_fingerprint text NOT NULL,
  provider_reference  text NOT NULL UNIQUE,
  provider_tx_id      text,
  provider_session_id text,
  provider_state      text,
  provider_txn_status text,
  failure_code        text,
  failure_reason      text,
  refunded_amount     bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  expires_at          timestamptz(3),
  completed_at        timestamptz(3),
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT transactions_merchant_order_key UNIQUE (merchant_id, merchant_order_id)
);
CREATE INDEX transactions_created_idx ON transactions (created_at);
CREATE INDEX transactions_merchant_created_idx ON transactions (merchant_id, created_at);

-- Every state change, in order: the audit trail of the state machine.
CREATE TABLE transaction_events (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id uuid NOT NULL REFERENCES transactions(id),
  from_status    text,
  to_status      text NOT NULL,
  cause          text NOT NULL,
  created_at     timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX transaction_events_tx_idx ON transaction_events (transaction_id, id);

-- Transactional outbox: a job that must happen is a row first. available_at = 9999-12-31 holds a row
-- back until something releases it (a webhook waiting for the previous event of its transaction).
CREATE TABLE outbox (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topic        text NOT NULL,
  payload      jsonb NOT NULL,
  available_at timestamptz(3) NOT NULL DEFAULT now(),
  run          integer NOT NULL DEFAULT 0,
  completed_at timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX outbox_open_idx ON outbox (available_at) WHERE completed_at IS NULL;

-- Double-entry ledger. Merchant accounts can never go negative; system accounts are the other side.
CREATE TABLE ledger_accounts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id  uuid REFERENCES merchants(id),
  country_code text NOT NULL REFERENCES subsidiaries(country_code),
  currency     text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('MERCHANT_AVAILABLE', 'MERCHANT_PENDING', 'MERCHANT_REFUND_RESERVED', 'OPERATOR_RECEIVABLE')),
  balance      bigint NOT NULL DEFAULT 0,
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT ledger_accounts_owner_key UNIQUE NULLS NOT DISTINCT (merchant_id, country_code, kind),
  CONSTRAINT ledger_accounts_merchant_non_negative CHECK (merchant_id IS NULL OR balance >= 0),
  CONSTRAINT ledger_accounts_kind_owner CHECK ((kind = 'OPERATOR_RECEIVABLE') = (merchant_id IS NULL))
);

CREATE TABLE journal_entries (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  journal_id     uuid NOT NULL,
  account_id     bigint NOT NULL REFERENCES ledger_accounts(id),
  amount         bigint NOT NULL CHECK (amount <> 0),
  posting        text NOT NULL,
  transaction_id uuid REFERENCES transactions(id),
  created_at     timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX journal_entries_journal_idx ON journal_entries (journal_id);
CREATE INDEX journal_entries_account_idx ON journal_entries (account_id);

-- A journal that does not sum to zero cannot commit.
CREATE FUNCTION journal_must_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(amount), 0) FROM journal_entries WHERE journal_id = NEW.journal_id) <> 0 THEN
    RAISE EXCEPTION 'journal % does not balance', NEW.journal_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER journal_entries_balanced
  AFTER INSERT ON journal_entries DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_must_balance();

CREATE TABLE webhook_events (
  id              uuid PRIMARY KEY,
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  merchant_id     uuid NOT NULL REFERENCES merchants(id),
  transaction_id  uuid REFERENCES transactions(id),
  event_type      text NOT NULL,
  payload         jsonb NOT NULL,
  target_url      text,
  status          text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'ABANDONED', 'NO_TARGET')),
  attempt_count   integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  last_error      text,
  delivered_at    timestamptz(3),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_tx_idx ON webhook_events (transaction_id, seq);
CREATE INDEX webhook_events_merchant_idx ON webhook_events (merchant_id, created_at);

CREATE TABLE webhook_attempts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id    uuid NOT NULL REFERENCES webhook_events(id),
  attempt_no  integer NOT NULL CHECK (attempt_no >= 1),
  target_url  text NOT NULL,
  status_code integer,
  latency_ms  integer NOT NULL,
  error       text,
  success     boolean NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_attempts_once UNIQUE (event_id, attempt_no)
);
