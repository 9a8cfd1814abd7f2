-- The three roles. Roles are cluster-wide, so this is written to be re-run against any database
-- of the cluster, even by two migrations of two databases at once (the loser of a race to create
-- a role finds it created). Each role can log in (the embedded cluster trusts local socket
-- connections only; on a shared server give them passwords or map them in pg_hba.conf).
--   consent_ledger_owner    owns the schema; the only role that may alter it (migrations).
--   consent_ledger_app      appends only through ledger.append_events, and reads.
--   consent_ledger_auditor  reads, nothing else.
DO $roles$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['consent_ledger_owner', 'consent_ledger_app', 'consent_ledger_auditor'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I LOGIN', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
      END;
    END IF;
  END LOOP;
END
$roles$;
