-- A late success for a FAILED cash-in (decisions 13): the operator took the customer's money for a
-- payment that is final here. That money is the customer's, not the merchant's: it is held in a suspense
-- account of the country and paid back through the operator's refund, by a refund row of the system's
-- own origin that the merchant never sees and that never touches the merchant's accounts.

-- origin: who asked for the refund. MERCHANT, every existing row (POST /refunds); LATE_SUCCESS, the
-- automatic return of a late success. original_provider_tx_id: the operator's id of the payment it
-- confirmed late, kept on the return because the FAILED transaction's own columns stay as the merchant saw them.
ALTER TABLE refunds
  ADD COLUMN origin text NOT NULL DEFAULT 'MERCHANT',
  ADD COLUMN original_provider_tx_id text,
  ADD CONSTRAINT refunds_origin_check CHECK (origin IN ('MERCHANT', 'LATE_SUCCESS'));
-- At most one return per cash-in, whatever repeats the operator's OK (callbacks, status answers, retried
-- jobs, two bridges): the second insert finds this index. Partial: merchants' refunds are many per cash-in.
CREATE UNIQUE INDEX refunds_late_success_key ON refunds (transaction_id) WHERE origin = 'LATE_SUCCESS';

-- CUSTOMER_SUSPENSE: per country, no merchant, like OPERATOR_RECEIVABLE; unlike it, it keeps a running
-- balance (late successes are rare, so one row per country serialises nothing that matters) and that
-- balance cannot go below zero: it is what is owed to customers and not yet paid back.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('MERCHANT_AVAILABLE', 'MERCHANT_PENDING', 'MERCHANT_REFUND_RESERVED', 'MERCHANT_CASHOUT_RESERVED', 'OPERATOR_RECEIVABLE', 'CUSTOMER_SUSPENSE'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_owner;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_owner
  CHECK ((kind IN ('OPERATOR_RECEIVABLE', 'CUSTOMER_SUSPENSE')) = (merchant_id IS NULL));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_suspense_non_negative
  CHECK (kind <> 'CUSTOMER_SUSPENSE' OR balance >= 0);

-- ledger_post as before (20261128000000), with CUSTOMER_SUSPENSE a country account that keeps its balance.
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
    ELSIF line_kind = 'CUSTOMER_SUSPENSE' THEN
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
-- CREATE OR REPLACE drops the function's settings: its names resolve in this schema again.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION ledger_post(uuid, uuid, text, text, text, uuid, uuid, jsonb) SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
