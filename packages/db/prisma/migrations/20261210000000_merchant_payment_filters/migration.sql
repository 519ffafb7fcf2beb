-- The merchant portal's payment list (GET /payments) reads one merchant's transactions newest first
-- through transactions_merchant_created_idx. A filter on a status or an amount range that few of the
-- merchant's rows match (REVERSED, FAILED, "above 1 000 000") would there read the merchant's whole
-- history to fill one page: these two find those rows directly. Type (cash-outs: the partial
-- transactions_cashout_window_idx), number (transactions_msisdn_idx) and order id
-- (transactions_merchant_order_key) have theirs already; operator and country split a merchant's rows
-- into a few large shares and stay filters over the merchant's index (merchant-payment-plans.test.ts).
--
-- Built in the runner's transaction (so not CONCURRENTLY): writes to transactions wait for one scan of
-- it. On a deployment whose table has grown large, a DBA builds them beforehand with
-- CREATE INDEX CONCURRENTLY and these exact names; IF NOT EXISTS then makes this step a no-op.
CREATE INDEX IF NOT EXISTS transactions_merchant_status_created_idx ON transactions (merchant_id, status, created_at);
CREATE INDEX IF NOT EXISTS transactions_merchant_amount_created_idx ON transactions (merchant_id, amount, created_at);

-- The list orders by (created_at, id) and pages on that pair. With id in the merchant's index, the index
-- gives that order itself and a page is its first rows; without it, each page needed a sort of the rows
-- sharing a created_at, and the planner sometimes preferred walking transactions_created_idx and skipping
-- other merchants' rows (merchant-payment-plans.test.ts saw both). Rebuilt here in the runner's
-- transaction like the two above: on a large table, plan the few seconds of blocked writes.
DROP INDEX IF EXISTS transactions_merchant_created_idx;
CREATE INDEX transactions_merchant_created_idx ON transactions (merchant_id, created_at, id);
