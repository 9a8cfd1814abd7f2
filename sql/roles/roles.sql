-- The three roles. Roles are cluster-wide, so this is written to be re-run against any database
-- of the cluster, even by two migrations of two databases at once (the loser of a race to create
-- a role finds it created). Each role can log in (the embedded cluster trusts local socket
-- connections only; on a shared server give them passwords or map them in pg_hba.conf).
--   consent_ledger_owner    owns the schema; the only role that may alter it (migrations).
--   consent_ledger_app      appends only through ledger.append_events, and reads.
--   consent_ledger_auditor  reads, nothing else.
--   consent_ledger_projector owns the projections' schemas and alone writes them (decision 0058).
--                           The folds take it with SET LOCAL ROLE. The owner is a member (so that
--                           whoever may act as the owner may run the folds) but does not inherit its
--                           rights: as itself, the owner cannot write a projection table. On a server
--                           of your own, `consent-ledger project run --follow` logs in as it
--                           (decision 0070), so it may log in too.
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
DO $projector$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_projector') THEN
    BEGIN
      CREATE ROLE consent_ledger_projector LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT (SELECT rolcanlogin FROM pg_roles WHERE rolname = 'consent_ledger_projector') THEN
    ALTER ROLE consent_ledger_projector LOGIN;
  END IF;
  IF NOT pg_has_role('consent_ledger_owner', 'consent_ledger_projector', 'MEMBER') THEN
    GRANT consent_ledger_projector TO consent_ledger_owner;
  END IF;
  IF (SELECT rolinherit FROM pg_roles WHERE rolname = 'consent_ledger_owner') THEN
    ALTER ROLE consent_ledger_owner NOINHERIT;
  END IF;
END
$projector$;
