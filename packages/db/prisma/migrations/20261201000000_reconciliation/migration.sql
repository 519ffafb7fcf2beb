-- Reconciliation with the operators (docs/reconciliation.md): what each operator says happened, the result
-- of each day compared with our books, and the differences a person resolves.

-- The operator's word on one movement (a cash-in, a refund, a payout) of one operator account: from its list
-- API, a status query, or a statement file. One row per movement, the newest word kept (a re-import or a
-- statement after an API read replaces it). record_key is our reference when the operator echoes it, else
-- 'op:' and the operator's own id. business_date is the operator's day of the movement.
CREATE TABLE operator_records (
  id              bigserial PRIMARY KEY,
  country_code    text NOT NULL,
  operator        text NOT NULL,
  business_date   date NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('CASHIN', 'REFUND', 'PAYOUT')),
  record_key      text NOT NULL,
  reference       text,
  operator_tx_id  text,
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        text NOT NULL,
  outcome         text NOT NULL CHECK (outcome IN ('SUCCESS', 'FAILED', 'PENDING')),
  source          text NOT NULL CHECK (source IN ('API', 'STATUS_QUERY', 'STATEMENT')),
  raw             jsonb,
  received_at     timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT operator_records_key UNIQUE (country_code, operator, kind, record_key)
);
CREATE INDEX operator_records_day_idx ON operator_records (country_code, operator, business_date);
CREATE INDEX operator_records_reference_idx ON operator_records (reference) WHERE reference IS NOT NULL;

-- The last run of one operator account's day: counts and amounts per category (MATCHED, STATUS_DIFFERS,
-- AMOUNT_DIFFERS, MISSING_AT_OPERATOR, UNKNOWN_TO_US, PENDING) and the cases still open. A run again
-- replaces it (matching is idempotent: the same records give the same row).
CREATE TABLE reconciliation_runs (
  country_code   text NOT NULL,
  operator       text NOT NULL,
  business_date  date NOT NULL,
  runs           integer NOT NULL DEFAULT 1,
  sources        text[] NOT NULL DEFAULT '{}',
  totals         jsonb NOT NULL,
  matched        integer NOT NULL,
  open_cases     integer NOT NULL,
  finished_at    timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (country_code, operator, business_date)
);

-- One difference between our books and an operator's, for one movement (unique: a movement is in at most
-- one case, whichever day's run found it). OPEN until a later run finds it matched (MATCHED_LATER), the
-- service applies the rule already decided (AUTOMATIC: a late success), or a person accepts the operator's
-- side (ACCEPTED) or writes it off (WRITTEN_OFF). difference: how much more the operator holds than our books
-- say (negative: less). posted_amount: what ACCEPTED postings moved between OPERATOR_RECEIVABLE and the
-- reconciliation suspense so far; written_off_amount: what then went from suspense to write-off. A resolved
-- case whose difference later changes is opened again, and accepting it posts only the change.
CREATE TABLE reconciliation_cases (
  id                  uuid PRIMARY KEY,
  country_code        text NOT NULL,
  operator            text NOT NULL,
  kind                text NOT NULL CHECK (kind IN ('CASHIN', 'REFUND', 'PAYOUT')),
  record_key          text NOT NULL,
  business_date       date NOT NULL,
  category            text NOT NULL CHECK (category IN ('STATUS_DIFFERS', 'AMOUNT_DIFFERS', 'MISSING_AT_OPERATOR', 'UNKNOWN_TO_US')),
  state               text NOT NULL CHECK (state IN ('OPEN', 'RESOLVED')),
  resolution          text CHECK (resolution IN ('MATCHED_LATER', 'AUTOMATIC', 'ACCEPTED', 'WRITTEN_OFF')),
  transaction_id      uuid REFERENCES transactions(id),
  refund_id           uuid REFERENCES refunds(id),
  currency            text NOT NULL,
  difference          bigint NOT NULL,
  posted_amount       bigint NOT NULL DEFAULT 0,
  written_off_amount  bigint NOT NULL DEFAULT 0,
  journal_ids         uuid[] NOT NULL DEFAULT '{}',
  ours                jsonb,
  theirs              jsonb,
  note                text,
  resolved_by         uuid REFERENCES staff_users(id),
  resolved_at         timestamptz(3),
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT reconciliation_cases_key UNIQUE (country_code, operator, kind, record_key),
  CONSTRAINT reconciliation_cases_resolved CHECK ((state = 'RESOLVED') = (resolution IS NOT NULL))
);
CREATE INDEX reconciliation_cases_open_idx ON reconciliation_cases (created_at) WHERE state = 'OPEN';
CREATE INDEX reconciliation_cases_transaction_idx ON reconciliation_cases (transaction_id) WHERE transaction_id IS NOT NULL;

-- Two more country accounts with a running balance and no merchant: RECONCILIATION_SUSPENSE (accepted
-- differences not settled yet; either sign) and RECONCILIATION_WRITE_OFF (what the company absorbed).
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('MERCHANT_AVAILABLE', 'MERCHANT_PENDING', 'MERCHANT_REFUND_RESERVED', 'MERCHANT_CASHOUT_RESERVED', 'OPERATOR_RECEIVABLE',
                  'CUSTOMER_SUSPENSE', 'RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_owner;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_owner
  CHECK ((kind IN ('OPERATOR_RECEIVABLE', 'CUSTOMER_SUSPENSE', 'RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF')) = (merchant_id IS NULL));

-- ledger_post as before (20261130000000), with the two reconciliation accounts kept like CUSTOMER_SUSPENSE.
CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id uuid, p_merchant_id uuid, p_country_code text, p_currency text,
  p_posting text, p_transaction_id uuid, p_refund_id uuid, p_lines jsonb
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line jsonb;
  line_kind text;
  line_amount bigint;
  account bigint;
BEGIN
  FOR line IN SELECT e.value FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
    line_kind := line->>'account';
    line_amount := (line->>'amount')::bigint;
    IF line_kind = 'OPERATOR_RECEIVABLE' THEN
      SELECT id INTO account FROM ledger_accounts
       WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
        VALUES (NULL, p_country_code, p_currency, line_kind)
        ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING;
        SELECT id INTO STRICT account FROM ledger_accounts
         WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind;
      END IF;
    ELSIF line_kind IN ('CUSTOMER_SUSPENSE', 'RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF') THEN
      UPDATE ledger_accounts SET balance = balance + line_amount, updated_at = now()
       WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind
      RETURNING id INTO account;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
        VALUES (NULL, p_country_code, p_currency, line_kind)
        ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING;
        UPDATE ledger_accounts SET balance = balance + line_amount, updated_at = now()
         WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind
        RETURNING id INTO STRICT account;
      END IF;
    ELSE
      UPDATE ledger_accounts SET balance = balance + line_amount, updated_at = now()
       WHERE merchant_id = p_merchant_id AND country_code = p_country_code AND kind = line_kind
      RETURNING id INTO account;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
        VALUES (p_merchant_id, p_country_code, p_currency, line_kind)
        ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING;
        UPDATE ledger_accounts SET balance = balance + line_amount, updated_at = now()
         WHERE merchant_id = p_merchant_id AND country_code = p_country_code AND kind = line_kind
        RETURNING id INTO STRICT account;
      END IF;
    END IF;
    INSERT INTO journal_entries (journal_id, account_id, amount, posting, transaction_id, refund_id)
    VALUES (p_journal_id, account, line_amount, p_posting, p_transaction_id, p_refund_id);
  END LOOP;
END $$;
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION ledger_post(uuid, uuid, text, text, text, uuid, uuid, jsonb) SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
