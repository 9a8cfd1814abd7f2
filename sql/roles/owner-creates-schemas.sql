-- The owner creates the ledger schema, so it may create schemas in the
-- ledger's database. Run before become-owner.sql, by the migrating administrator.
DO $grant$
BEGIN
  EXECUTE format('GRANT CREATE ON DATABASE %I TO consent_ledger_owner', current_database());
END
$grant$;
