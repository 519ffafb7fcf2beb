-- Invitations to a merchant's team (docs/merchant-portal/team.md). The link's token is 32 random bytes
-- sent by mail only; the table keeps its SHA-256, so a reader of the database cannot follow a link. An
-- invitation is pending until accepted, revoked (a re-invitation of the same email revokes the old one) or
-- past expires_at. It comes from a member of the merchant or, for a first owner, from our staff.
CREATE TABLE merchant_invitations (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id         uuid NOT NULL REFERENCES merchants(id),
  email               text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  role                text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'viewer')),
  -- The language the mail was written in, and the acceptance page's first language.
  locale              text NOT NULL CHECK (locale IN ('fr', 'en')),
  token_hash          text NOT NULL UNIQUE,
  invited_by          uuid REFERENCES merchant_users(id),
  invited_by_staff_id uuid REFERENCES staff_users(id),
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  expires_at          timestamptz(3) NOT NULL,
  accepted_at         timestamptz(3),
  revoked_at          timestamptz(3),
  CHECK (num_nonnulls(invited_by, invited_by_staff_id) = 1),
  CHECK (accepted_at IS NULL OR revoked_at IS NULL)
);
-- The Team page's pending invitations, newest first.
CREATE INDEX merchant_invitations_merchant_idx ON merchant_invitations (merchant_id, created_at);

-- "Forgot your password": single-use links, valid one hour, stored as the SHA-256 of their token.
CREATE TABLE merchant_password_resets (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_user_id uuid NOT NULL REFERENCES merchant_users(id) ON DELETE CASCADE,
  token_hash       text NOT NULL UNIQUE,
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  expires_at       timestamptz(3) NOT NULL,
  used_at          timestamptz(3)
);
CREATE INDEX merchant_password_resets_user_idx ON merchant_password_resets (merchant_user_id);
