-- The three roles. Roles are cluster-wide, so this is written to be re-run against any database
-- of the cluster. Each role can log in (the embedded cluster trusts local socket connections;
-- on a shared server give them passwords or map them through pg_hba.conf).
--   consent_ledger_owner    owns the schema; the only role that may alter it (migrations).
--   consent_ledger_app      appends only through ledger.append_events and reads.
--   consent_ledger_auditor  reads, nothing else.
DO $roles$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_owner') THEN
    CREATE ROLE consent_ledger_owner LOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_app') THEN
    CREATE ROLE consent_ledger_app LOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_auditor') THEN
    CREATE ROLE consent_ledger_auditor LOGIN;
  END IF;
END
$roles$;
