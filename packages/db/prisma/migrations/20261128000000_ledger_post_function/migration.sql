-- A journal in one round trip. What a posting is (its lines, and that they balance) is decided by the
-- service (@mm/domain); this function only writes it, in the order it is given: the caller sorts the
-- lines by account kind, so every journal of a merchant locks its balance rows in one fixed order
-- (two journals touching them in opposite orders would deadlock). Each merchant account is one plain
-- UPDATE: an account is inserted only when the update finds none (a merchant's first posting in a
-- country), and a CHECK violation (balance below zero) aborts the caller's transaction as before.
-- System accounts keep no running balance (one row per country would serialise its cash-ins).
CREATE FUNCTION ledger_post(
  p_journal_id uuid, p_merchant_id uuid, p_country_code text, p_currency text,
  p_posting text, p_transaction_id uuid, p_refund_id uuid, p_lines jsonb
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line jsonb;
  line_kind text;
  line_amount bigint;
  account bigint;
BEGIN
  -- In the order given (WITH ORDINALITY): the lock order is the caller's, not the planner's.
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
-- Names inside resolve in this schema: never to a temporary table (which any role may create, and which
-- an unqualified name finds first by default) nor to a function of another schema.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION ledger_post(uuid, uuid, text, text, text, uuid, uuid, jsonb) SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
