-- The merchant portal's users: people of one merchant, each with a role (docs/merchant-portal.md has
-- the table of what each role may do). One email is one person of one merchant: an accountant working for
-- two shops has two addresses (or two sign-ins), which keeps every session scoped to exactly one merchant.
CREATE TABLE merchant_users (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id            uuid NOT NULL REFERENCES merchants(id),
  email                  text NOT NULL UNIQUE CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  name                   text NOT NULL CHECK (length(btrim(name)) > 0),
  role                   text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'viewer')),
  password_hash          text NOT NULL,
  -- The TOTP secret, sealed with MASTER_KEY like the API secrets; set at enrolment, confirmed by
  -- totp_enabled_at once the user has typed one code from it.
  totp_secret_ciphertext text,
  totp_enabled_at        timestamptz(3),
  -- "Sign out of every session": a session started before this instant is refused.
  sessions_valid_after   timestamptz(3) NOT NULL DEFAULT now(),
  disabled_at            timestamptz(3),
  created_at             timestamptz(3) NOT NULL DEFAULT now(),
  updated_at             timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (totp_enabled_at IS NULL OR totp_secret_ciphertext IS NOT NULL)
);
CREATE INDEX merchant_users_merchant_idx ON merchant_users (merchant_id, created_at);

-- One-time recovery codes of a user's two-factor sign-in, stored as sha256 (they are random, 50 bits and
-- more: no need for a slow hash). A used code keeps its row, so it cannot be used again.
CREATE TABLE merchant_user_recovery_codes (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_user_id uuid NOT NULL REFERENCES merchant_users(id) ON DELETE CASCADE,
  code_hash        text NOT NULL,
  used_at          timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (merchant_user_id, code_hash)
);

-- An owner may require two-factor sign-in of the whole team.
ALTER TABLE merchants ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;

-- The portal's actions go to the same chained audit log as the staff's, with the merchant and its user
-- who acted: the merchant's Security page lists its own rows by the index below.
ALTER TABLE audit_log
  ADD COLUMN merchant_id uuid REFERENCES merchants(id),
  ADD COLUMN merchant_user_id uuid REFERENCES merchant_users(id);
CREATE INDEX audit_log_merchant_idx ON audit_log (merchant_id, id) WHERE merchant_id IS NOT NULL;

-- The chain covers the two new columns: a row of a merchant's user is hashed in the v2 form (v1's fields,
-- then the two). Rows without them keep the v1 form byte for byte, so every hash already written holds.
CREATE OR REPLACE FUNCTION audit_log_row_hash(prev_hash text, r audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    CASE WHEN r.merchant_id IS NULL AND r.merchant_user_id IS NULL THEN 'audit_log/v1|' ELSE 'audit_log/v2|' END ||
    prev_hash || '|' ||
    audit_log_field(r.id::text) || audit_log_field(r.staff_id::text) || audit_log_field(r.actor) ||
    audit_log_field(r.action) || audit_log_field(r.target_type) || audit_log_field(r.target_id) ||
    audit_log_field(r.before::text) || audit_log_field(r.after::text) || audit_log_field(r.request_id) ||
    audit_log_field(r.ip) || audit_log_field((extract(epoch FROM r.created_at) * 1000)::bigint::text) ||
    CASE WHEN r.merchant_id IS NULL AND r.merchant_user_id IS NULL THEN ''
      ELSE audit_log_field(r.merchant_id::text) || audit_log_field(r.merchant_user_id::text) END,
    'UTF8')), 'hex')
$$;
