-- Real operators (MTN MoMo, Orange Money, Wave) beside the simulator: a subsidiary has one account per
-- operator it has a contract with, and each cash-in or cash-out records the operator it went through.

CREATE TABLE operator_accounts (
  country_code       text        NOT NULL,
  -- The operator as merchants name it (the `operator` field of a cash-in): MTN, ORANGE, MOOV, WAVE, SIMULATOR.
  operator           text        NOT NULL CHECK (operator ~ '^[A-Z][A-Z0-9_]{1,31}$'),
  -- Which adapter speaks to it (simulator, mtn-momo, orange-webpay, orange-mp, wave).
  api                text        NOT NULL CHECK (api ~ '^[a-z][a-z0-9-]{1,31}$'),
  -- NULL: not configured yet (a SIMULATOR account then uses the services' OPERATOR_* settings).
  base_url           text        CHECK (base_url ~ '^https?://'),
  -- The account's secrets as one JSON object sealed with the secret box (MASTER_KEY), bound to the row:
  -- never stored in clear, never shown back.
  credentials_sealed text,
  -- Non-secret settings of the adapter (target environment, country path, ...).
  settings           jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(settings) = 'object'),
  -- E.164 prefixes (with "+") of the numbers this operator serves; routing takes the longest match
  -- among the subsidiary's enabled accounts. Empty: reachable only when a cash-in names the operator.
  prefixes           text[]      NOT NULL DEFAULT '{}' CHECK (array_position(prefixes, NULL) IS NULL),
  enabled            boolean     NOT NULL DEFAULT false,
  -- Set by an admin (or by the automatic breaker) when the operator is down: new cash-ins for it answer 503.
  marked_down_at     timestamptz(3),
  marked_down_reason text,
  updated_at         timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (country_code, operator)
);

-- Routing reads this on every cash-in: gateways cache it and drop the cache on change, like the
-- subsidiaries (the reference-change notification of 20261124000000).
CREATE TRIGGER operator_accounts_reference_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON operator_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();

-- Seed: the prefixes of each country's operators (national numbers after the country code), as data an
-- admin edits. Real operators start disabled (no credentials yet); the simulator serves the test numbers
-- by longer prefixes, so test-mode numbers never reach a real operator.
INSERT INTO operator_accounts (country_code, operator, api, prefixes, enabled) VALUES
  ('CI', 'SIMULATOR', 'simulator', '{+2250700,+2250701,+2250707}', true),
  ('CI', 'MTN', 'mtn-momo', '{+22505}', false),
  ('CI', 'ORANGE', 'orange-webpay', '{+22507}', false),
  ('CI', 'WAVE', 'wave', '{}', false),
  ('SN', 'SIMULATOR', 'simulator', '{+22177000,+22177123}', true),
  ('SN', 'ORANGE', 'orange-webpay', '{+22177,+22178}', false),
  ('SN', 'WAVE', 'wave', '{}', false),
  ('CM', 'SIMULATOR', 'simulator', '{+23767123,+2376771,+23769000,+23765000}', true),
  ('CM', 'MTN', 'mtn-momo', '{+23767,+237650,+237651,+237652,+237653,+237654,+237680,+237681,+237682,+237683}', false),
  ('CM', 'ORANGE', 'orange-mp', '{+23769,+237655,+237656,+237657,+237658,+237659}', false);

-- Existing rows all went through the simulator, the only operator there was.
ALTER TABLE transactions ADD COLUMN operator text NOT NULL DEFAULT 'SIMULATOR';
-- What the customer must do (a redirect URL, a one-time code), as the operator's answer to the push said.
ALTER TABLE transactions ADD COLUMN customer_action jsonb;
