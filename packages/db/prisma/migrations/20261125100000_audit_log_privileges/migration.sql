-- audit_log becomes append-only for the application's role by privilege, not only by trigger.
--
-- Two guards, because neither covers everyone:
-- - the triggers (UPDATE, DELETE and now TRUNCATE refused) bind every role, superusers included,
--   until someone who owns the table disables them;
-- - privileges bind every role but superusers: the application's role, `mm_app`, may only SELECT and
--   INSERT audit rows and does not own the table, so it can neither change or remove rows nor disable
--   the triggers. The table belongs to `mm_audit_owner`, a role nobody logs in as.
-- Tests and `pnpm start` connect as the superuser `postgres`, for whom only the triggers hold. In
-- production the services connect as a login role that is a member of `mm_app` (docs/backoffice.md).

-- TRUNCATE fires no row trigger: a statement trigger of its own (also stops TRUNCATE ... CASCADE from
-- staff_users, which audit_log references).
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- Roles belong to the cluster, not to this database: another database of the cluster may have created
-- them already, or be creating them right now (the second CREATE then waits for the first and fails
-- with unique_violation, which is fine: the role exists). Where the migrating role may not create
-- roles, a DBA creates both beforehand and this block does nothing.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mm_audit_owner') THEN
    BEGIN
      CREATE ROLE mm_audit_owner NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mm_app') THEN
    BEGIN
      CREATE ROLE mm_app NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
END $$;

-- The owner may do anything to the table (disable its triggers included): only the migrating role is
-- ever a member of it, never the application's. A role that is not a superuser may only hand a table to
-- a role holding CREATE on its schema (a NOLOGIN role: only its members can use it).
GRANT CREATE ON SCHEMA public TO mm_audit_owner;
ALTER TABLE audit_log OWNER TO mm_audit_owner;

-- What the services and the admin CLI need: read and write rows of every table, use the sequences.
-- Nothing else (no TRUNCATE, no TRIGGER, no REFERENCES, no DDL).
GRANT USAGE ON SCHEMA public TO mm_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO mm_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO mm_app;
-- Tables and sequences later migrations create (as the same migrating role) get the same.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO mm_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO mm_app;
-- The migrations' own bookkeeping is the migrating role's business.
REVOKE ALL ON _prisma_migrations FROM mm_app;

-- The audit log: read and append, for the application and for anyone else.
REVOKE ALL ON audit_log FROM PUBLIC;
REVOKE ALL ON audit_log FROM mm_app;
GRANT SELECT, INSERT ON audit_log TO mm_app;
