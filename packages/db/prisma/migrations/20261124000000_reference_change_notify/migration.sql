-- Gateways cache what every API request reads (API keys with their merchant's status, active
-- subsidiaries) and drop their cache when PostgreSQL says any of it changed. A trigger rather than
-- the writers: the back-office, the CLI and an operator's hand-written SQL are all covered. Delivered
-- at commit, never for a rolled-back change; one notification per statement is enough, since a
-- gateway drops everything it holds on any of them.
CREATE FUNCTION notify_reference_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('reference_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_reference_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();
CREATE TRIGGER merchants_reference_change AFTER UPDATE OF status OR DELETE OR TRUNCATE ON merchants
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();
CREATE TRIGGER subsidiaries_reference_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subsidiaries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();
