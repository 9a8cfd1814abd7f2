-- The application role: reads, and appends only through ledger.append_events (which runs with
-- the owner's rights). No INSERT, UPDATE, DELETE or TRUNCATE on any table.
GRANT USAGE ON SCHEMA ledger TO consent_ledger_app;
GRANT SELECT ON ledger.logs, ledger.events, ledger.batches, ledger.schema_version TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.append_events(text, text[], text[], text) TO consent_ledger_app;
