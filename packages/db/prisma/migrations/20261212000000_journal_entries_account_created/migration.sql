-- The merchant portal's monthly statement (packages/db/src/ledger/monthly-statement.ts) reads a merchant's
-- journal entries from a month's first instant to now. On journal_entries_account_idx (account_id) alone that
-- read walked every entry the account ever had; with created_at after account_id it reads only the entries
-- since the month's start. The new index replaces the old one (every lookup by account_id alone, such as
-- the ledger verification's join, still uses its first column), so each posting still writes as many
-- index entries as before.
--
-- Built in the runner's transaction (so not CONCURRENTLY), like 20261210000000: on a large table a DBA
-- builds journal_entries_account_created_idx beforehand with CREATE INDEX CONCURRENTLY; IF NOT EXISTS then
-- makes this step a no-op.
CREATE INDEX IF NOT EXISTS journal_entries_account_created_idx ON journal_entries (account_id, created_at);
DROP INDEX IF EXISTS journal_entries_account_idx;
