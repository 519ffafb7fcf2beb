-- Payment links (docs/payment-links.md): a merchant's page at /l/{slug} where any customer pays a
-- cash-in. The slug is the only key the customer's page is reached by: 16 random bytes, base64url.
-- A link has a fixed amount or bounds the customer types within; a single-use link has max_payments 1.
CREATE TABLE payment_links (
  id             uuid PRIMARY KEY,
  merchant_id    uuid NOT NULL REFERENCES merchants(id),
  slug           text NOT NULL UNIQUE CHECK (slug ~ '^[A-Za-z0-9_-]{22}$'),
  description    text NOT NULL CHECK (length(description) BETWEEN 1 AND 255),
  country_code   text NOT NULL REFERENCES subsidiaries(country_code),
  currency       text NOT NULL,
  amount         bigint CHECK (amount > 0),
  min_amount     bigint CHECK (min_amount > 0),
  max_amount     bigint,
  reusable       boolean NOT NULL,
  -- Payments in progress or successful that the link takes at most; null: no cap (reusable only).
  max_payments   integer CHECK (max_payments > 0),
  expires_at     timestamptz(3),
  redirect_url   text,
  metadata       jsonb,
  deactivated_at timestamptz(3),
  created_at     timestamptz(3) NOT NULL DEFAULT now(),
  updated_at     timestamptz(3) NOT NULL DEFAULT now(),
  CHECK ((amount IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL)
      OR (amount IS NULL AND min_amount IS NOT NULL AND max_amount >= min_amount)),
  CHECK (reusable OR max_payments = 1)
);
-- The merchant's list, newest first, paged by (created_at, id).
CREATE INDEX payment_links_merchant_created_idx ON payment_links (merchant_id, created_at, id);

-- The link a cash-in was paid through. Null for every other payment; its index holds link payments only
-- (a link's counts and its payments list).
ALTER TABLE transactions ADD COLUMN payment_link_id uuid REFERENCES payment_links(id);
CREATE INDEX transactions_payment_link_idx ON transactions (payment_link_id, created_at) WHERE payment_link_id IS NOT NULL;
