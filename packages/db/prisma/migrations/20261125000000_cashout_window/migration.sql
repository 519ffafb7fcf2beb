-- A cash-out's approval rule sums the merchant's cash-outs of the last 24 hours (in total and per
-- beneficiary) while it holds the merchant's cash-out lock: this index reads only cash-out rows of that
-- merchant and window, however many cash-ins the merchant has.
CREATE INDEX transactions_cashout_window_idx ON transactions (merchant_id, created_at) INCLUDE (amount, msisdn, status, country_code) WHERE type = 'CASHOUT';
