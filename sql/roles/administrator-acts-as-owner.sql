-- The migrating administrator acts as the owner for the rest of the manifest (become-owner.sql).
-- A superuser may already. Any other administrator (a role with CREATEROLE that owns the ledger's
-- database, as on a managed PostgreSQL where nobody is a superuser) is made a member of the owner
-- here: PostgreSQL lets a CREATEROLE role grant the roles it created (decision 0070).
DO $member$
BEGIN
  IF NOT pg_has_role(current_user, 'consent_ledger_owner', 'MEMBER') THEN
    EXECUTE format('GRANT consent_ledger_owner TO %I', current_user);
  END IF;
END
$member$;
