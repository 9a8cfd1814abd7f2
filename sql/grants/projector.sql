-- The projector role: reads the log and the functions the folds call; writes only the
-- projections' schemas, which it owns. Nothing in the ledger schema may it change.
GRANT USAGE ON SCHEMA ledger TO consent_ledger_projector;
GRANT SELECT ON ledger.logs, ledger.events, ledger.schema_version TO consent_ledger_projector;
GRANT EXECUTE ON FUNCTION ledger.upcast_age_range_shared_v1(jsonb), ledger.version_key(text), ledger.is_age_signal(text, jsonb),
  ledger.question_outcome(text, boolean, boolean)
  TO consent_ledger_projector;
