-- The auditor role: reads everything in the ledger, changes nothing.
GRANT USAGE ON SCHEMA ledger TO consent_ledger_auditor;
GRANT SELECT ON ledger.logs, ledger.events, ledger.batches, ledger.schema_version, ledger.anomalies
  TO consent_ledger_auditor;
