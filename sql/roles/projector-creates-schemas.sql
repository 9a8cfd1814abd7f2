-- The projector creates the projections' schemas (a live one, a rebuild's build and stage
-- schemas), owned by itself.
DO $grant$
BEGIN
  EXECUTE format('GRANT CREATE ON DATABASE %I TO consent_ledger_projector', current_database());
END
$grant$;
