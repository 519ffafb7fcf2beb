-- Balances booked at COMMIT. A posting used to update its merchant's balance rows when ledger_post ran,
-- so the rows stayed locked until the caller's COMMIT arrived: one more round trip through the client,
-- which on a loaded host can take tens of milliseconds, and every other posting of that merchant queued
-- behind it. Under load the queue outgrew the lock bound (lock_timeout) and requests were answered 503
-- (chaos/horizontal-scale.test.ts). Now ledger_post only writes the journal (finding or creating each
-- account, which locks nothing another posting waits for); a deferred trigger adds each line to its
-- account's running balance while the transaction commits, so a balance row is locked for the commit
-- alone, with no client in the loop. The CHECKs (a merchant account or CUSTOMER_SUSPENSE below zero) are
-- raised then, and COMMIT fails: nothing of the transaction is kept, as before. Lines are booked in the
-- order they were written (the caller sorts a journal's lines by account kind), so journals of one
-- merchant still lock its rows in one fixed order, and always after every other row their transaction
-- locked.
CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id uuid, p_merchant_id uuid, p_country_code text, p_currency text,
  p_posting text, p_transaction_id uuid, p_refund_id uuid, p_lines jsonb
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line jsonb;
  line_kind text;
  line_owner uuid;
  account bigint;
BEGIN
  FOR line IN SELECT e.value FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
    line_kind := line->>'account';
    line_owner := CASE WHEN line_kind IN ('OPERATOR_RECEIVABLE', 'CUSTOMER_SUSPENSE', 'RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF')
                       THEN NULL ELSE p_merchant_id END;
    -- Two statements, not one with IS NOT DISTINCT FROM, which no index serves.
    IF line_owner IS NULL THEN
      SELECT id INTO account FROM ledger_accounts WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind;
    ELSE
      SELECT id INTO account FROM ledger_accounts WHERE merchant_id = line_owner AND country_code = p_country_code AND kind = line_kind;
    END IF;
    IF NOT FOUND THEN
      INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind)
      VALUES (line_owner, p_country_code, p_currency, line_kind)
      ON CONFLICT ON CONSTRAINT ledger_accounts_owner_key DO NOTHING;
      IF line_owner IS NULL THEN
        SELECT id INTO STRICT account FROM ledger_accounts WHERE merchant_id IS NULL AND country_code = p_country_code AND kind = line_kind;
      ELSE
        SELECT id INTO STRICT account FROM ledger_accounts WHERE merchant_id = line_owner AND country_code = p_country_code AND kind = line_kind;
      END IF;
    END IF;
    INSERT INTO journal_entries (journal_id, account_id, amount, posting, transaction_id, refund_id)
    VALUES (p_journal_id, account, (line->>'amount')::bigint, p_posting, p_transaction_id, p_refund_id);
  END LOOP;
END $$;
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION ledger_post(uuid, uuid, text, text, text, uuid, uuid, jsonb) SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;

-- OPERATOR_RECEIVABLE keeps no running balance (one row per country would serialise every cash-in of
-- the country); its balance is the sum of its entries (ledger-verification.ts).
CREATE FUNCTION journal_entry_book() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts SET balance = balance + NEW.amount, updated_at = now()
   WHERE id = NEW.account_id AND kind <> 'OPERATOR_RECEIVABLE';
  RETURN NULL;
END $$;
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION journal_entry_book() SET search_path = pg_catalog, %I, pg_temp', current_schema());
END $$;
CREATE CONSTRAINT TRIGGER journal_entries_book
  AFTER INSERT ON journal_entries DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_entry_book();
